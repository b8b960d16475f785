import type { Database } from "../db/database";
import { CARRIERS, type CarrierProfile } from "./carriers";
import { fareWorker } from "./fare-worker";
import type { Airport } from "../locations/airport";
import { SimulatedBookings } from "./simulated-bookings";
import { SimulatedTimetable } from "./simulated-timetable";
import type { BookedItinerary, BookingRef, CabinClass, DatedFare, FareQuote, FlightCabin, FlightTimes, IssuedEmd, ReissuedTicket, SeatChoice, SeatExchange, ServiceSale, Supplier, SupplierBooking, SupplierOffer, SupplierSearch, TicketingAnswer } from "./supplier";

export interface SimulatedAirlineOptions {
  /** Resolves the carriers' hub codes, e.g. `(code) => airportIndex().getByIata(code)`. */
  airportByIata: (iataCode: string) => Airport | undefined;
  /** Where its reservations live: the shared database, so every server process sees them. */
  db: Database;
  /**
   * How long the sandbox airline takes to ticket or refund a booking with a passenger named
   * `Slow`: longer than a job's lease, to show it is renewed while the airline is asked.
   */
  slowAnswerMs: number;
  /** The carriers it sells: the network's unless told otherwise (the low-cost supplier's). */
  carriers?: readonly CarrierProfile[];
}

/**
 * The built-in supplier: searches its timetable (simulated-timetable.ts, in memory) and keeps
 * its reservations in tables of its own (simulated-bookings.ts), beside Aerogate's in the same
 * database but written only by these calls, never in Aerogate's transactions.
 */
export class SimulatedAirline implements Supplier {
  readonly name = "simulated-airline";
  readonly #timetable: SimulatedTimetable;
  readonly #bookings: SimulatedBookings;
  readonly #carriers: readonly CarrierProfile[];

  constructor(options: SimulatedAirlineOptions) {
    this.#timetable = new SimulatedTimetable(options);
    this.#bookings = new SimulatedBookings(options.db, options.slowAnswerMs);
    this.#carriers = options.carriers ?? CARRIERS;
  }

  search(request: SupplierSearch): Promise<SupplierOffer[]> {
    return this.#timetable.search(request);
  }

  /** On the fare worker (fare-worker.ts): a fare calendar asks up to 90 of these, each up to milliseconds of CPU. */
  lowestFares(request: SupplierSearch, limit: number): Promise<FareQuote[]> {
    const slices = request.slices.map((slice) => ({ origins: codes(slice.origins), destinations: codes(slice.destinations), departureDate: slice.departureDate }));
    const search = { slices, passengers: request.passengers, cabinClass: request.cabinClass, maxConnections: request.maxConnections };
    return fareWorker().run({ kind: "lowestFares", carriers: this.#carriers, search, limit });
  }

  destinationsFrom(origins: readonly Airport[], candidates: readonly Airport[]): Airport[] {
    return this.#timetable.destinationsFrom(origins, candidates);
  }

  /** On the fare worker (fare-worker.ts): an origin's month is tens of thousands of fare searches. */
  nonstopFaresTo(origins: readonly Airport[], destinations: readonly Airport[], days: readonly string[], cabinClass: CabinClass, limit: number): Promise<DatedFare[][]> {
    return fareWorker().run({ kind: "nonstopFaresTo", carriers: this.#carriers, origins: codes(origins), destinations: codes(destinations), days, cabinClass, limit });
  }

  holdSeats(booking: SupplierBooking): Promise<{ bookingReference: string }> {
    return this.#bookings.holdSeats(booking);
  }

  releaseSeats(...bookingIds: string[]): Promise<void> {
    return this.#bookings.releaseSeats(...bookingIds);
  }

  seatsHeld(flights: ReadonlyArray<FlightCabin>, environment: SupplierBooking["environment"]): Promise<Map<string, number>> {
    return this.#bookings.seatsHeld(flights, environment);
  }

  seatsAssigned(flightKeys: readonly string[], environment: SupplierBooking["environment"]): Promise<Map<string, Set<string>>> {
    return this.#bookings.seatsAssigned(flightKeys, environment);
  }

  sellSeats(booking: BookingRef, saleId: string, seats: readonly SeatChoice[]): Promise<void> {
    return this.#bookings.sellSeats(booking, saleId, seats);
  }

  cancelSeatSale(bookingId: string, saleId: string): Promise<void> {
    return this.#bookings.cancelSeatSale(bookingId, saleId);
  }

  issueTickets(booking: SupplierBooking): Promise<TicketingAnswer> {
    return this.#bookings.issueTickets(booking);
  }

  issueEmds(booking: SupplierBooking, services: readonly ServiceSale[]): Promise<IssuedEmd[]> {
    return this.#bookings.issueEmds(booking, services);
  }

  exchangeSeats(booking: BookingRef, exchangeId: string, exchange: SeatExchange): Promise<void> {
    return this.#bookings.exchangeSeats(booking, exchangeId, exchange);
  }

  completeSeatExchange(bookingId: string, exchangeId: string, release: readonly string[]): Promise<void> {
    return this.#bookings.completeSeatExchange(bookingId, exchangeId, release);
  }

  cancelSeatExchange(bookingId: string, exchangeId: string): Promise<void> {
    return this.#bookings.cancelSeatExchange(bookingId, exchangeId);
  }

  reissueTickets(booking: SupplierBooking, reissue: string): Promise<ReissuedTicket[]> {
    return this.#bookings.reissueTickets(booking, reissue);
  }

  refundTickets(booking: SupplierBooking): Promise<void> {
    return this.#bookings.refundTickets(booking);
  }

  retimeFlight(flightKey: string, itineraries: readonly BookedItinerary[], now: Date): FlightTimes | null {
    return this.#timetable.retimeFlight(flightKey, itineraries, now);
  }
}

/** Airports as the fare worker names them. */
function codes(airports: readonly Airport[]): string[] {
  return airports.map((airport) => airport.iataCode);
}
