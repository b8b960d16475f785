import { tenantScope, type RequestContext } from "../context/request-context";
import { inGraphQLFieldNames } from "./field-names";
import type { Airport } from "../locations/airport";
import type { Resolvers, SearchFlightsInput } from "../generated/graphql";
import type { SearchBatch } from "../search/search.service";
import { formatMinor } from "../money/format";
import type { AvailableService } from "../gateway/contract/seat-maps";
import { offerServices } from "../orders/services/service-selection";
import { comparisonKey } from "../gateway/contract/comparison-key";
import { offerSupplier, splitTotal, type StoredOffer, type StoredSegment, type StoredSlice } from "../search/offer-payload";
import { fromVariantA, searchInputA, type SearchRequest } from "../search/search.inputs";
import type { PenaltyCondition } from "../gateway/contract/offers";
import { formatIsoDuration } from "../time/local-time";
import { parseInput } from "../validation/parse-input";
import { pageRequestFromArgs, toConnection } from "./connection";
import { fromGraphQLEnum, toGraphQLEnum } from "./enum-case";
import { loadersFor } from "./loaders";

/** A stored offer names airports by code; the index always has them (they came from it). */
function airport(ctx: RequestContext, code: string): Airport {
  const found = ctx.services.airports.getByIata(code);
  if (!found) throw new Error(`stored offer names unknown airport ${code}`);
  return found;
}

/** The REST input names the search rules report, as the GraphQL input spells them. */
const SEARCH_FIELD_NAMES: Readonly<Record<string, string>> = {
  departure_date: "departureDate",
  cabin_class: "cabinClass",
  max_connections: "maxConnections",
  supplier_timeout: "supplierTimeout",
  supplier_behaviour: "supplierBehaviour",
};

const penalty = (condition: PenaltyCondition, currency: string) => ({
  allowed: condition.allowed,
  penaltyAmount: condition.penaltyAmount === null ? null : formatMinor(condition.penaltyAmount, currency),
  penaltyCurrency: condition.penaltyAmount === null ? null : currency,
});

/** A service an offer can be booked with, or an order's passengers can still add, in GraphQL's names. */
export function availableServiceFields(service: AvailableService) {
  return {
    id: service.id,
    type: service.type,
    totalAmount: formatMinor(service.totalAmount, service.currency),
    totalCurrency: service.currency,
    maximumQuantity: service.maximumQuantity,
    passengerIds: service.passengerIds,
    segmentIds: service.segmentIds,
  };
}

/** A GraphQL search input as a search request: the REST Variant A schema is the one set of search rules, GraphQL names mapped onto it. */
function searchRequestOf(input: SearchFlightsInput): SearchRequest {
  const body = {
    slices: input.slices.map((slice) => ({ origin: slice.origin, destination: slice.destination, departure_date: slice.departureDate })),
    passengers: input.passengers.map((passenger) => ({ type: fromGraphQLEnum(passenger.type), ...(passenger.id == null ? {} : { id: passenger.id }) })),
    ...(input.cabinClass == null ? {} : { cabin_class: fromGraphQLEnum(input.cabinClass) }),
    ...(input.maxConnections == null ? {} : { max_connections: input.maxConnections }),
    ...(input.supplierTimeout == null ? {} : { supplier_timeout: input.supplierTimeout }),
    ...(input.supplierBehaviour == null ? {} : { supplier_behaviour: input.supplierBehaviour }),
  };
  return fromVariantA(parseInput(searchInputA, body, "invalid_search_params"));
}

