import { newId } from "../ids";
import { convertFromUsdMinor } from "../money/exchange-rates";
import type { OfferPayload, StoredSegment, StoredSlice } from "./offer-payload";
import type { OfferConditions, PenaltyCondition, SupplierOffer, SupplierSegment, SupplierSlice } from "../gateway/contract/offers";

/**
 * Each passenger's fare and the taxes inside it, converted one by one into the tenant's currency
 * (so the total is exactly the fares' sum), in the offer's passenger order. Each passenger's taxes
 * are converted and rounded on their own, and the base fare is what is left of the fare, so base
 * + taxes is the total exactly in every currency's minor unit (conversion keeps order, so taxes
 * stay within the fare).
 */
export function priceFares(offer: SupplierOffer, currency: string): { fares: number[]; taxes: number[] } {
  const fares: number[] = [];
  const taxes: number[] = [];
  for (const passenger of offer.passengers) {
    fares.push(convertFromUsdMinor(passenger.fareAmount, currency));
    taxes.push(convertFromUsdMinor(passenger.taxAmount, currency));
  }
  return { fares, taxes };
}

/** The fare's conditions with their penalties in the tenant's currency. */
export function priceConditions(conditions: OfferConditions, currency: string): OfferConditions {
  return { changeBeforeDeparture: pricedPenalty(conditions.changeBeforeDeparture, currency), refundBeforeDeparture: pricedPenalty(conditions.refundBeforeDeparture, currency) };
}

function pricedPenalty(condition: PenaltyCondition, currency: string): PenaltyCondition {
  return { allowed: condition.allowed, penaltyAmount: condition.penaltyAmount === null ? null : convertFromUsdMinor(condition.penaltyAmount, currency) };
}

/**
 * A supplier offer as a snapshot of its own (an order change's offer): priced in the tenant's
 * currency (`priceFares`), slices and segments given new ids. A search's offers are stored
 * together instead (search-answer.ts).
 */
export function priceOffer(offer: SupplierOffer, currency: string): { payload: OfferPayload; totalAmount: number } {
  const { fares, taxes } = priceFares(offer, currency);
  const passengers = offer.passengers.map((passenger, i) => ({ id: passenger.id, type: passenger.type, fareAmount: fares[i]!, taxAmount: taxes[i]! }));
  const payload: OfferPayload = {
    owner: offer.owner,
    fareBrandName: offer.fareBrandName,
    passengers,
    conditions: priceConditions(offer.conditions, currency),
    passengerIdentityDocumentsRequired: offer.passengerIdentityDocumentsRequired,
    slices: offer.slices.map(storedSlice),
  };
  return { payload, totalAmount: passengers.reduce((sum, passenger) => sum + passenger.fareAmount, 0) };
}

/** A supplier slice as stored on its own, its slice and segments given new ids. */
export function storedSlice(slice: SupplierSlice): StoredSlice {
  return {
    id: newId("sli"),
    origin: slice.origin.iataCode,
    destination: slice.destination.iataCode,
    departureDate: slice.departureDate,
    durationMinutes: slice.durationMinutes,
    segments: slice.segments.map((segment) => ({ id: newId("seg"), ...sharedSegment(segment) })),
  };
}

/** A supplier segment as stored, but for its id: airports as IATA codes, local times named as Variant A names them. */
export function sharedSegment(segment: SupplierSegment): Omit<StoredSegment, "id"> {
  // Field by field: an object rest/spread here cost ~10 µs an offer.
  return {
    flightKey: segment.flightKey,
    marketingCarrier: segment.marketingCarrier,
    marketingCarrierFlightNumber: segment.marketingCarrierFlightNumber,
    operatingCarrier: segment.operatingCarrier,
    operatingCarrierFlightNumber: segment.operatingCarrierFlightNumber,
    aircraft: segment.aircraft,
    origin: segment.origin.iataCode,
    destination: segment.destination.iataCode,
    departingAtUtc: segment.departingAtUtc,
    arrivingAtUtc: segment.arrivingAtUtc,
    departingAt: segment.departingAtLocal,
    arrivingAt: segment.arrivingAtLocal,
    durationMinutes: segment.durationMinutes,
    distanceKm: segment.distanceKm,
    cabinClass: segment.cabinClass,
    seatsLeft: segment.seatsLeft,
    baggageAllowances: segment.baggageAllowances,
  };
}
