import type { SupplierBooking } from "../../gateway/contract/bookings";
import type { SupplierOfferRef } from "../../gateway/contract/offers";
import type { LoyaltyProgrammeAccount, Traveller, TravelDocument } from "../../gateway/contract/air";
import type { DuffelIdentityDocument, DuffelLoyaltyProgrammeAccount, DuffelOrderPassenger } from "./duffel-shapes";

/**
 * Who travels, as Duffel books them: each passenger under Duffel's id for them (the offer's
 * `passengerIds`, in the search's passenger order, which is the order `passengers` come in), with a
 * title (Duffel requires one: `mr` or `ms` by gender when none was given), their passport (Duffel
 * takes one identity document a passenger, and refuses an order without it when the offer says
 * `passenger_identity_documents_required`), their loyalty accounts, and, on an adult holding an
 * infant on their lap, the infant's Duffel id (`infant_passenger_id`: Duffel refuses an infant no
 * adult holds).
 */
export function duffelPassengers(passengers: ReadonlyArray<{ id: string; traveller?: Traveller }>, offer: SupplierOfferRef): DuffelOrderPassenger[] {
  if (passengers.length !== offer.passengerIds.length) throw new Error(`the booking names ${passengers.length} passengers, Duffel's offer ${offer.passengerIds.length}`);
  const duffelIdOf = new Map(passengers.map((passenger, index) => [passenger.id, offer.passengerIds[index]!]));
  return passengers.map(({ traveller }, index) => {
    if (!traveller) throw new Error("Duffel books passengers by name: the booking must carry their details");
    const document = identityDocumentOf(traveller.identityDocuments ?? []);
    const loyalty = traveller.loyaltyProgrammeAccounts ?? [];
    const infant = traveller.infantPassengerId ? duffelIdOf.get(traveller.infantPassengerId) : undefined;
    if (traveller.infantPassengerId && !infant) throw new Error(`the infant ${traveller.infantPassengerId} is not a passenger of the booking`);
    return {
      id: offer.passengerIds[index]!,
      title: traveller.title ?? (traveller.gender === "m" ? "mr" : "ms"),
      given_name: traveller.givenName,
      family_name: traveller.familyName,
      born_on: traveller.bornOn,
      gender: traveller.gender,
      email: traveller.email,
      phone_number: traveller.phoneNumber,
      ...(document && { identity_documents: [document] }),
      ...(loyalty.length > 0 && { loyalty_programme_accounts: loyalty.map(loyaltyAccount) }),
      ...(infant && { infant_passenger_id: infant }),
    };
  });
}

/** Duffel's one identity document of a passenger: the passport when there is one (the document Duffel's offers ask for), else none. */
function identityDocumentOf(documents: readonly TravelDocument[]): DuffelIdentityDocument | null {
  const passport = documents.find((document) => document.type === "passport");
  return passport ? { type: "passport", unique_identifier: passport.number, issuing_country_code: passport.issuingCountryCode, expires_on: passport.expiresOn } : null;
}

function loyaltyAccount(account: LoyaltyProgrammeAccount): DuffelLoyaltyProgrammeAccount {
  return { airline_iata_code: account.airlineIataCode, account_number: account.accountNumber };
}

/** Our passenger id of each of Duffel's passenger ids on the booking. */
export function ourPassengerIds(booking: Pick<SupplierBooking, "passengers">, offer: SupplierOfferRef): Map<string, string> {
  return new Map(offer.passengerIds.map((duffelId, index) => [duffelId, booking.passengers[index]!.id]));
}