export const offerResolvers: Resolvers = {
  Query: {
    offer: (_parent, { id }, ctx) => loadersFor(ctx).offer.load(id),
    offers: async (_parent, args, ctx) => toConnection(await ctx.services.offers.list(tenantScope(ctx), args.offerRequestId ?? undefined, pageRequestFromArgs(args))),
  },
  Mutation: {
    searchFlights: (_parent, { input }, ctx) => inGraphQLFieldNames(SEARCH_FIELD_NAMES, () => ctx.services.search.search(tenantScope(ctx), searchRequestOf(input))),
  },
  Subscription: {
    searchOffers: {
      subscribe: (_parent, { input }, ctx) => inGraphQLFieldNames(SEARCH_FIELD_NAMES, () => ctx.services.search.stream(tenantScope(ctx), searchRequestOf(input))),
      resolve: (batch: SearchBatch) => ({
        supplier: batch.result.supplier,
        status: toGraphQLEnum(batch.result.status),
        durationMs: batch.result.durationMs,
        answeredAt: batch.answeredAt,
        offers: batch.offers,
        remainingSuppliers: batch.remainingSuppliers,
      }),
    },
  },
  SearchResult: {
    offerRequestId: (result) => result.offerRequest.id,
    passengers: (result) => result.search.passengers.map((passenger) => ({ id: passenger.id, type: toGraphQLEnum(passenger.type) })),
    supplierResults: (result) => result.supplierResults.map((entry) => ({ ...entry, status: toGraphQLEnum(entry.status) })),
  },
  Offer: {
    totalAmount: (offer) => formatMinor(offer.totalAmount, offer.currency),
    totalCurrency: (offer) => offer.currency,
    baseAmount: (offer) => formatMinor(splitTotal(offer.totalAmount, offer.payload).baseAmount, offer.currency),
    taxAmount: (offer) => formatMinor(splitTotal(offer.totalAmount, offer.payload).taxAmount, offer.currency),
    feeAmount: (offer) => formatMinor(offer.payload.fee?.amount ?? 0, offer.currency),
    feeCurrency: (offer) => offer.currency,
    expired: (offer, _args, ctx) => offer.expiresAt.getTime() <= tenantScope(ctx).clock.nowMs(),
    owner: (offer) => offer.payload.owner,
    supplier: (offer) => offerSupplier(offer.payload),
    comparisonKey: (offer) => comparisonKey(offer.payload.slices),
    slices: (offer) => offer.payload.slices.map((slice) => ({ slice, offer })),
    passengers: (offer) =>
      offer.payload.passengers.map((passenger) => ({ id: passenger.id, type: toGraphQLEnum(passenger.type), fareAmount: formatMinor(passenger.fareAmount, offer.currency) })),
    passengerIdentityDocumentsRequired: (offer) => offer.payload.passengerIdentityDocumentsRequired,
    conditions: (offer) => ({
      changeBeforeDeparture: penalty(offer.payload.conditions.changeBeforeDeparture, offer.currency),
      refundBeforeDeparture: penalty(offer.payload.conditions.refundBeforeDeparture, offer.currency),
    }),
    paymentRequirements: (offer) => ({ requiresInstantPayment: offer.payload.supplierOffer?.requiresInstantPayment ?? false, priceGuaranteeExpiresAt: offer.expiresAt }),
    availableServices: async (offer, _args, ctx) => (await offerServices(ctx.services.gateway.orders, offer)).map(availableServiceFields),
  },
  Slice: {
    id: ({ slice }) => slice.id,
    origin: ({ slice }, _args, ctx) => airport(ctx, slice.origin),
    destination: ({ slice }, _args, ctx) => airport(ctx, slice.destination),
    departureDate: ({ slice }) => slice.departureDate,
    duration: ({ slice }) => formatIsoDuration(slice.durationMinutes),
    fareBrandName: ({ offer }) => offer.payload.fareBrandName,
    segments: ({ slice, offer }) => slice.segments.map((segment) => ({ segment, offer })),
  },
  Segment: {
    id: ({ segment }) => segment.id,
    origin: ({ segment }, _args, ctx) => airport(ctx, segment.origin),
    destination: ({ segment }, _args, ctx) => airport(ctx, segment.destination),
    departingAt: ({ segment }) => segment.departingAt,
    arrivingAt: ({ segment }) => segment.arrivingAt,
    departingAtUtc: ({ segment }) => new Date(segment.departingAtUtc),
    arrivingAtUtc: ({ segment }) => new Date(segment.arrivingAtUtc),
    duration: ({ segment }) => formatIsoDuration(segment.durationMinutes),
    distanceKm: ({ segment }) => segment.distanceKm,
    marketingCarrier: ({ segment }) => segment.marketingCarrier,
    marketingCarrierFlightNumber: ({ segment }) => segment.marketingCarrierFlightNumber,
    operatingCarrier: ({ segment }) => segment.operatingCarrier,
    operatingCarrierFlightNumber: ({ segment }) => segment.operatingCarrierFlightNumber,
    aircraft: ({ segment }) => segment.aircraft,
    cabinClass: ({ segment }) => toGraphQLEnum(segment.cabinClass),
    passengers: ({ segment, offer }) =>
      offer.payload.passengers.map((passenger) => ({
        passengerId: passenger.id,
        cabinClass: toGraphQLEnum(segment.cabinClass),
        baggages: segment.baggageAllowances[passenger.type].map((bag) => ({ type: bag.type, quantity: bag.quantity })),
      })),
  },
};
