import type { CarrierRef, PassengerType } from "../gateway/contract/air";
import type { OfferConditions, SupplierOffer, SupplierOfferRef, SupplierSegment } from "../gateway/contract/offers";
import type { StoredOffer, StoredSegment, StoredSlice } from "./offer-payload";
import { MAX_OFFER_POSITIONS, offerIdOf, segmentIdOf, sliceIdOf } from "./offer-ids";
import { priceConditions, priceFares, sharedSegment } from "./price-offer";
import { comparisonKey } from "../gateway/contract/comparison-key";
import type { SourcedOffer } from "../gateway/contract/gateway";
import type { SupplierRef } from "../gateway/contract/offers";
import type { OfferFee } from "../pricing/fee-rules";

/** A flight segment as the offers of a search share it: every field of a stored segment but its id (which names the offer). */
export type SharedSegment = Omit<StoredSegment, "id">;

/** A slice as the offers of a search share it, its segments by position in `SearchAnswer.segments`. */
export interface SharedSlice {
  origin: string;
  destination: string;
  departureDate: string;
  durationMinutes: number;
  segments: number[];
}

/** One offer of a search: what is its own, the rest by reference. */
export interface AnsweredOffer {
  /** The supplier that offered it: bookings and every later action go to it. */
  supplier: SupplierRef;
  /** The same flights in the same cabins have the same key whatever the supplier (merge-offers.ts). */
  comparisonKey: string;
  owner: CarrierRef;
  fareBrandName: string;
  /** Positions in `SearchAnswer.slices`. */
  slices: number[];
  /** Each searched passenger's fare and the taxes inside it, in the search's passenger order (minor units). */
  fares: number[];
  taxes: number[];
  /** The platform's fee on it, fixed when it was searched (pricing/fee-rules.ts); null when no rule applied. */
  fee: OfferFee | null;
  /** The sum of `fares`, plus the fee. */
  totalAmount: number;
  conditions: OfferConditions;
  passengerIdentityDocumentsRequired: boolean;
  /** The supplier's own names for it, when booking must send them back (a remote supplier's offer and passenger ids). */
  supplierOffer?: SupplierOfferRef;
}

/** What every offer of a search has in common. */
export interface SearchHeader {
  requestId: string;
  tenantId: string;
  /** The tenant's currency at search time: every amount is in its minor units. */
  currency: string;
  createdAt: Date;
  expiresAt: Date;
  passengers: ReadonlyArray<{ id: string; type: PassengerType }>;
}

/**
 * A search's answer in the form it is stored and answered from (docs/search-storage.md): the
 * segments and slices its offers fly stored once each, the offers as small records naming them.
 * Offer `i` is `off_<request>` + `i` (offer-ids.ts); `offerAt` rebuilds it whole.
 */
export interface SearchAnswer extends SearchHeader {
  segments: SharedSegment[];
  slices: SharedSlice[];
  offers: AnsweredOffer[];
}

/** The fee of one offer of a search, given its fares in the search's currency: the tenant's pricing rules applied (search.service.ts). */
export type OfferFeeOf = (offer: SourcedOffer, fares: readonly number[]) => OfferFee | null;

/**
 * The supplier's offers priced in the header's currency (fare by fare: price-offer.ts), each with
 * its fee (`feeOf`), with the segments and slices several offers fly kept once. Every offer's
 * fares must name the searched passengers in their order (the supplier echoes them).
 */
export function answerSearch(header: SearchHeader, supplierOffers: readonly SourcedOffer[], feeOf: OfferFeeOf = () => null): SearchAnswer {
  if (supplierOffers.length > MAX_OFFER_POSITIONS) throw new Error(`a search keeps at most ${MAX_OFFER_POSITIONS} offers; the supplier gave ${supplierOffers.length}`);
  const segments: SharedSegment[] = [];
  const segmentsByFlight = new Map<string, number[]>();
  const slices: SharedSlice[] = [];
  const slicesByKey = new Map<string, number>();

  const segmentIndex = (segment: SupplierSegment): number => {
    const key = `${segment.flightKey}|${segment.cabinClass}`;
    const candidates = segmentsByFlight.get(key);
    const found = candidates?.find((index) => sameSegment(segments[index]!, segment));
    if (found !== undefined) return found;
    segments.push(sharedSegment(segment));
    if (candidates) candidates.push(segments.length - 1);
    else segmentsByFlight.set(key, [segments.length - 1]);
    return segments.length - 1;
  };

  const offers = supplierOffers.map((sourced): AnsweredOffer => {
    const { supplier, offer, comparisonKey: key } = sourced;
    const sliceIndexes = offer.slices.map((slice) => {
      const segmentIndexes = slice.segments.map(segmentIndex);
      const key = `${slice.origin.iataCode}|${slice.destination.iataCode}|${slice.departureDate}|${slice.durationMinutes}|${segmentIndexes.join(",")}`;
      let index = slicesByKey.get(key);
      if (index === undefined) {
        index = slices.push({ origin: slice.origin.iataCode, destination: slice.destination.iataCode, departureDate: slice.departureDate, durationMinutes: slice.durationMinutes, segments: segmentIndexes }) - 1;
        slicesByKey.set(key, index);
      }
      return index;
    });
    checkPassengers(offer, header);
    const { fares, taxes } = priceFares(offer, header.currency);
    const fee = feeOf(sourced, fares);
    return {
      supplier,
      comparisonKey: key,
      owner: offer.owner,
      fareBrandName: offer.fareBrandName,
      slices: sliceIndexes,
      fares,
      taxes,
      fee,
      totalAmount: offerTotal(fares, fee),
      conditions: priceConditions(offer.conditions, header.currency),
      passengerIdentityDocumentsRequired: offer.passengerIdentityDocumentsRequired,
      ...(offer.supplierOffer && { supplierOffer: offer.supplierOffer }),
    };
  });
  return { ...header, segments, slices, offers };
}

