import { offerSupplier } from "../../search/offer-payload";
import type { PassengerType, Traveller } from "../../gateway/contract/air";
import type { SupplierBooking } from "../../gateway/contract/bookings";
import type { Order, PassengerDetails } from "./order";

/** A passenger as the booking names them: with every detail when the caller has them (an airline that books by name needs them). */
export type BookingPassenger = { id: string; type: PassengerType; familyName: string } & Partial<PassengerDetails>;

/**
 * An order as the airline sees it: its supplier (every call goes to it), its flights and cabins as
 * offered, the supplier's own names for the offer, who travels (in the offer's passenger order),
 * the seats chosen by designator, and every extra by the supplier's id for it.
 */
export function supplierBooking(order: Order, passengers: readonly BookingPassenger[], environment: "sandbox" | "live"): SupplierBooking {
  const segments = order.offer.payload.slices.flatMap((slice) => slice.segments);
  const flightKeys = new Map(segments.map((segment) => [segment.id, segment.flightKey]));
  const position = new Map(order.offer.payload.passengers.map((passenger, index) => [passenger.id, index]));
  const inOfferOrder = [...passengers].sort((a, b) => (position.get(a.id) ?? 0) - (position.get(b.id) ?? 0));
  return {
    id: order.id,
    tenantId: order.tenantId,
    environment,
    supplier: offerSupplier(order.offer.payload).id,
    ...(order.offer.payload.supplierOffer && { supplierOffer: order.offer.payload.supplierOffer }),
    segments: segments.map((segment) => ({
      flightKey: segment.flightKey,
      cabinClass: segment.cabinClass,
      marketingCarrier: segment.marketingCarrier,
      seatsForSale: segment.seatsLeft,
    })),
    passengers: inOfferOrder.map((passenger) => ({ id: passenger.id, type: passenger.type, familyName: passenger.familyName, ...travellerOf(passenger) })),
    // In the order of the services, so SeatTaken's index leads back to the request (seatServiceIndex).
    seats: order.services.flatMap((service) =>
      service.designator === undefined ? [] : [{ flightKey: flightKeys.get(service.segmentIds[0]!)!, designator: service.designator }],
    ),
    services: order.services.map((service) => ({ id: service.id, quantity: service.quantity, unitAmount: service.unitAmount, currency: order.currency })),
  };
}

function travellerOf(passenger: BookingPassenger): { traveller?: Traveller } {
  const { givenName, bornOn, gender, email, phoneNumber } = passenger;
  if (givenName === undefined || bornOn === undefined || gender === undefined || email === undefined || phoneNumber === undefined) return {};
  return {
    traveller: {
      title: passenger.title ?? null,
      givenName,
      familyName: passenger.familyName,
      bornOn,
      gender,
      email,
      phoneNumber,
      identityDocuments: passenger.identityDocuments ?? [],
      loyaltyProgrammeAccounts: passenger.loyaltyProgrammeAccounts ?? [],
      infantPassengerId: passenger.infantPassengerId ?? null,
    },
  };
}
