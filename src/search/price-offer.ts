import { newId } from "../ids";
import { convertFromUsdMinor } from "../money/exchange-rates";
import type { OfferPayload } from "./offer-payload";
import type { PenaltyCondition, SupplierOffer } from "./supplier/supplier";

/**
 * A supplier offer as the snapshot we store: fares converted passenger by passenger into the
 * tenant's currency (so the total is exactly their sum), slices and segments given ids.
 */
export function priceOffer(offer: SupplierOffer, currency: string): { payload: OfferPayload; totalAmount: number } {
  const convert = (usdMinor: number) => convertFromUsdMinor(usdMinor, currency);
  const penalty = (condition: PenaltyCondition): PenaltyCondition => ({
    allowed: condition.allowed,
    penaltyAmount: condition.penaltyAmount === null ? null : convert(condition.penaltyAmount),
  });
  const passengers = offer.passengers.map((passenger) => ({ id: passenger.id, type: passenger.type, fareAmount: convert(passenger.fareAmount) }));
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
      segments: slice.segments.map(({ origin, destination, departingAtLocal, arrivingAtLocal, ...flight }) => ({
        ...flight,
        id: newId("seg"),
        origin: origin.iataCode,
        destination: destination.iataCode,
        departingAt: departingAtLocal,
        arrivingAt: arrivingAtLocal,
      })),
    })),
  };
  return { payload, totalAmount: passengers.reduce((sum, passenger) => sum + passenger.fareAmount, 0) };
}
