import type { Airport } from "../../locations/airport";
import type { AircraftRef, BaggageAllowance, CabinClass, CarrierRef, Environment, PassengerType } from "./air";

/** Which supplier an offer or order came from, as they show it. */
export interface SupplierRef {
  /** Stable id, as tenants name it in their `suppliers`. */
  id: string;
  name: string;
}

/**
 * The supplier of every offer and order stored before offers named theirs: the simulated
 * airline network, the gateway's first supplier.
 */
export const ORIGINAL_SUPPLIER: SupplierRef = { id: "simulated", name: "Simulated airline network" };

/** A search already validated and resolved by the caller: codes expanded to airports. */
export interface SupplierSearch {
  /** 1–4 slices, each departing on its own date, in travel order. */
  slices: SupplierSearchSlice[];
  /** 1–9 passengers; ids are echoed back on each offer's fares. */
  passengers: SupplierSearchPassenger[];
  cabinClass: CabinClass;
  /** Connections allowed per slice, 0–2; 0 means direct flights only. */
  maxConnections: number;
  /** The tenant searching: a supplier searched with the tenant's own account finds it by this. */
  tenantId: string;
  /** The tenant's environment: what it can still sell is its inventory's, and its circuit is that environment's. */
  environment: Environment;
  /** Aborted when the search's deadline passes: a supplier stops waiting and lets go of its timers and requests. */
  signal?: AbortSignal;
  /** Sandbox only: the outcome the search forces on this supplier instead of its own (`supplier_behaviour`). */
  forcedOutcome?: ForcedOutcome;
  /** When the search's answer is due (clock milliseconds): a remote supplier keeps its own waits (a rate limit) before it. */
  deadlineMs?: number;
}

/** An outcome a sandbox search can force on a supplier: hang past any deadline, fail, or answer. */
export type ForcedOutcome = "timeout" | "error" | "ok";

export interface SupplierSearchSlice {
  /** Every airport the slice may start from (one airport, or all airports of a city code). */
  origins: Airport[];
  destinations: Airport[];
  /** `YYYY-MM-DD`, the local date at the origin of every departure offered for this slice. */
  departureDate: string;
}

export interface SupplierSearchPassenger {
  id: string;
  type: PassengerType;
  /** Their age on the last slice's date, when the search gave it (a child's or an infant's: a supplier that prices by age asks it). */
  age?: number;
}

export interface SupplierSegment {
  /**
   * Identifies the flight instance: carrier, flight number, local departure date and route,
   * e.g. `ZA102@2026-03-07:LHR-JFK`. The same flight has the same key in every search.
   */
  flightKey: string;
  marketingCarrier: CarrierRef;
  /** Digits only (`102`); the carrier code is in `marketingCarrier`. */
  marketingCarrierFlightNumber: string;
  operatingCarrier: CarrierRef;
  operatingCarrierFlightNumber: string;
  aircraft: AircraftRef;
  origin: Airport;
  destination: Airport;
  /** ISO 8601 instants (`2026-03-07T08:35:00Z`). */
  departingAtUtc: string;
  arrivingAtUtc: string;
  /** Local wall times without offset (`2026-03-07T08:35:00`), in the origin's and destination's zones. */
  departingAtLocal: string;
  arrivingAtLocal: string;
  durationMinutes: number;
  distanceKm: number;
  /** The cabin flown: the one searched for, or the best lower one when the aircraft has no such cabin. */
  cabinClass: CabinClass;
  /** Seats for sale on this flight in this cabin, as the supplier offered it. */
  seatsLeft: number;
  /** Free baggage per passenger type (shared, read-only objects). */
  baggageAllowances: Readonly<Record<PassengerType, readonly BaggageAllowance[]>>;
}

export interface SupplierSlice {
  origin: Airport;
  destination: Airport;
  /** Local date at the origin of the first segment's departure. */
  departureDate: string;
  /** First departure to last arrival, connections included. */
  durationMinutes: number;
  segments: SupplierSegment[];
}

