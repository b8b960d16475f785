import type { Airport } from "../../locations/airport";
import type { CabinClass, Environment } from "./air";
import type { BookedItinerary, BookedService, BookingRef, CancellationQuote, ChangeQuoteRequest, FlightChange, OrderRef, FlightTimes, IssuedEmd, ReissuedTicket, ReportedChange, SeatChoice, ServiceSale, SupplierBooking, SupplierChangeOffer } from "./bookings";
import type { DatedFare, FareQuote, OfferView, SupplierOffer, SupplierOfferRef, SupplierSearch } from "./offers";
import type { AvailableService, SeatMapAnswer, SeatMapSubject, SeatOption } from "./seat-maps";

/**
 * What only some suppliers do, one interface each. A connector implements those it has and
 * declares them in its own folder (its registration's `capabilities`); the gateway refuses the
 * others in one place (router.ts: 422 `unsupported_by_supplier`, and `available_actions` leaves
 * them out). Synchronous members are the supplier's declarations (its prices, its routes), read in
 * memory; asynchronous ones may ask the supplier (a remote one's extras and seats are its answers).
 */

/**
 * Holds on our terms: an unpaid booking whose passengers' details may still change (the airline
 * keeps no names until ticketing), priced again by the supplier's rule once its price guarantee
 * has run out. A supplier without it still holds bookings until they are paid, but keeps the
 * names it booked and prices its own holds (it refuses a payment of a total it changed).
 */
export interface Holds {
  /** How much the fare of an unpaid booking has risen, in percent of its base fare, when priced again at `now`; the same booking on the same day gets the same answer. */
  fareRisePercent(hold: { bookingReference: string; firstDepartureUtc: Date }, now: Date): number;
}

/**
 * Holds the supplier prices itself (a remote supplier's): asked before a hold is paid, so that a
 * price it changed is refused before any money moves, never after the wallet was debited.
 */
export interface PricedHolds {
  /**
   * How much more (or, negative, less) the supplier asks now for the held booking than its offer
   * was booked at, in minor units of `currency` (the order's); 0 when unchanged or when it holds
   * nothing yet. The price asked now becomes the one the booking is paid at.
   */
  holdPriceChange(order: OrderRef & { supplierOffer?: SupplierOfferRef }, currency: string): Promise<number>;
}

/** Seat maps of offers and booked orders, and seats chosen on them by designator (at booking, or after it through `services`). */
export interface SeatSelection {
  /** The subject's seat maps; seats bookings of its environment hold are not for sale. */
  seatMaps(subject: SeatMapSubject): Promise<SeatMapAnswer>;
  /**
   * The seat services among `ids` that the maps of `offer` (or of the order `subjectId` booking it)
   * offer or would offer, by id, taken seats included: whether the seat is still free is the
   * booking's to find out. An id of another subject or passenger, or of a seat not sold, is left
   * out. Asked once for all the ids of a request: a remote supplier reads its maps once.
   */
  seatOptions(offer: OfferView, ids: readonly string[], subjectId?: string): Promise<Map<string, SeatOption>>;
}

/**
 * What a booked order can be given through the supplier:
 * - `none`: nothing (it sells extras only with the booking, and has no seat maps of orders);
 * - `extras`: bags and seats, on a hold (paid with it) or a ticketed order (the wallet pays them
 *   at once; seats are sold by `sellSeats`, and the supplier numbers an EMD per service after);
 * - `paid_bags`: bags on a ticketed order only, sold and paid at the supplier at once
 *   (`sellServices`), which issues their documents itself (no EMD of ours).
 */
export type AfterBooking = "none" | "extras" | "paid_bags";

