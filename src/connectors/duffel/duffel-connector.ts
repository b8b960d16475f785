import { clock } from "../../clock";
import { DuffelApiError, DuffelTimeout, sleep, type DuffelCallOptions, type DuffelClient } from "./duffel-client";
import type {
  DuffelAirlineInitiatedChange,
  DuffelAvailableService,
  DuffelCreateOrderBody,
  DuffelOffer,
  DuffelOfferRequest,
  DuffelOfferRequestBody,
  DuffelOrder,
  DuffelOrderCancellation,
  DuffelOrderChange,
  DuffelOrderChangeOffer,
  DuffelOrderChangeRequest,
  DuffelPage,
  DuffelPayment,
  DuffelSeatMap,
  DuffelWebhook,
} from "./duffel-shapes";

/** Duffel's `supplier_timeout` bounds, in milliseconds. */
const SUPPLIER_TIMEOUT_MS = { min: 2_000, max: 60_000 };

/** How often an order Duffel accepted (202) is read again until it is confirmed: the first wait, doubling up to the last. */
const CONFIRMATION_POLL_MS = { first: 100, max: 2_000 };

/** A call's deadline (clock milliseconds), for the calls a caller bounds. */
type Deadline = Pick<DuffelCallOptions, "deadlineMs">;

/**
 * Everything Aerogate asks of Duffel for one account (one access token), in Duffel's own shapes:
 * search, offers and their services, seat maps, orders (instant and hold), payments,
 * cancellations, changes and airline-initiated changes. Failures are Duffel's
 * (DuffelApiError, DuffelTimeout, DuffelUnreachable); `catalogueError` words them for our API.
 */
export class DuffelConnector {
  constructor(private readonly client: DuffelClient) {}

  /**
   * An offer request; with `returnOffers` its offers come in the answer. Duffel waits for its
   * airlines up to `supplierTimeoutMs`, which is sent a little under the caller's deadline.
   */
  createOfferRequest(body: DuffelOfferRequestBody, options: { returnOffers: boolean; supplierTimeoutMs: number } & Deadline): Promise<DuffelOfferRequest> {
    const supplierTimeout = Math.min(SUPPLIER_TIMEOUT_MS.max, Math.max(SUPPLIER_TIMEOUT_MS.min, Math.round(options.supplierTimeoutMs)));
    return this.client.post("/air/offer_requests", { query: { return_offers: options.returnOffers, supplier_timeout: supplierTimeout }, body, deadlineMs: options.deadlineMs });
  }

  /** One page of an offer request's offers, cheapest first; `meta.after` names the next. */
  listOffers(offerRequestId: string, page: { after?: string; limit?: number } & Deadline = {}): Promise<DuffelPage<DuffelOffer>> {
    return this.client.page("/air/offers", { query: { offer_request_id: offerRequestId, after: page.after, limit: page.limit, sort: "total_amount" }, deadlineMs: page.deadlineMs });
  }

  /** The offer as Duffel prices it now; with its bags and other services when asked. */
  getOffer(offerId: string, options: { returnAvailableServices?: boolean } & Deadline = {}): Promise<DuffelOffer> {
    return this.client.get(`/air/offers/${encodeURIComponent(offerId)}`, { query: { return_available_services: options.returnAvailableServices }, deadlineMs: options.deadlineMs });
  }

  /** A seat map per segment of the offer. */
  seatMaps(offerId: string, options: Deadline = {}): Promise<DuffelSeatMap[]> {
    return this.client.get("/air/seat_maps", { query: { offer_id: offerId }, deadlineMs: options.deadlineMs });
  }