export interface SupplierPassengerFare {
  id: string;
  type: PassengerType;
  /** Minor units of `baseCurrency`, taxes included. */
  fareAmount: number;
  /** The taxes, fees and charges inside `fareAmount`: more than 0, at most 60 % of it. */
  taxAmount: number;
}

export interface PenaltyCondition {
  allowed: boolean;
  /** Minor units for all passengers of the offer together (0 = free); null when not allowed. */
  penaltyAmount: number | null;
}

export interface OfferConditions {
  changeBeforeDeparture: PenaltyCondition;
  refundBeforeDeparture: PenaltyCondition;
}

/**
 * A supplier's own names for an offer (its offer id, and its passenger ids in the search's
 * passenger order), which booking and ticketing send back, with its total in its own currency
 * (what paying the supplier pays) and whether it must be paid at once (it cannot be held).
 */
export interface SupplierOfferRef {
  id: string;
  passengerIds: string[];
  totalAmount: string;
  totalCurrency: string;
  requiresInstantPayment: boolean;
  /** Whose account at the supplier found it, and books, pays and refunds its order; absent: the tenant's own. */
  account?: SupplierAccountKind;
}

/**
 * Whose account at a supplier that takes one: `tenant`, the tenant's own connection (the supplier
 * settles the fare from that account); `platform`, the owner's platform account (the owner's
 * balance at the supplier pays it, and the tenant's wallet pays the platform: `wallet` settlement).
 */
export type SupplierAccountKind = "tenant" | "platform";

/** An offer as a supplier answers a search, priced in USD minor units (converted to the tenant's currency by the gateway's caller). */
export interface SupplierOffer {
  /** The airline fulfilling the itinerary; every segment is marketed by it. */
  owner: CarrierRef;
  /** The fare brand of the best cabin flown (e.g. "Business Flex"); it sets the conditions. */
  fareBrandName: string;
  slices: SupplierSlice[];
  passengers: SupplierPassengerFare[];
  /** Exactly the sum of `passengers[].fareAmount`. */
  totalAmount: number;
  baseCurrency: "USD";
  conditions: OfferConditions;
  /** True when any segment crosses a national border. */
  passengerIdentityDocumentsRequired: boolean;
  /** The supplier's own names for the offer, when booking must send them back (a remote supplier's). */
  supplierOffer?: SupplierOfferRef;
}

/** One cabin of one flight instance: what seats are sold against. */
export interface FlightCabin {
  flightKey: string;
  cabinClass: CabinClass;
}

/** An indicative fare: what the supplier's offer would cost, and the flights it needs seats on. */
export interface FareQuote {
  /** Each passenger's fare in minor units of USD, taxes included, in the search's passenger order (as an offer's). */
  passengerFares: number[];
  /** Each flight-cabin flown, with the seats it was offered with (as an offer's segments: `seatsLeft`). */
  flights: Array<FlightCabin & { seatsForSale: number }>;
  /** The airline owning it and where it leaves from and arrives (IATA codes), as an offer of it would show them: what the platform's fees match on. */
  route?: { owner: string; origin: string; destination: string };
}

/** A fare of a day's search (`LowestFares.nonstopFaresTo`): its departure date and its quote. */
export interface DatedFare {
  departureDate: string;
  quote: FareQuote;
}

/**
 * A stored offer as a supplier reads it after the search (its extras, its seat maps): our ids for
 * the offer, its passengers, slices and segments, the tenant's currency it is priced in, whose it
 * is, and the supplier's own names for it (a remote supplier asks about its offer by them, with
 * the account that found it). The offers Aerogate stores satisfy it.
 */
export interface OfferView {
  id: string;
  tenantId: string;
  currency: string;
  payload: {
    passengers: ReadonlyArray<{ id: string; type: PassengerType }>;
    slices: readonly SliceView[];
    supplierOffer?: SupplierOfferRef;
  };
}

export interface SliceView {
  id: string;
  segments: readonly SegmentView[];
}

/** A stored segment as a supplier reads it: our id for it, and the flight as it offered it. */
export type SegmentView = Pick<SupplierSegment, "flightKey" | "marketingCarrier" | "aircraft" | "cabinClass" | "distanceKm" | "seatsLeft"> & { id: string };