/** Extras sold with an offer and after booking: their prices, the seats or bags sold after booking, and their EMDs. */
export interface Services {
  readonly afterBooking: AfterBooking;
  /**
   * The extras the offer can be booked with (bags, seat selections), or, with `orderId`, those the
   * order booking it can be given now, at the supplier's prices in the offer's currency; a remote
   * supplier is asked. For a booked order, a `paid_bags` supplier answers what is left of each for
   * it (it counts what it sold); any other answers its offer's, and the domain counts what the
   * order holds.
   */
  availableServices(offer: OfferView, orderId?: string): Promise<AvailableService[]>;
  /** Sells seats chosen after booking on a booking it holds, as one sale named by `saleId` (our addition's id): all of them or none. @throws SeatTaken */
  sellSeats(booking: BookingRef, saleId: string, seats: readonly SeatChoice[]): Promise<void>;
  /** Undoes the sale `saleId` (it never became part of the order): its seats go back on sale. Nothing happens for a sale it does not know. */
  cancelSeatSale(booking: BookingRef, saleId: string): Promise<void>;
  /**
   * `paid_bags`: sells the services (bags) added to the ticketed booking and pays the supplier for
   * them, as one sale named by `saleId` (our addition's id), all or none. `booking.services` are
   * those its order holds without the sale. Safe to repeat: a sale the supplier has made already
   * is neither made nor paid again. A refusal (a 4xx in the catalogue's words, nothing sold) for a
   * service the supplier no longer offers, or prices otherwise now.
   */
  sellServices(booking: SupplierBooking, saleId: string, services: readonly BookedService[]): Promise<void>;
  /** `paid_bags`: whether the sale `saleId` (of `services`, on the booking whose order holds `booking.services` without it) was made at the supplier. */
  serviceSaleMade(booking: SupplierBooking, saleId: string, services: readonly BookedService[]): Promise<boolean>;
  /** An EMD for each service sold on the ticketed booking after ticketing: the same booking and references get the same numbers. */
  issueEmds(booking: SupplierBooking, services: readonly ServiceSale[]): Promise<IssuedEmd[]>;
}

/** The e-tickets of a ticketed booking after a change of its flights. */
export interface TicketReissues {
  /** Reissues the ticketed booking's e-tickets after a change (`reissue` names it): the same numbers for the same booking and reissue. */
  reissueTickets(booking: SupplierBooking, reissue: string): Promise<ReissuedTicket[]>;
}

/**
 * Changes of a ticketed booking's flights that we price (searched and priced by the domain), in
 * three steps named by the change's id: the new flights held while the booking keeps the old
 * (`changeFlights`), then either the old released (`completeChange`: the change is the order's)
 * or the new given back (`cancelChange`); and the e-tickets reissued after it.
 */
export interface OrderChanges extends TicketReissues {
  /** Holds the new flights, all or none. Repeating it gives the same answer. @throws SeatsUnavailable */
  changeFlights(booking: BookingRef, changeId: string, change: FlightChange): Promise<void>;
  /** The change is the order's: the flights it leaves (`release`) go back on sale. Safe to repeat. */
  completeChange(booking: BookingRef, changeId: string, release: readonly string[]): Promise<void>;
  /** The change never became the order's: what it held goes back on sale, the booking keeps its flights. Safe to repeat. */
  cancelChange(booking: BookingRef, changeId: string): Promise<void>;
}

/**
 * Changes of a ticketed booking's flights that the supplier quotes itself (a remote supplier's):
 * it answers its own change offers, priced by it, and confirming one makes and pays the change
 * at the supplier in one step, which cannot be taken back. A supplier with it is never searched
 * for a change (order-changes/change-paths.ts). The e-tickets are reissued after it.
 */
export interface QuotedChanges extends TicketReissues {
  /** The supplier's change offers for the request, its amounts in minor units of `currency` (the order's); none when it has nothing that fits. */
  quoteChanges(booking: OrderRef, request: ChangeQuoteRequest, currency: string): Promise<SupplierChangeOffer[]>;
  /**
   * Makes the change the supplier's offer `supplierOfferId` quotes and pays its cost at the
   * supplier (from the account that booked it). Safe to repeat: a change of that offer already
   * confirmed is done. Refused (a 4xx in the catalogue's words, nothing done) for an offer the
   * supplier no longer honours (expired, or priced otherwise).
   */
  confirmQuotedChange(booking: BookingRef, supplierOfferId: string): Promise<void>;
}

