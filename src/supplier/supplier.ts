import type { AppError } from "../errors/app-error";
import type { Airport } from "../locations/airport";

/**
 * The contract between search and whatever sells flights: today the built-in simulated airline
 * (simulated-airline.ts), later perhaps a real connector. A supplier prices in its own base
 * currency (USD, integer minor units); conversion to the tenant's currency happens elsewhere.
 *
 * A supplier is a remote system (docs/supplier-contract.md): nothing crosses the contract but
 * data, no call is made inside one of our transactions, and every call that changes the
 * supplier's state is keyed by our ids, so repeating it gives the same answer.
 */

export type CabinClass = "economy" | "premium_economy" | "business" | "first";
export type PassengerType = "adult" | "child" | "infant_without_seat";

/** Cabins from lowest to highest. */
export const CABIN_CLASSES: readonly CabinClass[] = ["economy", "premium_economy", "business", "first"];

/** Passengers who occupy a seat: everyone but infants travelling on a lap. */
export function passengersNeedingSeats(passengers: ReadonlyArray<{ type: PassengerType }>): number {
  return passengers.filter((passenger) => passenger.type !== "infant_without_seat").length;
}

/** A search already validated and resolved by the caller: codes expanded to airports. */
export interface SupplierSearch {
  /** 1–4 slices, each departing on its own date, in travel order. */
  slices: SupplierSearchSlice[];
  /** 1–9 passengers; ids are echoed back on each offer's fares. */
  passengers: SupplierSearchPassenger[];
  cabinClass: CabinClass;
  /** Connections allowed per slice, 0–2; 0 means direct flights only. */
  maxConnections: number;
  /** Aborted when the search's deadline passes: a supplier stops waiting and lets go of its timers and requests. */
  signal?: AbortSignal;
  /** Sandbox only: the outcome the search forces on this supplier instead of its own (`supplier_behaviour`). */
  forcedOutcome?: ForcedOutcome;
  /** When the search's answer is due (clock milliseconds): a remote supplier keeps its own waits (a rate limit) before it. */
  deadlineMs?: number;
}

/** An outcome a sandbox search can force on a supplier: hang past any deadline, fail, or answer. */
export type ForcedOutcome = "timeout" | "error" | "ok";

/** The supplier could not answer (a failure of its own, not a rule of ours). */
export class SupplierFailed extends Error {
  override name = "SupplierFailed";
}

/**
 * The supplier refused the tenant's own account (a revoked token): the tenant's to put right, not
 * a failure of the supplier, so a search reports it as `error` and no circuit breaker counts it.
 */
export class SupplierAccountRefused extends Error {
  override name = "SupplierAccountRefused";
  constructor(readonly answer: AppError) {
    super(answer.message);
  }
}

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
}

/**
 * Everything search, booking, ticketing and refunds ask of an airline. Booking calls name the
 * booking by our order id, so each is safe to repeat: the same booking gets the same answer.
 */
