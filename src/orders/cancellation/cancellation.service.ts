import { answerAirlineChanges, openAirlineChange } from "../core/airline-change-rows";
import type { OrderSuppliers } from "../../gateway/contract/gateway";
import { requireSupplierClock } from "../core/order-supplier";
import type { TenantScope } from "../../tenancy/tenant-scope";
import type { Database } from "../../db/database";
import { queryRows } from "../../db/query-rows";
import { sqlTimestamp } from "../../db/sql-values";
import { GuardFailed, type BatchStatement } from "../../db/write-batch";
import { orderEvent } from "../presentation/order-event-payload";
import { AppError, appError } from "../../errors/app-error";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { newId } from "../../ids";
import type { CursorCodec } from "../../pagination/cursor";
import { paginate, type Page, type PageRequest } from "../../pagination/paginate";
import { noPause, type TestPause } from "../../test-pause";
import { cancellationFrom, confirmCancellation, expireEarlierQuotes, insertCancellation, QUOTE_LIFETIME_MS, type CancellationRecord, type OrderCancellation } from "./cancellation";
import { servicesPaidAfterTicketing as paidAfterTicketing, type Order, type OrderDetail } from "../core/order";
import type { OrderCommits } from "../core/order-commits";
import type { OrderEvent } from "../../events/order-events";
import type { AirlineJobs } from "../jobs/airline-jobs";
import { awaitsPayment, isRefunding, isTicketed, refusal, requireAllowed, stateConflict } from "../core/order-actions";
import { ORDER_GUARD, touchIn } from "../core/order-state-machine";
import type { OrderService } from "../core/order.service";
import { orderSubject } from "../core/order-subject";
import { refundAmount, refundedFee } from "./refund-rules";
import { offerSupplier } from "../../search/offer-payload";

/**
 * Cancelling orders for a refund (docs/rest-api.md#cancellations-with-a-quote): quotes, their confirmation, and the seed's
 * one-step refund action, which is a quote confirmed at once. Both paths price the refund with
 * the one rule (refund-rules.ts), or, for a ticketed order whose supplier prices its own
 * cancellations (a remote one), with the supplier's quote converted to the order's currency, and write
 * the quote, so the refund job credits exactly what was quoted (and confirms the supplier's). A confirmed quote of a PENDING order cancels it (seats released, as the cancel action
 * does); of a TICKETED order, it asks the airline to refund (the order stays TICKETED until the
 * refund job makes it REFUNDED and credits the wallet, once). While the airline has changed one of
 * the order's flights and the change awaits an answer (docs/rest-api.md#airline-initiated-changes), cancelling is that answer:
 * the refund is the whole total, and confirming records the change as `cancelled`.
 */
export class CancellationService {
  constructor(
    private readonly db: Database,
    private readonly cursors: CursorCodec,
    private readonly orders: OrderService,
    /** Queues the refund job with the refund's request, due after the airline's delay. */
    private readonly jobs: AirlineJobs,
    private readonly commits: OrderCommits,
    /** Each order's supplier: its own quote, for a supplier that prices its cancellations. */
    private readonly suppliers: OrderSuppliers,
    /** TEST ONLY (AEROGATE_TEST_PAUSE_AT): stops a request inside a crash window. */
    private readonly pause: TestPause = noPause,
  ) {}

  /**
   * A quote that changes nothing but the order's earlier unconfirmed quotes (it replaces them: they
   * expire) and can be confirmed for 15 minutes; with an airline-initiated
   * change open on the order, it refunds the whole total. 404 `not_found` for an unknown or
   * another tenant's order; 409 `order_state_conflict` unless PENDING, or TICKETED with no refund
   * under way; 422 `refund_not_allowed` once the first flight has left.
   */
  async quote(scope: TenantScope, orderId: string): Promise<OrderCancellation> {
    const order = await this.orders.get(scope, orderId);
    const now = scope.clock.now();
    requireAllowed(order, "cancelWithQuote", now);
    // A hold is let go whatever the clock; a paid order's refund is the supplier's quote, on its own time.
    if (!awaitsPayment(order)) requireSupplierClock(order.offer.payload, scope.clock, this.suppliers);
    const quote = await this.priced(order, now, scope);
    await this.commits.commit([order], [expireEarlierQuotes(this.db, quote), insertCancellation(this.db, quote)], [orderEvent(order, now, { type: "order_cancellation.created", cancellation: quote })]);
    return quote;
  }

