/**
 * The words of air travel that every connector and the domain share: cabins, passenger types,
 * environments, carriers and aircraft, baggage, and who travels.
 */

export type CabinClass = "economy" | "premium_economy" | "business" | "first";
export type PassengerType = "adult" | "child" | "infant_without_seat";

/** Cabins from lowest to highest. */
export const CABIN_CLASSES: readonly CabinClass[] = ["economy", "premium_economy", "business", "first"];

/** Passengers who occupy a seat: everyone but infants travelling on a lap. */
export function passengersNeedingSeats(passengers: ReadonlyArray<{ type: PassengerType }>): number {
  return passengers.filter((passenger) => passenger.type !== "infant_without_seat").length;
}

/**
 * Whose traffic a call is: a sandbox tenant's or a live one's. Each environment has its own
 * inventory at a supplier that keeps ours apart, and its own circuit breaker in the gateway.
 */
export type Environment = "sandbox" | "live";

export interface CarrierRef {
  iataCode: string;
  name: string;
}

export interface AircraftRef {
  iataCode: string;
  name: string;
}

export interface BaggageAllowance {
  type: "checked" | "carry_on";
  quantity: number;
}

/** A travel document a traveller flies on. */
export interface TravelDocument {
  type: "passport" | "national_identity_card";
  number: string;
  /** ISO 3166-1 alpha-2 */
  issuingCountryCode: string;
  /** YYYY-MM-DD */
  expiresOn: string;
}

/** A traveller's account in an airline's loyalty programme, as the airline's frequent-flyer number. */
export interface LoyaltyProgrammeAccount {
  /** The airline running the programme (IATA code). */
  airlineIataCode: string;
  accountNumber: string;
}

/** Who travels, as an airline that books them by name asks for them. */
export interface Traveller {
  title: "mr" | "ms" | "mrs" | "dr" | null;
  givenName: string;
  familyName: string;
  /** YYYY-MM-DD */
  bornOn: string;
  gender: "m" | "f";
  email: string;
  phoneNumber: string;
  /** Their travel documents (an airline asks for them when the itinerary crosses a border). */
  identityDocuments?: readonly TravelDocument[];
  loyaltyProgrammeAccounts?: readonly LoyaltyProgrammeAccount[];
  /** An adult holding an infant on their lap: the infant's passenger id (the search's); absent or null for anyone else. */
  infantPassengerId?: string | null;
}
