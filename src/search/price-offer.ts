import { newId } from "../ids";
import { convertFromUsdMinor } from "../money/exchange-rates";
import type { OfferPayload, StoredSegment } from "./offer-payload";
import type { PenaltyCondition, SupplierOffer, SupplierSegment } from "../supplier/supplier";

/**
 * A supplier offer as the snapshot we store: fares converted passenger by passenger into the
 * tenant's currency (so the total is exactly their sum), slices and segments given ids. Each
 * passenger's taxes are converted and rounded on their own, and the base fare is what is left
 * of the fare, so base + taxes is the total exactly in every currency's minor unit (conversion
 * keeps order, so taxes stay within the fare).
 */
export function priceOffer(offer: SupplierOffer, currency: string): { payload: OfferPayload; totalAmount: number } {
  const convert = (usdMinor: number) => convertFromUsdMinor(usdMinor, currency);
  const penalty = (condition: PenaltyCondition): PenaltyCondition => ({
    allowed: condition.allowed,
    penaltyAmount: condition.penaltyAmount === null ? null : convert(condition.penaltyAmount),
  });
  const passengers = offer.passengers.map((passenger) => ({
    id: passenger.id,
    type: passenger.type,
    fareAmount: convert(passenger.fareAmount),
    taxAmount: convert(passenger.taxAmount),
  }));
  const payload: OfferPayload = {
    owner: offer.owner,
    fareBrandName: offer.fareBrandName,
    passengers,
    conditions: { changeBeforeDeparture: penalty(offer.conditions.changeBeforeDeparture), refundBeforeDeparture: penalty(offer.conditions.refundBeforeDeparture) },
    passengerIdentityDocumentsRequired: offer.passengerIdentityDocumentsRequired,
    slices: offer.slices.map((slice) => ({
      id: newId("sli"),
      origin: slice.origin.iataCode,
      destination: slice.destination.iataCode,
      departureDate: slice.departureDate,
      durationMinutes: slice.durationMinutes,
      segments: slice.segments.map(storedSegment),
    })),
  };
  return { payload, totalAmount: passengers.reduce((sum, passenger) => sum + passenger.fareAmount, 0) };
}

/** Field by field: an object rest/spread here cost ~10 µs an offer, a fifth of a 50-offer search. */
function storedSegment(segment: SupplierSegment): StoredSegment {
  return {
    id: newId("seg"),
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