  /**
   * Books the offer: `instant` pays with the order, `hold` keeps it until `payment_required_by`.
   * Never repeated on its own (see DuffelBookings). An order Duffel accepted without confirming it
   * (202) is read again until Duffel confirms it (it has a booking reference) or fails it (a 404 or
   * Duffel's `order_creation_failed`: DuffelApiError `order_creation_failed`, nothing booked); still
   * unconfirmed at the deadline, DuffelTimeout: the booking is found again later by its offer. With
   * `confirmWithinMs`, it is read again only that long, and then answered as Duffel has it, without
   * a booking reference: the caller reads it again later.
   */
  async createOrder(body: DuffelCreateOrderBody, options: Deadline & { confirmWithinMs?: number } = {}): Promise<DuffelOrder> {
    const deadlineMs = options.deadlineMs ?? this.client.deadlineFromNow();
    const answer = await this.client.postAnswer<DuffelOrder>("/air/orders", { body, deadlineMs });
    if (answer.status !== 202 && answer.data.booking_reference) return answer.data;
    const answerBy = options.confirmWithinMs === undefined ? null : Math.min(deadlineMs, clock.nowMs() + options.confirmWithinMs);
    for (let waitMs = CONFIRMATION_POLL_MS.first; ; waitMs = Math.min(waitMs * 2, CONFIRMATION_POLL_MS.max)) {
      if (answerBy !== null && clock.nowMs() + waitMs >= answerBy) return answer.data;
      if (clock.nowMs() + waitMs >= deadlineMs) throw new DuffelTimeout("Duffel accepted the order and did not confirm it in time");
      await sleep(waitMs);
      const order = await this.getOrder(answer.data.id, { deadlineMs }).catch((error: unknown) => {
        if (error instanceof DuffelApiError && (error.status === 404 || error.code === "order_creation_failed")) {
          throw new DuffelApiError(422, "order_creation_failed", "airline_error", "Duffel could not confirm the order it had accepted: nothing was booked", error.requestId);
        }
        throw error;
      });
      if (order.booking_reference) return order;
    }
  }

  getOrder(orderId: string, options: Deadline = {}): Promise<DuffelOrder> {
    return this.client.get(`/air/orders/${encodeURIComponent(orderId)}`, { deadlineMs: options.deadlineMs });
  }

  /**
   * The order of Duffel's offer `offerId` whose `metadata[key]` is `value`, or null: how a booking
   * whose answer was lost is found again (Duffel takes no idempotency key; our order id travels in
   * the metadata). Duffel lists the offer's orders alone (`offer_id`), so the lookup does not grow
   * with the account's history; all its pages share one deadline (the caller's, or one call's).
   */
  async findOfferOrder(offerId: string, key: string, value: string, options: Deadline = {}): Promise<DuffelOrder | null> {
    const deadlineMs = options.deadlineMs ?? this.client.deadlineFromNow();
    let after: string | undefined;
    do {
      const page = await this.client.page<DuffelOrder>("/air/orders", { query: { offer_id: offerId, limit: 50, after }, deadlineMs });
      const found = page.data.find((order) => order.metadata?.[key] === value);
      if (found) return found;
      after = page.meta.after ?? undefined;
    } while (after);
    return null;
  }

  /** The services a booked order can still be given (bags), at Duffel's prices now. */
  orderAvailableServices(orderId: string, options: Deadline = {}): Promise<DuffelAvailableService[]> {
    return this.client.get(`/air/orders/${encodeURIComponent(orderId)}/available_services`, { deadlineMs: options.deadlineMs });
  }

  /** Adds services to a paid order and pays them from the Duffel balance (exactly their total, in the order's currency); the order as it is then. */
  addOrderServices(orderId: string, services: ReadonlyArray<{ id: string; quantity: number }>, payment: { amount: string; currency: string }, options: Deadline = {}): Promise<DuffelOrder> {
    return this.client.post(`/air/orders/${encodeURIComponent(orderId)}/services`, { body: { add_services: services, payment: { type: "balance", ...payment } }, deadlineMs: options.deadlineMs });
  }

  /** Pays a held order from the Duffel balance: exactly its total, in its currency. */
  createPayment(orderId: string, payment: { amount: string; currency: string }, options: Deadline = {}): Promise<DuffelPayment> {
    return this.client.post("/air/payments", { body: { order_id: orderId, payment: { type: "balance", amount: payment.amount, currency: payment.currency } }, deadlineMs: options.deadlineMs });
  }

  /** A cancellation quote: what the airline refunds, valid until `expires_at`. */
  quoteCancellation(orderId: string, options: Deadline = {}): Promise<DuffelOrderCancellation> {
    return this.client.post("/air/order_cancellations", { body: { order_id: orderId }, deadlineMs: options.deadlineMs });
  }

  confirmCancellation(cancellationId: string, options: Deadline = {}): Promise<DuffelOrderCancellation> {
    return this.client.post(`/air/order_cancellations/${encodeURIComponent(cancellationId)}/actions/confirm`, { deadlineMs: options.deadlineMs });
  }