/** An offer's fares name the searched passengers in their order (its fares are stored by position). */
function checkPassengers(offer: SupplierOffer, header: SearchHeader): void {
  if (offer.passengers.length !== header.passengers.length || offer.passengers.some((passenger, i) => passenger.id !== header.passengers[i]!.id)) {
    throw new Error(`supplier offer fares name passengers ${offer.passengers.map((passenger) => passenger.id).join(", ")}, not the search's`);
  }
}

/** Whether the stored segment is the supplier's segment exactly (a flight-cabin may differ in its baggage between slices). */
function sameSegment(stored: SharedSegment, segment: SupplierSegment): boolean {
  return (
    stored.flightKey === segment.flightKey &&
    stored.cabinClass === segment.cabinClass &&
    sameCarrier(stored.marketingCarrier, segment.marketingCarrier) &&
    stored.marketingCarrierFlightNumber === segment.marketingCarrierFlightNumber &&
    sameCarrier(stored.operatingCarrier, segment.operatingCarrier) &&
    stored.operatingCarrierFlightNumber === segment.operatingCarrierFlightNumber &&
    sameCarrier(stored.aircraft, segment.aircraft) &&
    stored.origin === segment.origin.iataCode &&
    stored.destination === segment.destination.iataCode &&
    stored.departingAtUtc === segment.departingAtUtc &&
    stored.arrivingAtUtc === segment.arrivingAtUtc &&
    stored.departingAt === segment.departingAtLocal &&
    stored.arrivingAt === segment.arrivingAtLocal &&
    stored.durationMinutes === segment.durationMinutes &&
    stored.distanceKm === segment.distanceKm &&
    stored.seatsLeft === segment.seatsLeft &&
    (stored.baggageAllowances === segment.baggageAllowances || JSON.stringify(stored.baggageAllowances) === JSON.stringify(segment.baggageAllowances))
  );
}

/** The comparison key of offer `offer`, from the segments of the search's answer it flies. */
export function answeredOfferKey(answer: Pick<SearchAnswer, "segments" | "slices">, offer: Pick<AnsweredOffer, "slices">): string {
  return comparisonKey(offer.slices.map((sliceIndex) => ({ segments: answer.slices[sliceIndex]!.segments.map((segmentIndex) => answer.segments[segmentIndex]!) })));
}

const sameCarrier = (a: { iataCode: string; name: string }, b: { iataCode: string; name: string }) => a === b || (a.iataCode === b.iataCode && a.name === b.name);

/** An offer's total: its fares, plus its fee. */
export function offerTotal(fares: readonly number[], fee: OfferFee | null): number {
  return fares.reduce((sum, fare) => sum + fare, 0) + (fee?.amount ?? 0);
}

/** Offer `index` of the search, whole, as booking, views and orders' snapshots take it. */
export function offerAt(answer: SearchAnswer, index: number): StoredOffer {
  const offer = answer.offers[index]!;
  const id = offerIdOf(answer.requestId, index);
  return {
    id,
    tenantId: answer.tenantId,
    offerRequestId: answer.requestId,
    totalAmount: offer.totalAmount,
    currency: answer.currency,
    expiresAt: answer.expiresAt,
    createdAt: answer.createdAt,
    payload: {
      supplier: offer.supplier,
      owner: offer.owner,
      fareBrandName: offer.fareBrandName,
      passengers: answer.passengers.map((passenger, i) => ({ id: passenger.id, type: passenger.type, fareAmount: offer.fares[i]!, taxAmount: offer.taxes[i]! })),
      conditions: offer.conditions,
      passengerIdentityDocumentsRequired: offer.passengerIdentityDocumentsRequired,
      ...(offer.supplierOffer && { supplierOffer: offer.supplierOffer }),
      ...(offer.fee && { fee: offer.fee }),
      slices: offer.slices.map((sliceIndex, s): StoredSlice => {
        const slice = answer.slices[sliceIndex]!;
        return {
          id: sliceIdOf(id, s),
          origin: slice.origin,
          destination: slice.destination,
          departureDate: slice.departureDate,
          durationMinutes: slice.durationMinutes,
          segments: slice.segments.map((segmentIndex, g) => ({ id: segmentIdOf(id, s, g), ...answer.segments[segmentIndex]! })),
        };
      }),
    },
  };
}
