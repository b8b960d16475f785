import type { z } from "zod";
import { airportIndex } from "../locations/airport-index";
import { toLocationView, type LocationView } from "../locations/location-view";
import { formatMinor } from "../money/format";
import type { AvailableService } from "../gateway/contract/seat-maps";
import { offerSupplier, splitTotal, type OfferPayload, type PriceSplit, type StoredOffer, type StoredSegment } from "../search/offer-payload";
import type { OfferRequestRow } from "../search/search-rows";
import { formatIsoDuration } from "../time/local-time";
import type { PenaltyCondition } from "../gateway/contract/offers";
import type { availableServiceSchema, offerASchema, offerBSchema, offerDetailSchema, offerRequestSchema, sliceA, supplierResultSchema } from "./offer.schemas";
import { comparisonKey } from "../gateway/contract/comparison-key";
import type { SupplierResult } from "../gateway/contract/gateway";

/** Airports are reference data: each one's view is built once and shared by every offer. */
const locationViews = new Map<string, LocationView>();

/** The airport's Location view, shared by every offer that names it. */
export function locationView(iataCode: string): LocationView {
  let view = locationViews.get(iataCode);
  if (!view) {
    const airport = airportIndex().getByIata(iataCode);
    if (!airport) throw new Error(`stored offer names unknown airport ${iataCode}`);
    view = Object.freeze(toLocationView(airport));
    locationViews.set(iataCode, view);
  }
  return view;
}

const carrier = (ref: { iataCode: string; name: string }) => ({ iata_code: ref.iataCode, name: ref.name });

/** A local wall time with the offset it had at that instant: `2026-03-07T08:35:00-05:00`. */
export function localWithOffset(local: string, utc: string): string {
  const offsetMinutes = Math.round((Date.parse(`${local}Z`) - Date.parse(utc)) / 60_000);
  const sign = offsetMinutes < 0 ? "-" : "+";
  const absolute = Math.abs(offsetMinutes);
  return `${local}${sign}${String(Math.floor(absolute / 60)).padStart(2, "0")}:${String(absolute % 60).padStart(2, "0")}`;
}

function segmentViewA(segment: StoredSegment, passengers: StoredOffer["payload"]["passengers"]) {
  return {
    id: segment.id,
    origin: locationView(segment.origin),
    destination: locationView(segment.destination),
    departing_at: segment.departingAt,
    arriving_at: segment.arrivingAt,
    duration: formatIsoDuration(segment.durationMinutes),
    distance: String(segment.distanceKm),
    marketing_carrier: carrier(segment.marketingCarrier),
    marketing_carrier_flight_number: segment.marketingCarrierFlightNumber,
    operating_carrier: carrier(segment.operatingCarrier),
    operating_carrier_flight_number: segment.operatingCarrierFlightNumber,
    aircraft: carrier(segment.aircraft),
    passengers: passengers.map((passenger) => ({
      passenger_id: passenger.id,
      cabin_class: segment.cabinClass,
      baggages: segment.baggageAllowances[passenger.type].map((bag) => ({ type: bag.type, quantity: bag.quantity })),
    })),
  };
}

function penaltyView(condition: PenaltyCondition, currency: string) {
  return {
    allowed: condition.allowed,
    penalty_amount: condition.penaltyAmount === null ? null : formatMinor(condition.penaltyAmount, currency),
    penalty_currency: condition.penaltyAmount === null ? null : currency,
  };
}

/** Each passenger's fare, as both variants show it. */
function passengerFares({ payload, currency }: StoredOffer) {
  return payload.passengers.map((passenger) => ({ id: passenger.id, type: passenger.type, fare_amount: formatMinor(passenger.fareAmount, currency) }));
}

/** Base fare and taxes with their currencies, as Variant A names them on offers and orders, and the platform's fee. */
export function priceSplitView({ baseAmount, taxAmount, feeAmount }: PriceSplit, currency: string) {
  return { base_amount: formatMinor(baseAmount, currency), base_currency: currency, tax_amount: formatMinor(taxAmount, currency), tax_currency: currency, ...feeView(feeAmount, currency) };
}

function feeView(feeAmount: number, currency: string) {
  return { fee_amount: formatMinor(feeAmount, currency), fee_currency: currency };
}