export interface Supplier {
  readonly name: string;
  /** Offers for the search, at most 50, in no particular order (the simulated airline sorts by price). */
  search(request: SupplierSearch): Promise<SupplierOffer[]>;
  /**
   * Cheaply, from what the supplier knows of its schedules and fares, the fares of the `limit`
   * cheapest offers `search` would return for the same search, cheapest first, without making
   * offers (the fare calendar and destination ideas). A supplier that cannot answer cheaply
   * leaves it out and is not asked.
   */
  lowestFares?(request: SupplierSearch, limit: number): Promise<FareQuote[]>;
  /**
   * The airports among `candidates` the supplier flies to nonstop from one of `origins`
   * (destination ideas); a supplier that leaves it out offers no ideas.
   */
  destinationsFrom?(origins: readonly Airport[], candidates: readonly Airport[]): Airport[];
  /**
   * Destination ideas' prices, in one call: for each of `destinations`, the `limit` cheapest
   * one-way nonstop fares for one adult over `days` (what `lowestFares` of a nonstop search each
   * day answers), each with its day, cheapest first. Pricing an origin's month is tens of thousands
   * of such searches, so a supplier answers without holding its caller's event loop; one that
   * leaves it out offers no ideas.
   */
  nonstopFaresTo?(origins: readonly Airport[], destinations: readonly Airport[], days: readonly string[], cabinClass: CabinClass, limit: number): Promise<DatedFare[][]>;
  /**
   * Holds a seat on every segment for each passenger who needs one, all or nothing, and returns
   * the airline's booking reference. @throws SeatsUnavailable when a flight has too few left.
   */
  holdSeats(booking: SupplierBooking): Promise<{ bookingReference: string }>;
  /** Gives the bookings' held seats back (cancellation), in one go; nothing happens for a booking that holds none. */
  releaseSeats(...bookingIds: string[]): Promise<void>;
  /**
   * Seats that bookings of `environment` hold now (pending or ticketed, every process) on each
   * of these flight-cabins, keyed by `flightCabinKey`; a flight-cabin nobody holds is absent.
   */
  seatsHeld(flights: ReadonlyArray<FlightCabin>, environment: SupplierBooking["environment"]): Promise<Map<string, number>>;
  /** Designators of the seats bookings of `environment` hold on each of these flights (by flight key; a flight none holds is absent). */
  seatsAssigned(flightKeys: readonly string[], environment: SupplierBooking["environment"]): Promise<Map<string, Set<string>>>;
  /**
   * Sells seats chosen after booking (docs/rest-api.md#services-after-booking) on a booking the
   * airline holds, as one sale named by `saleId` (our addition's id): all of them or none.
   * Repeating the sale gives the same answer. @throws SeatTaken when a seat is another booking's
   * (or this one's already), or chosen twice.
   */
  sellSeats(booking: BookingRef, saleId: string, seats: readonly SeatChoice[]): Promise<void>;
  /** Undoes the sale `saleId` (it never became part of the order): its seats go back on sale. Nothing happens for a sale it does not know. */
  cancelSeatSale(bookingId: string, saleId: string): Promise<void>;
  /** Asks the airline to ticket the booking. A rejection also gives its seats back. */
  issueTickets(booking: SupplierBooking): Promise<TicketingAnswer>;
  /**
   * Issues an EMD (electronic miscellaneous document) for each service sold on the ticketed
   * booking after ticketing: the same booking and references always get the same numbers.
   */
  issueEmds(booking: SupplierBooking, services: readonly ServiceSale[]): Promise<IssuedEmd[]>;
  /**
   * The first step of moving the booking from some flights to others (an order change, or the
   * acceptance of an airline-initiated change), named by `exchangeId` (the change's id): seats
   * held on the new flights, all or none, while the booking keeps the flights it leaves until
   * `completeSeatExchange`. Repeating it gives the same answer. @throws SeatsUnavailable when a
   * new flight has too few seats left.
   */
  exchangeSeats(booking: BookingRef, exchangeId: string, exchange: SeatExchange): Promise<void>;
  /** The exchange is the order's: the flights it leaves (`release`: their seats and chosen seats) go back on sale. Safe to repeat. */
  completeSeatExchange(bookingId: string, exchangeId: string, release: readonly string[]): Promise<void>;
  /** The exchange never became the order's: the seats it held go back on sale, and the booking keeps its flights. Safe to repeat. */
  cancelSeatExchange(bookingId: string, exchangeId: string): Promise<void>;
  /** Reissues the ticketed booking's e-tickets after a change (`reissue` names it): the same numbers every time for the same booking and reissue. */
  reissueTickets(booking: SupplierBooking, reissue: string): Promise<ReissuedTicket[]>;
  /**
   * Refunds the booking's tickets; their seats go back on sale. `quoteReference` names the
   * supplier's own quote that was confirmed (`quoteCancellation`), for a supplier that prices its
   * own cancellations; the others are given none.
   */
  refundTickets(booking: SupplierBooking, quoteReference?: string | null): Promise<void>;
  /**
   * A supplier that prices its own cancellations (a connector: Duffel's order cancellations) quotes
   * what cancelling the ticketed booking refunds, in minor units of `currency`, and names its quote
   * for `refundTickets` to confirm. Nothing changes at the supplier until then. A supplier without
   * it leaves the price to our refund rule.
   */
  quoteCancellation?(booking: OrderRef, currency: string): Promise<CancellationQuote>;
  /**
   * Sandbox only (the `retime` trigger, docs/rest-api.md#airline-initiated-changes): the airline retimes one of its flights,
   * booked in each of `itineraries`: the same flight (key, number, aircraft, block time) at new
   * times that keep every itinerary flyable, or null when it has none to offer.
   */
  retimeFlight(flightKey: string, itineraries: readonly BookedItinerary[], now: Date): FlightTimes | null;
}

/** A booking's slices as the airline reads them to retime a flight: each flight's key, route, carrier and times. */
export type BookedItinerary = ReadonlyArray<{
  segments: ReadonlyArray<{ flightKey: string; origin: string; destination: string; marketingCarrier: { iataCode: string }; departingAtUtc: string; arrivingAtUtc: string }>;
}>;

/** A flight's times as offers carry them: UTC instants, and local wall times at its origin and destination. */
export interface FlightTimes {
  departingAtUtc: string;
  arrivingAtUtc: string;
  departingAtLocal: string;
  arrivingAtLocal: string;
}

/** An indicative fare: what the supplier's offer would cost, and the flights it needs seats on. */
export interface FareQuote {
  /** Each passenger's fare in minor units of USD, taxes included, in the search's passenger order (as an offer's). */
  passengerFares: number[];
  /** Each flight-cabin flown, with the seats it was offered with (as an offer's segments: `seatsLeft`). */
  flights: Array<FlightCabin & { seatsForSale: number }>;
}

/** A fare of a day's search (`nonstopFaresTo`): its departure date and its quote. */
export interface DatedFare {
  departureDate: string;
  quote: FareQuote;
}

/** One cabin of one flight instance: what seats are held against. */
export interface FlightCabin {
  flightKey: string;
  cabinClass: CabinClass;
}