  /**
   * Confirms a quote: cancels or refunds the order, and the refund job credits the quoted amount.
   * Every repeat, and every confirmation racing it, answers the same confirmed quote. 422
   * `cancellation_quote_expired` after 15 minutes, or once a newer quote of the order replaced it; 409 `order_state_conflict` if the order moved
   * on since the quote (cancelled or refunded otherwise, paid, changed); 404 for an unknown id.
   */
  async confirm(scope: TenantScope, cancellationId: string): Promise<OrderCancellation> {
    const quote = await this.get(scope, cancellationId);
    if (quote.confirmedAt !== null) return quote;
    const now = scope.clock.now();
    if (quote.expiresAt <= now) throw quoteExpired(quote);
    try {
      await this.apply(scope, quote, now);
    } catch (error) {
      // A confirmation of the same quote committed first: its answer is this one's too.
      const settled = await this.get(scope, cancellationId);
      if (settled.confirmedAt !== null) return settled;
      // A newer quote of the order replaced it meanwhile.
      if (settled.expiresAt <= now) throw quoteExpired(settled);
      throw error;
    }
    return { ...quote, confirmedAt: now };
  }

  /** A quote; 404 `not_found` for an unknown id or another tenant's. A raw read: every confirmation makes one or two. */
  async get(scope: TenantScope, cancellationId: string): Promise<OrderCancellation> {
    const [row] = await queryRows<CancellationRecord>(this.db, Sql.sql`SELECT * FROM "OrderCancellation" WHERE "id" = ${cancellationId} AND "tenantId" = ${scope.tenantId}`);
    if (!row) throw appError("not_found", { field: "id" });
    return cancellationFrom(row);
  }

  /** The tenant's quotes, newest first, of one order if given (404 if that order is unknown or another tenant's). */
  async list(scope: TenantScope, orderId: string | undefined, request: PageRequest): Promise<Page<OrderCancellation>> {
    if (orderId !== undefined) await this.orders.get(scope, orderId);
    const where = { tenantId: scope.tenantId, ...(orderId === undefined ? {} : { orderId }) };
    return paginate({
      list: `order_cancellations:${scope.tenantId}:${orderId ?? "*"}`,
      request,
      cursors: this.cursors,
      count: () => this.db.prisma.orderCancellation.count({ where }),
      fetch: async (query) => (await this.db.prisma.orderCancellation.findMany({ ...query, where: { AND: [where, query.where] } })).map(cancellationFrom),
    });
  }

  /**
   * The seed's refund action: a TICKETED order's refund, quoted and confirmed in one step (so
   * with the quote's amount), for a fare that allows refunds. 422 `refund_not_allowed` when it
   * does not or the first flight has left; 409 `order_state_conflict` if not TICKETED or a refund
   * is already under way. The refund is priced on the order as read and commits only if the order
   * is still so: one changed in between (an order change or an airline's change accepted, services
   * added) owes another amount, and is priced again.
   */
  async requestRefund(scope: TenantScope, orderId: string): Promise<OrderDetail> {
    for (let pricing = 1; ; pricing++) {
      const order = await this.orders.get(scope, orderId);
      const now = scope.clock.now();
      requireAllowed(order, "refund", now);
      requireSupplierClock(order.offer.payload, scope.clock, this.suppliers);
      const quote = { ...(await this.priced(order, now, scope)), confirmedAt: now };
      try {
        await this.startRefund(scope, order, now, [insertCancellation(this.db, quote), ...this.answering(quote, now)], Sql.sql`AND "updatedAt" = ${sqlTimestamp(this.db.provider, order.updatedAt)}`);
      } catch (error) {
        // Changed since it was read, and still refundable: priced again as it now is.
        if (pricing < REFUND_PRICINGS && error instanceof AppError && error.code === "order_state_conflict" && (await this.stillRefundable(scope, orderId))) continue;
        throw error;
      }
      return this.orders.detail(scope, orderId);
    }
  }

