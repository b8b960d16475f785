import { clock } from "../../clock";
import { appError, type AppError } from "../../errors/app-error";
import type { Airport } from "../../locations/airport";
import type { BookingAnswer, BookingRef, CancellationQuote, OrderRef, RefundOutcome, SupplierBooking, SupplierOrder, TicketingAnswer } from "../../gateway/contract/bookings";
import { SupplierAccountRefused, SupplierFailed } from "../../gateway/contract/errors";
import type { CancelledElsewhere, PricedHolds } from "../../gateway/contract/capabilities";
import type { SupplierOffer, SupplierOfferRef, SupplierSearch } from "../../gateway/contract/offers";
import type { Supplier } from "../../gateway/contract/supplier";
import { onAccount, type DuffelAccounts } from "./duffel-accounts";
import type { DuffelBookings } from "./duffel-bookings";
import { DuffelCancellations } from "./duffel-cancellations";
import type { DuffelExtras } from "./duffel-extras";
import { offerRequestBody, toSupplierOffer } from "./duffel-offers";
import type { DuffelOrder } from "./duffel-shapes";
import { DuffelTicketing } from "./duffel-ticketing";
import { duffelPassengers } from "./duffel-travellers";

/** A search answers at most this many of Duffel's offers, as the simulated airline does. */
const MAX_OFFERS = 50;

/** How much earlier than the search's deadline Duffel is asked to answer (its `supplier_timeout`), so its answer arrives in time. */
const ANSWER_MARGIN_MS = 250;

/**
 * How long a booking waits for Duffel to confirm a hold it accepted (202) before the order is made
 * unconfirmed, to be confirmed or failed in the background (docs/duffel.md#holds-confirmed-later).
 */
const BOOKING_CONFIRMATION_WAIT_MS = 2_000;

/** Duffel's `supplier_timeout` for a search with no deadline of its own. */
const DEFAULT_SUPPLIER_TIMEOUT_MS = 20_000;

/** What the Duffel supplier works with. */
export interface DuffelSupplierParts {
  /** Tenants' accounts: every call is made with the tenant's own token. */
  accounts: DuffelAccounts;
  bookings: DuffelBookings;
  airportByIata: (code: string) => Airport | undefined;
  /** The offers' bags and seats: what the services booked with an order cost at Duffel. */
  extras: Pick<DuffelExtras, "servicesTotal">;
  /** Tells the domain Duffel cancelled our order `orderId` on its side (SupplierOrderSignals.cancelled): it is read, and cancelled or refunded here. */
  cancelledAtDuffel: (orderId: string) => Promise<void>;
}

/**
 * Duffel behind the core of the supplier contract (docs/duffel.md#how-an-order-maps-to-duffel):
 * every call is made with the tenant's own account. A booking reads the offer again (gone or
 * priced again: refused, nothing booked), then becomes a Duffel `hold` order, or, for an offer
 * Duffel cannot hold, nothing yet (`pay_now`: ticketing books it as an instant order). Each
 * booking is named by our order id (DuffelBookings), so a repeat finds its work done. Ticketing
 * pays the hold; a refund confirms Duffel's cancellation quote; giving a booking back cancels it
 * at Duffel. Its capabilities: it prices its own holds, asked again before one is paid
 * (PricedHolds), and tells an order cancelled at Duffel outside our API (CancelledElsewhere).
 */
export class DuffelSupplier implements Supplier, PricedHolds, CancelledElsewhere {
  readonly #ticketing: DuffelTicketing;
  readonly #cancellations: DuffelCancellations;

  constructor(private readonly parts: DuffelSupplierParts) {
    this.#cancellations = new DuffelCancellations(parts.accounts, parts.bookings);
    this.#ticketing = new DuffelTicketing(parts.accounts, parts.bookings, parts.extras, (orderIds) => this.#cancellations.cancelAll(orderIds), parts.cancelledAtDuffel);
  }

  /**
   * Duffel's 50 cheapest offers for the search, asked with the tenant's account: the offer request
   * without its offers (Duffel answers them all at once, 229 offers and 1.5 MB for a real LHR→JFK,
   * one parse that would hold the event loop), answered a little before the search's deadline
   * (Duffel's `supplier_timeout`), then its offers a page at a time, cheapest first
   * (`sort=total_amount`), until 50 of them are ours to show or Duffel has no more. A rate limit is
   * waited out only before the deadline. A refused token marks the connection invalid and fails
   * with SupplierAccountRefused.
   */
  async search(request: SupplierSearch): Promise<SupplierOffer[]> {
    const account = await this.parts.accounts.forSearch(request.tenantId);
    if (!account) throw new SupplierFailed("a Duffel search is asked with the tenant's account or the platform's, and it has neither");
    const supplierTimeoutMs = request.deadlineMs === undefined ? DEFAULT_SUPPLIER_TIMEOUT_MS : request.deadlineMs - clock.nowMs() - ANSWER_MARGIN_MS;
    return onAccount(
      this.parts.accounts,
      account,
      async (connector) => {
        const asked = await connector.createOfferRequest(offerRequestBody(request), { returnOffers: false, supplierTimeoutMs, deadlineMs: request.deadlineMs });
        const offers: SupplierOffer[] = [];
        let after: string | undefined;
        do {
          const page = await connector.listOffers(asked.id, { after, limit: MAX_OFFERS, deadlineMs: request.deadlineMs });
          // Duffel pages them cheapest first; a page is sorted again so that the cheapest are kept whatever it answers.
          for (const offer of page.data.sort((a, b) => Number(a.total_amount) - Number(b.total_amount))) {
            const mapped = offers.length < MAX_OFFERS ? toSupplierOffer(offer, this.parts.airportByIata, request.passengers) : null;
            // The account that found it books, pays and refunds it (and says who settles: the platform's is the wallet's).
            if (mapped) offers.push(account.kind === "platform" ? { ...mapped, supplierOffer: { ...mapped.supplierOffer!, account: "platform" } } : mapped);
          }
          after = page.meta.after ?? undefined;
        } while (after && offers.length < MAX_OFFERS);
        return offers;
      },
      (refused: AppError) => new SupplierAccountRefused(refused),
    );
  }