/** The airline's own changes to booked flights: the sandbox's trigger proposes them; accepting one is an order change's steps (`OrderChanges`). */
export interface AirlineChanges {
  /** The same flight at new times that keep every itinerary booked on it flyable, or null when it has none to offer. */
  retimeFlight(flightKey: string, itineraries: readonly BookedItinerary[], now: Date): FlightTimes | null;
}

/**
 * Changes a remote airline made to a booking and its supplier reports (its webhooks, or a read of
 * them): the domain records each once as the order's airline change, and accepting one accepts
 * it at the supplier first.
 */
export interface ReportedChanges {
  /** The changes the supplier reports for the booking, answered or not; none for a booking it does not hold. */
  reportedChanges(booking: BookingRef): Promise<ReportedChange[]>;
  /** Accepts the change at the supplier: the booking's flights become its `added`. Safe to repeat (a change accepted already answers so). */
  acceptReportedChange(booking: BookingRef, supplierChangeId: string): Promise<void>;
}

/**
 * Bookings the supplier may cancel on its own side (its dashboard, the airline): asked when it
 * says so (a webhook), so that the order is refunded here as our own cancellation would.
 */
export interface CancelledElsewhere {
  /** The booking's cancellation made at the supplier, as a confirmed quote in minor units of `currency` (its reference what a refund confirms again); null while the booking is not cancelled there. */
  cancellationAtSupplier(booking: OrderRef, currency: string): Promise<CancellationQuote | null>;
}

/** Indicative prices from the supplier's schedules and fares, without making offers (the fare calendar and destination ideas). */
export interface LowestFares {
  /** The fares of the `limit` cheapest offers `search` would return for the same search, cheapest first. */
  lowestFares(request: SupplierSearch, limit: number): Promise<FareQuote[]>;
  /** The airports among `candidates` it flies to nonstop from one of `origins`. */
  destinationsFrom(origins: readonly Airport[], candidates: readonly Airport[]): Airport[];
  /**
   * Destination ideas' prices, in one call: for each of `destinations`, the `limit` cheapest
   * one-way nonstop fares for one adult over `days` (what `lowestFares` of a nonstop search each
   * day answers), each with its day, cheapest first. Pricing an origin's month is tens of
   * thousands of such searches, so a supplier answers without holding its caller's event loop.
   */
  nonstopFaresTo(origins: readonly Airport[], destinations: readonly Airport[], days: readonly string[], cabinClass: CabinClass, limit: number): Promise<DatedFare[][]>;
}

/**
 * A supplier whose seats our own bookings take (its inventory is kept with ours): its answers may
 * be reused for a while, and what it can still sell is asked afresh of every answer.
 */
export interface Availability {
  /** The offers whose every flight still has a seat for each passenger who needs one. */
  sellableOffers(offers: SupplierOffer[], search: SupplierSearch): Promise<SupplierOffer[]>;
  /** Of each group of fares (cheapest first), the first whose flights still seat the party; null when none does. */
  sellableFares(groups: ReadonlyArray<readonly FareQuote[]>, party: { seatsNeeded: number; environment: Environment }): Promise<Array<FareQuote | null>>;
}

export interface Capabilities {
  holds: Holds;
  pricedHolds: PricedHolds;
  seatSelection: SeatSelection;
  services: Services;
  orderChanges: OrderChanges;
  quotedChanges: QuotedChanges;
  airlineChanges: AirlineChanges;
  reportedChanges: ReportedChanges;
  cancelledElsewhere: CancelledElsewhere;
  lowestFares: LowestFares;
  availability: Availability;
}

export type CapabilityName = keyof Capabilities;

/** The capabilities a connector declares: each an object that implements it (often the connector itself). */
export type DeclaredCapabilities = Partial<Capabilities>;