  /**
   * The order's supplier cancelled it on its own side (its dashboard, the airline), as its
   * webhook says: a TICKETED order with no refund under way is refunded as a confirmed quote of
   * ours would be. The supplier's cancellation becomes the confirmed quote (its refund, plus the
   * platform's fee when refundable), with `order_cancellation.confirmed`, an open airline change
   * answered `cancelled`, and the refund job, which confirms it at the supplier again (done
   * already) and credits the wallet once, as the order's settlement says. The order's guard lets
   * one refund start: racing our own cancellation (or another delivery), the other finds it under
   * way and does nothing. An unpaid hold (PENDING) is cancelled here as the cancel action does
   * (OrderService.cancelledAtSupplier): nothing to refund. What it did: `refunding`; `cancelled`
   * (the hold); `over` (no such order, or it is over here: refunded or being refunded, cancelled,
   * failed, or it moved on meanwhile); `not_cancelled` (the supplier shows no cancellation);
   * `ticketing` (paid and being ticketed here: the ticketing finds the supplier's order cancelled
   * and fails it, the debit given back).
   */
  async cancelledAtSupplier(orderId: string): Promise<"refunding" | "cancelled" | "over" | "not_cancelled" | "ticketing"> {
    const subject = await orderSubject(this.db, orderId);
    if (!subject || isRefunding(subject.order) || ["REFUNDED", "CANCELED", "FAILED"].includes(subject.order.status)) return "over";
    const { order, environment, clock } = subject;
    const elsewhere = this.suppliers.declared(order.offer.payload, "cancelledElsewhere");
    if (!elsewhere) return "not_cancelled";
    const cancelled = await elsewhere.cancellationAtSupplier({ id: order.id, tenantId: order.tenantId, environment, supplier: offerSupplier(order.offer.payload).id }, order.currency);
    if (!cancelled) return "not_cancelled";
    if (awaitsPayment(order)) return (await this.orders.cancelledAtSupplier(subject)) ? "cancelled" : "over";
    if (!isTicketed(order)) return "ticketing";
    const now = clock.now();
    const quote: OrderCancellation = {
      id: newId("ore", now.getTime()),
      orderId: order.id,
      tenantId: order.tenantId,
      refundAmount: cancelled.refundAmount + refundedFee(order),
      currency: order.currency,
      fullRefund: false,
      supplierReference: cancelled.reference || null,
      expiresAt: now,
      confirmedAt: now,
      createdAt: now,
    };
    const refund = this.jobs.schedule(order, "refund");
    const requested = Sql.sql`, "refundRequestedAt" = ${sqlTimestamp(this.db.provider, now)}`;
    try {
      await this.commits.commit(
        [order],
        [insertCancellation(this.db, quote), answerAirlineChanges(this.db, order, "cancel", now), touchIn(this.db, order, "TICKETED", now, requested, Sql.sql`AND "refundRequestedAt" IS NULL`), refund.statement],
        [orderEvent(order, now, { type: "order_cancellation.confirmed", cancellation: quote })],
      );
    } catch (error) {
      if (error instanceof GuardFailed && error.guard === ORDER_GUARD) return "over";
      throw error;
    }
    refund.wake();
    return "refunding";
  }

  /** Whether the order is TICKETED with no refund under way (the refund action's guard failed because it changed otherwise). */
  private async stillRefundable(scope: TenantScope, orderId: string): Promise<boolean> {
    const order = await this.orders.get(scope, orderId);
    return isTicketed(order) && !isRefunding(order);
  }

  /** Cancels (PENDING) or starts refunding (TICKETED) the quoted order, with the quote confirmed in the same transaction. */
  private async apply(scope: TenantScope, quote: OrderCancellation, now: Date): Promise<void> {
    const order = await this.orders.get(scope, quote.orderId);
    const confirmed = confirmCancellation(this.db, quote, now);
    // Unpaid, so the quote's nothing is still right; the cancellation's guard sees it is still PENDING.
    if (awaitsPayment(order)) {
      await this.orders.cancel(scope, order.id, [confirmed], (pending, at) => orderEvent({ ...pending, status: "CANCELED" }, at, { type: "order_cancellation.confirmed", cancellation: { ...quote, confirmedAt: now } }));
      return;
    }
    requireAllowed(order, "cancelWithQuote", now);
    requireSupplierClock(order.offer.payload, scope.clock, this.suppliers);
    // Paid, changed or given services since: the quoted amount may no longer be what is owed.
    if (order.updatedAt > quote.createdAt) throw stateConflict(order, "cancelWithQuote", CHANGED_SINCE_QUOTE);
    const confirmation = orderEvent(order, now, { type: "order_cancellation.confirmed", cancellation: { ...quote, confirmedAt: now } });
    await this.startRefund(scope, order, now, [confirmed, ...this.answering(quote, now)], Sql.sql`AND "updatedAt" <= ${sqlTimestamp(this.db.provider, quote.createdAt)}`, [confirmation]);
  }

