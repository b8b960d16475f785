import { newId } from "../ids";
import { convertFromUsdMinor } from "../money/exchange-rates";
import type { OfferPayload, StoredSegment } from "./offer-payload";
import type { OfferConditions, PassengerType, PenaltyCondition, SupplierOffer, SupplierSegment } from "../supplier/supplier";

/** A passenger's fare in the tenant's currency, with the taxes inside it. */
export interface PricedFare {
  id: string;
  type: PassengerType;
  fareAmount: number;
  taxAmount: number;
}

/**
 * The offer's fares converted passenger by passenger into the tenant's currency (so the total is
 * exactly their sum). Each passenger's taxes are converted and rounded on their own, and the base
 * fare is what is left of the fare, so base + taxes is the total exactly in every currency's minor
 * unit (conversion keeps order, so taxes stay within the fare).
 */
export function priceFares(offer: SupplierOffer, currency: string): PricedFare[] {
  return offer.passengers.map((passenger) => ({
    id: passenger.id,
    type: passenger.type,
    fareAmount: convertFromUsdMinor(passenger.fareAmount, currency),
    taxAmount: convertFromUsdMinor(passenger.taxAmount, currency),
  }));
}

/** The fare's conditions with their penalties in the tenant's currency. */
export function priceConditions(conditions: OfferConditions, currency: string): OfferConditions {
  const penalty = (condition: PenaltyCondition): PenaltyCondition => ({
    allowed: condition.allowed,
    penaltyAmount: condition.penaltyAmount === null ? null : convertFromUsdMinor(condition.penaltyAmount, currency),
  });
  return { changeBeforeDeparture: penalty(conditions.changeBeforeDeparture), refundBeforeDeparture: penalty(conditions.refundBeforeDeparture) };
}

/**
 * A supplier offer as a snapshot of its own (an order change's offer): priced in the tenant's
 * currency (`priceFares`), slices and segments given new ids. A search's offers are stored
 * together instead (search-answer.ts).
 */
export function priceOffer(offer: SupplierOffer, currency: string): { payload: OfferPayload; totalAmount: number } {
  const passengers = priceFares(offer, currency);
  const payload: OfferPayload = {
    owner: offer.owner,
    fareBrandName: offer.fareBrandName,
    passengers,
    conditions: priceConditions(offer.conditions, currency),
    passengerIdentityDocumentsRequired: offer.passengerIdentityDocumentsRequired,
    slices: offer.slices.map((slice) => ({
      id: newId("sli"),
      origin: slice.origin.iataCode,
      destination: slice.destination.iataCode,
      departureDate: slice.departureDate,
      durationMinutes: slice.durationMinutes,
      segments: slice.segments.map((segment) => ({ id: newId("seg"), ...sharedSegment(segment) })),
    })),
  };
  return { payload, totalAmount: passengers.reduce((sum, passenger) => sum + passenger.fareAmount, 0) };
}

/** A supplier segment as stored, but for its id: airports as IATA codes, local times named as Duffel names them. */
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
