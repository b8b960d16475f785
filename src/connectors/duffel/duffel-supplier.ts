import { clock } from "../../clock";
import type { AppError } from "../../errors/app-error";
import type { Airport } from "../../locations/airport";
import { SupplierAccountRefused, SupplierFailed, type CancellationQuote, type OrderRef, type Supplier, type SupplierBooking, type SupplierOffer, type SupplierSearch, type TicketingAnswer } from "../../gateway/contract/supplier";
import { onAccount, type DuffelAccount, type DuffelAccounts } from "./duffel-accounts";
import type { DuffelBookings } from "./duffel-bookings";
import { DuffelCancellations } from "./duffel-cancellations";
import { offerRequestBody, toSupplierOffer } from "./duffel-offers";
import { DuffelTicketing } from "./duffel-ticketing";

/** A search answers at most this many of Duffel's offers, as the simulated airline does. */
const MAX_OFFERS = 50;

/** How much earlier than the search's deadline Duffel is asked to answer (its `supplier_timeout`), so its answer arrives in time. */
const ANSWER_MARGIN_MS = 250;

/** Duffel's `supplier_timeout` for a search with no deadline of its own. */
const DEFAULT_SUPPLIER_TIMEOUT_MS = 20_000;

/** What the Duffel supplier works with. */
export interface DuffelSupplierParts {
  /** Tenants' accounts for the calls after a search (booking, ticketing, cancelling): each HTTP exchange under the Duffel circuit breaker. */
  accounts: DuffelAccounts;
  bookings: DuffelBookings;
  airportByIata: (code: string) => Airport | undefined;
}

/** The account a search asks with: a tenant's, from accounts whose exchanges the search fan-out's breaker covers. */
export interface DuffelSearchAccount {
  accounts: DuffelAccounts;
  account: DuffelAccount;
}

/**
 * Duffel behind the Supplier interface (docs/duffel.md#how-an-order-maps-to-duffel). A search asks
 * with a tenant's own account (the gateway's entry for the tenant: duffel-registration.ts). The
 * calls after booking name our order, whose Duffel booking (DuffelBookings, by our order id) says
 * which Duffel order and tenant they are: ticketing pays the hold or books an instant order, a
 * refund confirms Duffel's cancellation quote, and releasing seats cancels the order at Duffel.
 * Bookings themselves are made by the orders' own path (orders/core/duffel-order-booking.ts),
 * under DuffelBookings' intent. Seats and services after booking, EMDs and changes are not wired
 * (the order refuses them: supplier-capabilities.ts), so their calls fail; the undo calls that
 * the gateway asks of every supplier find nothing of Duffel's and do nothing.
 */
export class DuffelSupplier implements Supplier {
  readonly name = "Duffel";
  readonly #ticketing: DuffelTicketing;
  readonly #cancellations: DuffelCancellations;

  constructor(
    private readonly parts: DuffelSupplierParts,
    /** The tenant whose searches this answers; without it, it answers none. */
    private readonly searchAccount: DuffelSearchAccount | null = null,
  ) {
    this.#cancellations = new DuffelCancellations(parts.accounts, parts.bookings);
    this.#ticketing = new DuffelTicketing(parts.accounts, parts.bookings, (orderIds) => this.#cancellations.cancelAll(orderIds));
  }

  /**
   * Duffel's offers for the search, at most 50, asked to answer a little before the search's
   * deadline (Duffel's `supplier_timeout`); a rate limit is waited out only before that deadline.
   * A refused token marks the connection invalid and fails with SupplierAccountRefused.
   */
  async search(request: SupplierSearch): Promise<SupplierOffer[]> {
    const searchAccount = this.searchAccount;
    if (!searchAccount) throw new SupplierFailed("a Duffel search is asked with a tenant's account");
    const supplierTimeoutMs = request.deadlineMs === undefined ? DEFAULT_SUPPLIER_TIMEOUT_MS : request.deadlineMs - clock.nowMs() - ANSWER_MARGIN_MS;
    const answer = await onAccount(
      searchAccount.accounts,
      searchAccount.account,
      (connector) => connector.createOfferRequest(offerRequestBody(request), { returnOffers: true, supplierTimeoutMs, deadlineMs: request.deadlineMs }),
      (refused: AppError) => new SupplierAccountRefused(refused),
    );
    const offers: SupplierOffer[] = [];
    for (const offer of answer.offers ?? []) {
      const mapped = toSupplierOffer(offer, this.parts.airportByIata, request.passengers);
      if (mapped) offers.push(mapped);
      if (offers.length === MAX_OFFERS) break;
    }
    return offers;
  }

  /** Duffel keeps its own inventory: no seat of ours is held on its flights. */
  seatsHeld(): Promise<Map<string, number>> {
    return Promise.resolve(new Map());
  }

  seatsAssigned(): Promise<Map<string, Set<string>>> {
    return Promise.resolve(new Map());
  }

  holdSeats(booking: Pick<SupplierBooking, "id">): Promise<never> {
    return Promise.reject(new SupplierFailed(`order ${booking.id}: a Duffel order is booked through its Duffel booking, not a seat hold`));
  }

  /** Cancels at Duffel whichever of these orders are Duffel's. */
  releaseSeats(...bookingIds: string[]): Promise<void> {
    return this.#cancellations.cancelAll(bookingIds);
  }

  sellSeats(booking: Pick<SupplierBooking, "id">): Promise<never> {
    return Promise.reject(new SupplierFailed(`order ${booking.id}: seats are not sold after booking through Duffel`));
  }

  /** No sale is ever Duffel's: nothing to undo. */
  cancelSeatSale(): Promise<void> {
    return Promise.resolve();
  }

  issueTickets(booking: SupplierBooking): Promise<TicketingAnswer> {
    return this.#ticketing.issueTickets(booking);
  }

  issueEmds(booking: Pick<SupplierBooking, "id">): Promise<never> {
    return Promise.reject(new SupplierFailed(`order ${booking.id}: services after booking are not sold through Duffel`));
  }

  exchangeSeats(booking: Pick<SupplierBooking, "id">): Promise<never> {
    return Promise.reject(new SupplierFailed(`order ${booking.id}: changes are not made through Duffel`));
  }

  /** No exchange is ever Duffel's: nothing to finish. */
  completeSeatExchange(): Promise<void> {
    return Promise.resolve();
  }

  cancelSeatExchange(): Promise<void> {
    return Promise.resolve();
  }

  reissueTickets(booking: Pick<SupplierBooking, "id">): Promise<never> {
    return Promise.reject(new SupplierFailed(`order ${booking.id}: changes are not made through Duffel`));
  }

  refundTickets(booking: SupplierBooking, quoteReference?: string | null): Promise<void> {
    return this.#cancellations.refund(booking, quoteReference);
  }

  quoteCancellation(order: OrderRef, currency: string): Promise<CancellationQuote> {
    return this.#cancellations.quote(order, currency);
  }

  /** The sandbox's retiming is the simulated airline's: Duffel's flights are never retimed here. */
  retimeFlight(): null {
    return null;
  }
}