  /**
   * Reads the offer as Duffel prices it now (422 `offer_no_longer_available`, `price_changed`);
   * one Duffel cannot hold, or booked with services (Duffel holds none with extras), is `pay_now`; any other becomes a Duffel hold order carrying our order
   * id, with the passengers by name. Asked again for the same order (a retry), it finds the
   * hold and answers it, without reading the offer again. A hold Duffel priced otherwise than the
   * offer is cancelled at Duffel and refused (`price_changed`). A hold Duffel accepted (202) and did
   * not confirm within BOOKING_CONFIRMATION_WAIT_MS is `accepted`: read again later (`readOrder`).
   */
  async book(booking: SupplierBooking): Promise<BookingAnswer> {
    const offer = booking.supplierOffer;
    if (!offer) throw appError("offer_no_longer_available", { reason: "The offer names no Duffel offer to book; search again." });
    const { bookings } = this.parts;
    const recorded = await bookings.find(booking.tenantId, booking.id);
    if (!recorded || recorded.status === "failed") {
      const current = await bookings.currentOffer(booking.tenantId, offer.account ?? "tenant", offer.id, { amount: offer.totalAmount, currency: offer.totalCurrency });
      // Duffel takes services only with an order paid at once: one booked with extras is booked and paid at ticketing.
      if (current.payment_requirements.requires_instant_payment || booking.services.length > 0) return { outcome: "pay_now" };
    }
    const placed = await bookings.place(booking.tenantId, {
      idempotencyKey: booking.id,
      orderId: booking.id,
      offerId: offer.id,
      account: offer.account ?? "tenant",
      type: "hold",
      passengers: duffelPassengers(booking.passengers, offer),
      confirmWithinMs: BOOKING_CONFIRMATION_WAIT_MS,
    });
    if (!placed.order) return heldAnswer(placed.intent);
    if (placed.order.total_amount !== offer.totalAmount || placed.order.total_currency !== offer.totalCurrency) {
      await bookings.undo(placed.intent, placed.order);
      throw appError("price_changed", { message: "Duffel priced the offer again and its total changed.", reason: `Duffel booked it at ${placed.order.total_amount} ${placed.order.total_currency}; search again and book a current offer.` });
    }
    await bookings.commit(placed.intent, placed.order);
    return heldAnswer(orderFields(placed.order));
  }

  holdPriceChange(order: OrderRef & { supplierOffer?: SupplierOfferRef }, currency: string): Promise<number> {
    return this.#ticketing.holdPriceChange(order, currency);
  }

  /** Cancels at Duffel whichever of these bookings are Duffel's. */
  cancelBookings(bookings: readonly BookingRef[]): Promise<void> {
    return this.#cancellations.cancelAll(bookings.map((booking) => booking.id));
  }

  /**
   * Duffel's order for our order id, as Duffel has it now (read by Duffel's id once recorded, else
   * found by our order id); null when there is none, or Duffel failed the order it had accepted. A
   * hold Duffel has not confirmed yet is `held` without a booking reference.
   */
  async readOrder(booking: BookingRef): Promise<SupplierOrder | null> {
    const { bookings } = this.parts;
    const [recorded] = await bookings.liveAmong([booking.id]);
    if (!recorded) return null;
    const order = recorded.duffelOrderId === null ? await bookings.duffelOrderOf(recorded) : await bookings.currentOrder({ ...recorded, duffelOrderId: recorded.duffelOrderId });
    if (!order) return null;
    const held = order.payment_status.awaiting_payment;
    return {
      bookingReference: order.booking_reference || null,
      status: order.cancelled_at !== null ? "cancelled" : held ? "held" : "ticketed",
      paymentRequiredBy: held && order.payment_status.payment_required_by ? new Date(order.payment_status.payment_required_by) : null,
    };
  }

  issueTickets(booking: SupplierBooking): Promise<TicketingAnswer> {
    return this.#ticketing.issueTickets(booking);
  }

  /** Duffel prices its own cancellations. */
  quoteCancellation(order: OrderRef, currency: string): Promise<CancellationQuote | null> {
    return this.#cancellations.quote(order, currency);
  }

  /** An order cancelled at Duffel outside our API (its dashboard, the airline): its confirmed cancellation. */
  cancellationAtSupplier(order: OrderRef, currency: string): Promise<CancellationQuote | null> {
    return this.#cancellations.cancellationAtSupplier(order, currency);
  }

  refundTickets(booking: SupplierBooking, quoteReference: string | null): Promise<RefundOutcome | void> {
    return this.#cancellations.refundTickets(booking, quoteReference);
  }
}

/** What a held booking answers: Duffel's reference, and its own deadline for the hold (real time); `accepted` while Duffel has not confirmed it (no reference yet). */
function heldAnswer(booked: { bookingReference: string | null; paymentRequiredBy: string | null }): BookingAnswer {
  if (!booked.bookingReference) return { outcome: "accepted" };
  return { outcome: "held", bookingReference: booked.bookingReference, paymentRequiredBy: booked.paymentRequiredBy === null ? null : new Date(booked.paymentRequiredBy) };
}

function orderFields(order: DuffelOrder): { bookingReference: string | null; paymentRequiredBy: string | null } {
  return { bookingReference: order.booking_reference, paymentRequiredBy: order.payment_status.awaiting_payment ? order.payment_status.payment_required_by : null };
}