  /**
   * A full refund answers the order's open airline-initiated change: it is recorded `cancelled`
   * with the refund. The order's guard keeps this right: an airline change detected or answered
   * otherwise changed the order after the quote, so the quote can no longer be confirmed.
   */
  private answering(quote: OrderCancellation, now: Date): BatchStatement[] {
    return quote.fullRefund ? [answerAirlineChanges(this.db, { id: quote.orderId, tenantId: quote.tenantId }, "cancel", now)] : [];
  }

  /**
   * TICKETED, refund asked: the order notes the request and the refund job is queued, with
   * `statements` (the quote written or confirmed) first, in one transaction. The order's guard
   * (`condition` too) decides between racing refunds and quote confirmations: one of them.
   * `events`: what the refund's request emits (a quote's confirmation).
   */
  private async startRefund(scope: TenantScope, order: Order, now: Date, statements: BatchStatement[], condition: Sql.Sql = Sql.empty, events: OrderEvent[] = []): Promise<void> {
    const refund = this.jobs.schedule(order, "refund");
    const requested = Sql.sql`, "refundRequestedAt" = ${sqlTimestamp(this.db.provider, now)}`;
    try {
      await this.commits.commit([order], [...statements, touchIn(this.db, order, "TICKETED", now, requested, Sql.sql`AND "refundRequestedAt" IS NULL ${condition}`), refund.statement], events);
    } catch (error) {
      if (error instanceof GuardFailed && error.guard === ORDER_GUARD) throw refundConflict(await this.orders.get(scope, order.id), now);
      throw error;
    }
    await this.pause("after_refund_commit", { orderId: order.id });
    refund.wake();
  }

  /**
   * A new quote for the order as it is now, priced by the refund rule: in full while an
   * airline-initiated change is open. A ticketed order whose supplier quotes its own cancellations
   * is priced by that quote instead (asked now, outside any transaction: nothing changes at the
   * supplier until the refund confirms it), and lives no longer than it (the supplier's expiry is
   * in real time: read on the tenant's clock, it is as far ahead as that clock is).
   */
  private async priced(order: Order, now: Date, scope: TenantScope): Promise<OrderCancellation> {
    const servicesPaidAfterTicketing = isTicketed(order) ? paidAfterTicketing(order) : 0;
    const fullRefund = isTicketed(order) && (await openAirlineChange(this.db, order)) !== null;
    const ref = { id: order.id, tenantId: order.tenantId, environment: scope.tenant.environment, supplier: offerSupplier(order.offer.payload).id };
    const supplierQuote = isTicketed(order) ? await this.suppliers.supplierOf(order.offer.payload).quoteCancellation(ref, order.currency) : null;
    const supplierExpiry = supplierQuote?.expiresAt ? supplierQuote.expiresAt.getTime() + scope.clock.offsetMs : Infinity;
    const expiresAt = new Date(Math.min(now.getTime() + QUOTE_LIFETIME_MS, supplierExpiry));
    return {
      id: newId("ore", now.getTime()),
      orderId: order.id,
      tenantId: order.tenantId,
      // A supplier's own quote refunds what it was paid; the platform's fee is ours to give back.
      refundAmount: supplierQuote ? supplierQuote.refundAmount + refundedFee(order) : refundAmount(order, { servicesPaidAfterTicketing, fullRefund }),
      currency: order.currency,
      fullRefund,
      supplierReference: supplierQuote?.reference ?? null,
      expiresAt,
      confirmedAt: null,
      createdAt: now,
    };
  }
}

/** How many times the refund action prices an order that keeps changing under it before it gives up (409). */
const REFUND_PRICINGS = 3;

const CHANGED_SINCE_QUOTE = "it changed after this quote was made; ask for a new quote";

/**
 * The 409 of a refund that an order, read again after its guard failed, refuses: changed since
 * it was priced while still refundable, else what the refund action answers it (no longer
 * TICKETED, or a refund under way).
 */
function refundConflict(order: Order, now: Date): AppError {
  if (isTicketed(order) && !isRefunding(order)) return stateConflict(order, "cancelWithQuote", CHANGED_SINCE_QUOTE);
  return refusal(order, "refund", now)!;
}

function quoteExpired(quote: OrderCancellation): AppError {
  return appError("cancellation_quote_expired", {
    field: "id",
    reason: `The quote expired at ${quote.expiresAt.toISOString()}: a quote lasts its lifetime, or until a newer quote of the same order replaces it.`,
  });
}
