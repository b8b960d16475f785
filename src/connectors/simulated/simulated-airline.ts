import type { Database } from "../../db/database";
import { appError } from "../../errors/app-error";
import type { Airport } from "../../locations/airport";
import type { BookedItinerary, BookingAnswer, BookingRef, CancellationQuote, FlightChange, FlightTimes, IssuedEmd, ReissuedTicket, SeatChoice, ServiceSale, SupplierBooking, SupplierOrder, TicketingAnswer } from "../../gateway/contract/bookings";
import type { AirlineChanges, Holds, LowestFares, OrderChanges, Services } from "../../gateway/contract/capabilities";
import type { CabinClass } from "../../gateway/contract/air";
import type { DatedFare, FareQuote, OfferView, SupplierOffer, SupplierSearch } from "../../gateway/contract/offers";
import type { AvailableService } from "../../gateway/contract/seat-maps";
import type { Supplier } from "../../gateway/contract/supplier";
import { SimulatedAvailability } from "./availability";
import { availableExtras, type ExtrasPrices } from "./extras";
import { asProfiled, type LatencyProfile } from "./latency-profile";
import { SeatCatalogue } from "./seating/seat-catalogue";
import { SimulatedBookings } from "./simulated-bookings";
import { CARRIERS, type CarrierProfile } from "./timetable/carriers";
import { fareWorker } from "./timetable/fare-worker";
import { fareRisePercent } from "./timetable/repricing";
import { SimulatedTimetable } from "./timetable/simulated-timetable";

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
  /** How long it takes to answer a search, and how often it fails one. */
  profile: LatencyProfile;
  /** What its extras cost. */
  extras: ExtrasPrices;
}

/**
 * The built-in supplier (docs/simulated-airline.md): searches its timetable (in memory) and keeps
 * its reservations in tables of its own (simulated-bookings.ts), beside Aerogate's in the same
 * database but written only by these calls, never in Aerogate's transactions. It does everything
 * a supplier may; which of it a profile declares is its registration's (registration.ts). Its
 * seat maps and its availability are objects of their own (`seatSelection`, `availability`),
 * over the same reservations.
 */
export class SimulatedAirline implements Supplier, Holds, Services, OrderChanges, AirlineChanges, LowestFares {
  readonly seatSelection: SeatCatalogue;
  /** Bags and seats are sold after booking too, as ours (the wallet pays them; EMDs are numbered after). */
  readonly afterBooking = "extras";
  readonly availability: SimulatedAvailability;
  readonly #timetable: SimulatedTimetable;
  readonly #bookings: SimulatedBookings;
  readonly #profile: LatencyProfile;
  readonly #extras: ExtrasPrices;
  readonly #carriers: readonly CarrierProfile[];

  constructor(options: SimulatedAirlineOptions) {
    this.#carriers = options.carriers ?? CARRIERS;
    this.#timetable = new SimulatedTimetable(options);
    this.#bookings = new SimulatedBookings(options.db, options.slowAnswerMs);
    this.#profile = options.profile;
    this.#extras = options.extras;
    this.seatSelection = new SeatCatalogue(this.#bookings);
    this.availability = new SimulatedAvailability(this.#bookings);
  }

  /** The timetable's offers, after the profile's latency (and now and then its failure). */
  async search(request: SupplierSearch): Promise<SupplierOffer[]> {
    await asProfiled(request, this.#profile);
    return this.#timetable.search(request);
  }

  book(booking: SupplierBooking): Promise<BookingAnswer> {
    return this.#bookings.book(booking);
  }

  cancelBookings(bookings: readonly BookingRef[]): Promise<void> {
    return this.#bookings.cancelBookings(bookings);
  }

  readOrder(booking: BookingRef): Promise<SupplierOrder | null> {
    return this.#bookings.readOrder(booking);
  }

  issueTickets(booking: SupplierBooking): Promise<TicketingAnswer> {
    return this.#bookings.issueTickets(booking);
  }

  /** The airline leaves the price of a cancellation to Aerogate's refund rule. */
  quoteCancellation(): Promise<CancellationQuote | null> {
    return Promise.resolve(null);
  }

  refundTickets(booking: SupplierBooking): Promise<void> {
    return this.#bookings.refundTickets(booking);
  }

  fareRisePercent(hold: { bookingReference: string; firstDepartureUtc: Date }, now: Date): number {
    return fareRisePercent(hold.bookingReference, hold.firstDepartureUtc, now);
  }

  availableServices(offer: OfferView): Promise<AvailableService[]> {
    return Promise.resolve(availableExtras(offer, this.#extras));
  }

  sellSeats(booking: BookingRef, saleId: string, seats: readonly SeatChoice[]): Promise<void> {
    return this.#bookings.sellSeats(booking, saleId, seats);
  }

  cancelSeatSale(booking: BookingRef, saleId: string): Promise<void> {
    return this.#bookings.cancelSeatSale(booking, saleId);
  }

  /** Never asked (its `afterBooking` is `extras`): its bags after booking are ours to sell. */
  sellServices(): Promise<void> {
    return Promise.reject(appError("unsupported_by_supplier", { message: "The simulated airline sells no services paid at the airline after booking." }));
  }

  /** It makes no sale paid at the airline: none was made. */
  serviceSaleMade(): Promise<boolean> {
    return Promise.resolve(false);
  }

  issueEmds(booking: SupplierBooking, services: readonly ServiceSale[]): Promise<IssuedEmd[]> {
    return this.#bookings.issueEmds(booking, services);
  }

  changeFlights(booking: BookingRef, changeId: string, change: FlightChange): Promise<void> {
    return this.#bookings.changeFlights(booking, changeId, change);
  }

  completeChange(booking: BookingRef, changeId: string, release: readonly string[]): Promise<void> {
    return this.#bookings.completeChange(booking, changeId, release);
  }

  cancelChange(booking: BookingRef, changeId: string): Promise<void> {
    return this.#bookings.cancelChange(booking, changeId);
  }

  reissueTickets(booking: SupplierBooking, reissue: string): Promise<ReissuedTicket[]> {
    return this.#bookings.reissueTickets(booking, reissue);
  }

  retimeFlight(flightKey: string, itineraries: readonly BookedItinerary[], now: Date): FlightTimes | null {
    return this.#timetable.retimeFlight(flightKey, itineraries, now);
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
}

/** Airports as the fare worker names them. */
function codes(airports: readonly Airport[]): string[] {
  return airports.map((airport) => airport.iataCode);
}