/** The slices of an offer, an order or an order change, in Variant A's names. */
export function slicesViewA(payload: OfferPayload): z.output<typeof sliceA>[] {
  return payload.slices.map((slice) => ({
    id: slice.id,
    origin: locationView(slice.origin),
    destination: locationView(slice.destination),
    departure_date: slice.departureDate,
    duration: formatIsoDuration(slice.durationMinutes),
    fare_brand_name: payload.fareBrandName,
    segments: slice.segments.map((segment) => segmentViewA(segment, payload.passengers)),
  }));
}

/** Variant A offer (its field names), as in search results and single-offer retrieval. */
export function offerViewA(offer: StoredOffer): z.output<typeof offerASchema> {
  const { payload, currency } = offer;
  return {
    id: offer.id,
    total_amount: formatMinor(offer.totalAmount, currency),
    total_currency: currency,
    ...priceSplitView(splitTotal(offer.totalAmount, payload), currency),
    expires_at: offer.expiresAt.toISOString(),
    created_at: offer.createdAt.toISOString(),
    owner: carrier(payload.owner),
    supplier: offerSupplier(payload),
    comparison_key: comparisonKey(payload.slices),
    slices: slicesViewA(payload),
    passengers: passengerFares(offer),
    passenger_identity_documents_required: payload.passengerIdentityDocumentsRequired,
    conditions: {
      change_before_departure: penaltyView(payload.conditions.changeBeforeDeparture, currency),
      refund_before_departure: penaltyView(payload.conditions.refundBeforeDeparture, currency),
    },
  };
}

/** Single-offer retrieval: Variant A plus payment requirements and, when asked, services. */
export function offerDetailView(offer: StoredOffer, services: AvailableService[] | null): z.output<typeof offerDetailSchema> {
  return {
    ...offerViewA(offer),
    payment_requirements: { requires_instant_payment: offer.payload.supplierOffer?.requiresInstantPayment ?? false, price_guarantee_expires_at: offer.expiresAt.toISOString() },
    ...(services === null ? {} : { available_services: services.map(availableServiceView) }),
  };
}

/** A service an offer can be booked with, or an order's passengers can still add. */
export function availableServiceView(service: AvailableService): z.output<typeof availableServiceSchema> {
  return {
    id: service.id,
    type: service.type,
    total_amount: formatMinor(service.totalAmount, service.currency),
    total_currency: service.currency,
    maximum_quantity: service.maximumQuantity,
    passenger_ids: service.passengerIds,
    segment_ids: service.segmentIds,
  };
}

/** Variant B offer: the seed's own names, airports as codes, times with their offsets. */
export function offerViewB(offer: StoredOffer): z.output<typeof offerBSchema> {
  const { payload, currency } = offer;
  return {
    id: offer.id,
    object: "offer" as const,
    total_amount: formatMinor(offer.totalAmount, currency),
    currency,
    ...feeView(payload.fee?.amount ?? 0, currency),
    expires_at: offer.expiresAt.toISOString(),
    supplier: offerSupplier(payload),
    comparison_key: comparisonKey(payload.slices),
    slices: payload.slices.map((slice) => ({
      origin: slice.origin,
      destination: slice.destination,
      segments: slice.segments.map((segment) => ({
        departure_airport: segment.origin,
        arrival_airport: segment.destination,
        departure_time: localWithOffset(segment.departingAt, segment.departingAtUtc),
        arrival_time: localWithOffset(segment.arrivingAt, segment.arrivingAtUtc),
        airline: segment.marketingCarrier.iataCode,
        flight_number: `${segment.marketingCarrier.iataCode}${segment.marketingCarrierFlightNumber}`,
      })),
    })),
    passengers: passengerFares(offer),
  };
}

/** A Variant B offer request (`orq_`), as listed and as returned with `return_offers: false`. */
export function offerRequestView(request: OfferRequestRow): z.output<typeof offerRequestSchema> {
  const search = request.request;
  return {
    id: request.id,
    object: "offer_request" as const,
    slices: search.slices,
    passengers: search.passengers,
    cabin_class: search.cabin_class,
    max_connections: search.max_connections,
    offer_count: request.offerCount,
    created_at: request.createdAt.toISOString(),
  };
}

/** How each supplier did in a search, as `supplier_results` lists them. */
export function supplierResultsView(results: readonly SupplierResult[]): z.output<typeof supplierResultSchema>[] {
  return results.map((result) => ({ supplier: result.supplier, status: result.status, offer_count: result.offerCount, duration_ms: result.durationMs }));
}
