import type { Airport } from "../locations/airport";
import { RecentMap } from "../recent-map";
import type { BookedItinerary, BookingRef, FareQuote, FlightCabin, FlightTimes, IssuedEmd, ReissuedTicket, SeatChoice, SeatExchange, ServiceSale, Supplier, SupplierBooking, SupplierOffer, SupplierSearch, TicketingAnswer } from "./supplier";
import { clock } from "../clock";

/** Searches remembered: at least the 1,000 most recent (see RecentMap). */
const RECENT_SEARCHES = 1000;
/** Lowest fares remembered: one per route and day, so a few hundred calendars' worth. */
const RECENT_LOWEST_FARES = 20_000;
const TTL_MS = 60_000;

/**
 * Remembers a supplier's answers for a minute, as flight APIs cache availability: the same
 * itinerary search (same airports, dates, passenger types, cabin, connections) is answered
 * from memory. Passenger ids differ between searches, so cached fares are re-labelled with
 * the new search's ids, position by position. Bookings are never cached: they go straight through.
 */
export class CachingSupplier implements Supplier {
  readonly name: string;
  private readonly entries = new RecentMap<string, { offers: SupplierOffer[]; storedAt: number }>(RECENT_SEARCHES);
  private readonly fares = new RecentMap<string, { quotes: FareQuote[]; storedAt: number }>(RECENT_LOWEST_FARES);
  /** Present when the inner supplier names destinations (it remembers them itself). */
  readonly destinationsFrom?: (origins: readonly Airport[], candidates: readonly Airport[]) => Airport[];
  /** Present when the inner supplier prices destination ideas: not remembered here (the fare calendar keeps months of them). */
  readonly nonstopFaresTo?: Supplier["nonstopFaresTo"];
  /** Present when the inner supplier answers lowest fares; remembered for the same minute as searches. */
  readonly lowestFares?: (request: SupplierSearch, limit: number) => Promise<FareQuote[]>;

  constructor(private readonly inner: Supplier) {
    this.name = inner.name;
    this.destinationsFrom = inner.destinationsFrom?.bind(inner);
    this.nonstopFaresTo = inner.nonstopFaresTo?.bind(inner);
    const lowestFares = inner.lowestFares?.bind(inner);
    if (lowestFares) {
      this.lowestFares = async (request, limit) => {
        const key = `${limit} ${searchKey(request)}`;
        const hit = this.fares.get(key);
        if (hit && clock.nowMs() - hit.storedAt < TTL_MS) return hit.quotes;
        const quotes = await lowestFares(request, limit);
        this.fares.set(key, { quotes, storedAt: clock.nowMs() });
        return quotes;
      };
    }
  }

  async search(request: SupplierSearch): Promise<SupplierOffer[]> {
    const key = searchKey(request);
    const hit = this.entries.get(key);
    if (hit && clock.nowMs() - hit.storedAt < TTL_MS) return relabel(hit.offers, request);
    const offers = await this.inner.search(request);
    this.entries.set(key, { offers, storedAt: clock.nowMs() });
    return offers;
  }

  holdSeats(booking: SupplierBooking): Promise<{ bookingReference: string }> {
    return this.inner.holdSeats(booking);
  }

  releaseSeats(...bookingIds: string[]): Promise<void> {
    return this.inner.releaseSeats(...bookingIds);
  }

  /** Never cached: holds change with every booking, in every process. */
  seatsHeld(flights: ReadonlyArray<FlightCabin>, environment: SupplierBooking["environment"]): Promise<Map<string, number>> {
    return this.inner.seatsHeld(flights, environment);
  }

  /** Never cached: seats change with every booking, in every process. */
  seatsAssigned(flightKeys: readonly string[], environment: SupplierBooking["environment"]): Promise<Map<string, Set<string>>> {
    return this.inner.seatsAssigned(flightKeys, environment);
  }

  sellSeats(booking: BookingRef, saleId: string, seats: readonly SeatChoice[]): Promise<void> {
    return this.inner.sellSeats(booking, saleId, seats);
  }

  cancelSeatSale(bookingId: string, saleId: string): Promise<void> {
    return this.inner.cancelSeatSale(bookingId, saleId);
  }

  issueTickets(booking: SupplierBooking): Promise<TicketingAnswer> {
    return this.inner.issueTickets(booking);
  }

  issueEmds(booking: SupplierBooking, services: readonly ServiceSale[]): Promise<IssuedEmd[]> {
    return this.inner.issueEmds(booking, services);
  }

  exchangeSeats(booking: BookingRef, exchangeId: string, exchange: SeatExchange): Promise<void> {
    return this.inner.exchangeSeats(booking, exchangeId, exchange);
  }

  completeSeatExchange(bookingId: string, exchangeId: string, release: readonly string[]): Promise<void> {
    return this.inner.completeSeatExchange(bookingId, exchangeId, release);
  }

  cancelSeatExchange(bookingId: string, exchangeId: string): Promise<void> {
    return this.inner.cancelSeatExchange(bookingId, exchangeId);
  }

  reissueTickets(booking: SupplierBooking, reissue: string): Promise<ReissuedTicket[]> {
    return this.inner.reissueTickets(booking, reissue);
  }

  refundTickets(booking: SupplierBooking): Promise<void> {
    return this.inner.refundTickets(booking);
  }

  retimeFlight(flightKey: string, itineraries: readonly BookedItinerary[], now: Date): FlightTimes | null {
    return this.inner.retimeFlight(flightKey, itineraries, now);
  }
}

function searchKey(request: SupplierSearch): string {
  return JSON.stringify([
    request.slices.map((slice) => [slice.origins.map((a) => a.iataCode), slice.destinations.map((a) => a.iataCode), slice.departureDate]),
    request.passengers.map((passenger) => passenger.type),
    request.cabinClass,
    request.maxConnections,
  ]);
}

function relabel(offers: SupplierOffer[], request: SupplierSearch): SupplierOffer[] {
  return offers.map((offer) => ({
    ...offer,
    passengers: offer.passengers.map((fare, index) => ({ ...fare, id: request.passengers[index]!.id })),
  }));
}