/** The key of a flight-cabin in `Supplier.seatsHeld`'s answer. */
export function flightCabinKey(flight: FlightCabin): string {
  return `${flight.flightKey}|${flight.cabinClass}`;
}

/** How calls after booking name it: our order id, whose it is, and its inventory. */
export type BookingRef = Pick<SupplierBooking, "id" | "tenantId" | "environment">;

/** An order as a call naming only the order and its supplier sees it. */
export type OrderRef = Pick<SupplierBooking, "id" | "tenantId" | "supplier">;

/** A supplier's own cancellation quote: what it refunds, converted to the currency asked, until when, and its reference. */
export interface CancellationQuote {
  reference: string;
  /** Minor units of the currency asked. */
  refundAmount: number;
  /** When the supplier's quote lapses, if it says. */
  expiresAt: Date | null;
}

/**
 * A connector's own names for an offer (Duffel's offer id, and its passenger ids in the search's
 * passenger order), which booking and ticketing send back, with its total in its own currency
 * (what paying the supplier pays) and whether it must be paid at once (it cannot be held).
 */
export interface SupplierOfferRef {
  id: string;
  passengerIds: string[];
  totalAmount: string;
  totalCurrency: string;
  requiresInstantPayment: boolean;
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
}

/** A booking as the airline sees it: whose, which seats on which flights, and who travels. */
export interface SupplierBooking {
  /** Our order id; the airline keys the booking by it. */
  id: string;
  tenantId: string;
  /**
   * Sandbox bookings answer the sandbox triggers (docs/simulated-airline.md#sandbox-triggers); live ones never do. Each
   * environment has its own inventory of every flight: a sandbox hold never takes a live seat.
   */
  environment: "sandbox" | "live";
  /** The order's supplier (its offer's): the booking's calls go to it. Absent: the seller of its first flight. */
  supplier?: string;
  /** The supplier's own names for the offer booked, when it gave them (a connector's). */
  supplierOffer?: SupplierOfferRef;
  segments: Array<{
    flightKey: string;
    cabinClass: CabinClass;
    marketingCarrier: CarrierRef;
    /** Seats the flight was offered with (SupplierSegment.seatsLeft): the airline's capacity for sale. */
    seatsForSale: number;
  }>;
  /** Who travels; with every detail (`traveller`) when the caller has them, as a supplier that books by name needs. */
  passengers: Array<{ id: string; type: PassengerType; familyName: string; traveller?: Traveller }>;
  /** Seats chosen by designator (seat maps): each held for this booking alone, or none is. */
  seats: SeatChoice[];
}

/** One seat of one flight, chosen by its designator (`14C`). */
export interface SeatChoice {
  flightKey: string;
  designator: string;
}

/** A change's move of a booking: the flights (keys) it leaves, the flights it takes (none of them one it leaves), and who travels (a seat each but lap infants). */
export interface SeatExchange {
  release: readonly string[];
  hold: SupplierBooking["segments"];
  passengers: ReadonlyArray<{ type: PassengerType }>;
}

/** An e-ticket the airline reissued for a passenger. */
export interface ReissuedTicket {
  passengerId: string;
  number: string;
}

/** A service sold on a ticketed booking, named by our reference for it (the airline echoes it with its EMD). */
export interface ServiceSale {
  reference: string;
  passengerId: string;
  type: "baggage" | "seat";
}

/** An EMD the airline issued: its 13-digit number, for the service `reference` names. */
export interface IssuedEmd {
  reference: string;
  number: string;
}

export type TicketingAnswer =
  /** `bookingReference`: the airline's, when the booking gets one only at ticketing (an instant order made then). */
  | { outcome: "ticketed"; tickets: Array<{ passengerId: string; number: string }>; bookingReference?: string }
  | { outcome: "rejected"; reason: "airline_rejected" | "airline_timeout" };

/** A flight of the booking has fewer seats left than the booking needs. */
export class SeatsUnavailable extends Error {
  override name = "SeatsUnavailable";
  constructor(readonly flightKey: string) {
    super(`not enough seats left on ${flightKey}`);
  }
}

/** A seat the booking chose (`SupplierBooking.seats[index]`, or a sale's seat) is another booking's, or given twice. */
export class SeatTaken extends Error {
  override name = "SeatTaken";
  constructor(readonly index: number) {
    super(`seat ${index} of the booking is taken`);
  }
}

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

export interface SupplierSegment {
  /**
   * Identifies the flight instance for seat inventory: carrier, flight number, local departure
   * date and route, e.g. `ZA102@2026-03-07:LHR-JFK`. The same flight has the same key in every search.
   */
  flightKey: string;
  marketingCarrier: CarrierRef;
  /** Digits only, as Duffel shows them (`102`); the carrier code is in `marketingCarrier`. */
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
  /** Seats initially for sale on this flight in this cabin; orders subtract their holds from it. */
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
  /** The taxes, fees and charges inside `fareAmount` (taxes.ts): more than 0, at most 60 % of it. */
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
  /** The supplier's own names for the offer, when booking must send them back (a connector's). */
  supplierOffer?: SupplierOfferRef;
}