  /**
   * Cancels the order through its order cancellations: confirms the quote `quoteId`, or one asked
   * now. When Duffel has the order cancelled already, nothing is confirmed: safe to repeat. Answers
   * the confirmed cancellation (found again among the order's when it was confirmed before), or
   * null when Duffel shows none.
   */
  async cancelOrder(orderId: string, quoteId?: string | null, options: Deadline = {}): Promise<DuffelOrderCancellation | null> {
    if ((await this.getOrder(orderId, options)).cancelled_at === null) return this.confirmCancellation(quoteId ?? (await this.quoteCancellation(orderId, options)).id, options);
    const page = await this.client.page<DuffelOrderCancellation>("/air/order_cancellations", { query: { order_id: orderId }, deadlineMs: options.deadlineMs });
    return page.data.find((cancellation) => cancellation.confirmed_at !== null) ?? null;
  }

  /** Asks to replace slices of a paid order; the answer lists priced change offers. */
  requestChange(orderId: string, slices: DuffelOrderChangeRequest["slices"], options: Deadline = {}): Promise<DuffelOrderChangeRequest> {
    return this.client.post("/air/order_change_requests", { body: { order_id: orderId, slices }, deadlineMs: options.deadlineMs });
  }

  getChangeOffer(changeOfferId: string, options: Deadline = {}): Promise<DuffelOrderChangeOffer> {
    return this.client.get(`/air/order_change_offers/${encodeURIComponent(changeOfferId)}`, { deadlineMs: options.deadlineMs });
  }

  /** A pending order change from a change offer, to confirm with its payment. */
  createChange(changeOfferId: string, options: Deadline = {}): Promise<DuffelOrderChange> {
    return this.client.post("/air/order_changes", { body: { selected_order_change_offer: changeOfferId }, deadlineMs: options.deadlineMs });
  }

  getChange(changeId: string, options: Deadline = {}): Promise<DuffelOrderChange> {
    return this.client.get(`/air/order_changes/${encodeURIComponent(changeId)}`, { deadlineMs: options.deadlineMs });
  }

  /** Confirms the pending change, paying its change total from the Duffel balance (no payment for one that costs nothing). */
  confirmChange(changeId: string, payment: { amount: string; currency: string } | null, options: Deadline = {}): Promise<DuffelOrderChange> {
    return this.client.post(`/air/order_changes/${encodeURIComponent(changeId)}/actions/confirm`, { body: payment ? { payment: { type: "balance", ...payment } } : {}, deadlineMs: options.deadlineMs });
  }

  /** The airline's changes to the order's flights (every page). */
  listAirlineInitiatedChanges(orderId: string, options: Deadline = {}): Promise<DuffelAirlineInitiatedChange[]> {
    return this.allPages("/air/airline_initiated_changes", { order_id: orderId }, options.deadlineMs);
  }

  /** Creates a webhook to `url` for `events`: Duffel shows its secret only in this answer. */
  createWebhook(url: string, events: readonly string[], options: Deadline = {}): Promise<DuffelWebhook & { secret: string }> {
    return this.client.post("/air/webhooks", { body: { url, events }, deadlineMs: options.deadlineMs });
  }

  /** The account's webhooks (every page, Duffel's largest pages). */
  listWebhooks(options: Deadline = {}): Promise<DuffelWebhook[]> {
    return this.allPages("/air/webhooks", { limit: 200 }, options.deadlineMs);
  }

  /** Removes the webhook; one already gone is no error. */
  async deleteWebhook(webhookId: string, options: Deadline = {}): Promise<void> {
    await this.client.delete(`/air/webhooks/${encodeURIComponent(webhookId)}`, { deadlineMs: options.deadlineMs }).catch((error: unknown) => {
      if (!(error instanceof DuffelApiError && error.status === 404)) throw error;
    });
  }

  /** Every page of a list, each read before `deadlineMs` (without one, each within one call's time). */
  private async allPages<T>(path: string, query: Record<string, string | number>, deadlineMs: number | undefined): Promise<T[]> {
    const items: T[] = [];
    let after: string | undefined;
    do {
      const page = await this.client.page<T>(path, { query: { ...query, after }, deadlineMs });
      items.push(...page.data);
      after = page.meta.after ?? undefined;
    } while (after);
    return items;
  }

  acceptAirlineInitiatedChange(changeId: string, options: Deadline = {}): Promise<DuffelAirlineInitiatedChange> {
    return this.client.post(`/air/airline_initiated_changes/${encodeURIComponent(changeId)}/actions/accept`, { deadlineMs: options.deadlineMs });
  }
}
