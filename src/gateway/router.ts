import type { SupplierRegistry } from "./registry";
import type { BookedItinerary, BookingRef, CancellationQuote, FlightCabin, FlightTimes, IssuedEmd, OrderRef, ReissuedTicket, SeatChoice, SeatExchange, ServiceSale, Supplier, SupplierBooking, SupplierOffer, SupplierSearch, TicketingAnswer } from "./contract/supplier";

/**
 * Every call after the search, sent to the supplier it belongs to: a booking's to the order's own
 * supplier (its offer's; for a booking that does not name it, the seller of its first flight), a
 * seat or a flight's to its seller. Giving seats back names only bookings, so every supplier is
 * asked and each lets go of what it holds. Searches are the fan-out's (search/fan-out.ts), never
 * this router's.
 */
export class RoutedSupplier implements Supplier {
  readonly name = "gateway";

  constructor(private readonly registry: SupplierRegistry) {}

  search(_request: SupplierSearch): Promise<SupplierOffer[]> {
    return Promise.reject(new Error("searches go to each supplier through the fan-out"));
  }

  /** The supplier of a booking: the order's own, else the seller of its first flight. */
  #of(booking: Pick<SupplierBooking, "segments" | "supplier">): Supplier {
    return booking.supplier === undefined ? this.#seller(booking.segments[0]?.flightKey) : this.registry.get(booking.supplier).supplier;
  }

  #seller(flightKey: string | undefined): Supplier {
    return this.registry.forFlight(flightKey ?? "").supplier;
  }

  holdSeats(booking: SupplierBooking): Promise<{ bookingReference: string }> {
    return this.#of(booking).holdSeats(booking);
  }

  async releaseSeats(...bookingIds: string[]): Promise<void> {
    await this.#everySupplier((supplier) => supplier.releaseSeats(...bookingIds));
  }

  async seatsHeld(flights: ReadonlyArray<FlightCabin>, environment: SupplierBooking["environment"]): Promise<Map<string, number>> {
    const answers = await Promise.all([...this.#bySeller(flights, (flight) => flight.flightKey)].map(([supplier, own]) => supplier.seatsHeld(own, environment)));
    return new Map(answers.flatMap((answer) => [...answer]));
  }

  async seatsAssigned(flightKeys: readonly string[], environment: SupplierBooking["environment"]): Promise<Map<string, Set<string>>> {
    const answers = await Promise.all([...this.#bySeller(flightKeys, (key) => key)].map(([supplier, own]) => supplier.seatsAssigned(own, environment)));
    return new Map(answers.flatMap((answer) => [...answer]));
  }

  sellSeats(booking: BookingRef, saleId: string, seats: readonly SeatChoice[]): Promise<void> {
    return this.#seller(seats[0]?.flightKey).sellSeats(booking, saleId, seats);
  }

  /** Names only the booking and the sale: every supplier lets go of what that sale wrote, if anything (each undo is exact and repeatable). */
  async cancelSeatSale(bookingId: string, saleId: string): Promise<void> {
    await this.#everySupplier((supplier) => supplier.cancelSeatSale(bookingId, saleId));
  }

  issueTickets(booking: SupplierBooking): Promise<TicketingAnswer> {
    return this.#of(booking).issueTickets(booking);
  }

  issueEmds(booking: SupplierBooking, services: readonly ServiceSale[]): Promise<IssuedEmd[]> {
    return this.#of(booking).issueEmds(booking, services);
  }

  exchangeSeats(booking: BookingRef, exchangeId: string, exchange: SeatExchange): Promise<void> {
    return this.#seller(exchange.hold[0]?.flightKey ?? exchange.release[0]).exchangeSeats(booking, exchangeId, exchange);
  }

  /** Names only the booking and the exchange: every supplier finishes what that exchange wrote, if anything. */
  async completeSeatExchange(bookingId: string, exchangeId: string, release: readonly string[]): Promise<void> {
    await this.#everySupplier((supplier) => supplier.completeSeatExchange(bookingId, exchangeId, release));
  }

  async cancelSeatExchange(bookingId: string, exchangeId: string): Promise<void> {
    await this.#everySupplier((supplier) => supplier.cancelSeatExchange(bookingId, exchangeId));
  }

  reissueTickets(booking: SupplierBooking, reissue: string): Promise<ReissuedTicket[]> {
    return this.#of(booking).reissueTickets(booking, reissue);
  }

  refundTickets(booking: SupplierBooking, quoteReference?: string | null): Promise<void> {
    return this.#of(booking).refundTickets(booking, quoteReference);
  }

  /** The order's supplier's own cancellation quote (`Supplier.quoteCancellation`), or null when it leaves cancellations to our refund rule. */
  supplierQuote(order: OrderRef & { supplier: string }, currency: string): Promise<CancellationQuote | null> {
    const supplier = this.registry.get(order.supplier).supplier;
    return supplier.quoteCancellation ? supplier.quoteCancellation(order, currency) : Promise.resolve(null);
  }

  retimeFlight(flightKey: string, itineraries: readonly BookedItinerary[], now: Date): FlightTimes | null {
    return this.#seller(flightKey).retimeFlight(flightKey, itineraries, now);
  }

  /** A call that names only a booking, asked of every supplier in turn: each lets go of or finishes what it holds of it. */
  async #everySupplier(call: (supplier: Supplier) => Promise<void>): Promise<void> {
    for (const entry of this.registry.all) await call(entry.supplier);
  }

  /** The items grouped by the supplier selling each (one call per supplier). */
  #bySeller<T>(items: readonly T[], flightKeyOf: (item: T) => string): Map<Supplier, T[]> {
    const groups = new Map<Supplier, T[]>();
    for (const item of items) {
      const supplier = this.#seller(flightKeyOf(item));
      const group = groups.get(supplier);
      if (group) group.push(item);
      else groups.set(supplier, [item]);
    }
    return groups;
  }
}
