import type { SupplierBooking } from "../../gateway/contract/bookings";
import type { SupplierOfferRef } from "../../gateway/contract/offers";
import type { Traveller } from "../../gateway/contract/air";
import type { DuffelOrderPassenger } from "./duffel-shapes";

/**
 * Who travels, as Duffel books them: each passenger under Duffel's id for them (the offer's
 * `passengerIds`, in the search's passenger order, which is the order `passengers` come in), with a
 * title (Duffel requires one: `mr` or `ms` by gender when none was given).
 */
export function duffelPassengers(passengers: ReadonlyArray<{ traveller?: Traveller }>, offer: SupplierOfferRef): DuffelOrderPassenger[] {
  if (passengers.length !== offer.passengerIds.length) throw new Error(`the booking names ${passengers.length} passengers, Duffel's offer ${offer.passengerIds.length}`);
  return passengers.map(({ traveller }, index) => {
    if (!traveller) throw new Error("Duffel books passengers by name: the booking must carry their details");
    return {
      id: offer.passengerIds[index]!,
      title: traveller.title ?? (traveller.gender === "m" ? "mr" : "ms"),
      given_name: traveller.givenName,
      family_name: traveller.familyName,
      born_on: traveller.bornOn,
      gender: traveller.gender,
      email: traveller.email,
      phone_number: traveller.phoneNumber,
    };
  });
}

/** Our passenger id of each of Duffel's passenger ids on the booking. */
export function ourPassengerIds(booking: Pick<SupplierBooking, "passengers">, offer: SupplierOfferRef): Map<string, string> {
  return new Map(offer.passengerIds.map((duffelId, index) => [duffelId, booking.passengers[index]!.id]));
}
