import { answerAirlineChanges } from "../orders/core/airline-change-rows";
import type { TenantScope } from "../tenancy/tenant-scope";
import type { Database } from "../db/database";
import { isUniqueViolation } from "../db/errors";
import { GuardFailed, type BatchStatement } from "../db/write-batch";
import { orderEvent } from "../orders/presentation/order-event-payload";
import { appError } from "../errors/app-error";
import { newId } from "../ids";
import { convertMinor } from "../money/exchange-rates";
import { formatMinor } from "../money/format";
import type { Order } from "../orders/core/order";
import { requireAllowed } from "../orders/core/order-actions";
import type { OrderCommits } from "../orders/core/order-commits";
import type { AirlineJobs } from "../orders/jobs/airline-jobs";
import { ORDER_GUARD } from "../orders/core/order-state-machine";
import type { OrderService } from "../orders/core/order.service";
import { checkPayment, type PaymentInput } from "../orders/payment/payment-rules";
import { SeatsUnavailable } from "../gateway/contract/errors";
import { type FlightChange } from "../gateway/contract/bookings";
import type { OrderSuppliers } from "../gateway/contract/gateway";
import type { IntentCalls } from "../orders/recovery/intent-calls";
import { CallIntents } from "../orders/recovery/call-intents";
import { walletChange, WALLET_GUARD } from "../wallet/wallet-change";
import { spendable } from "../wallet/wallet";
import { insufficientBalance } from "../wallet/insufficient-balance";
import type { WalletService } from "../wallet/wallet.service";
import { noPause, type TestPause } from "../test-pause";
import { changedBooking } from "./change-pricing";
import type { ChangeRequestService } from "./change-requests.service";
import { CHANGE_GUARD, confirmChange, keepChangeRequest, replaceBooking } from "./change-rows";
import { changePath } from "../orders/core/order-supplier";
import { flightKeysOf, orderChangeFrom, type OrderChange, type OrderChangeOffer } from "./order-change";

/**
 * Choosing and confirming an order change (docs/rest-api.md#order-changes). Confirming asks the
 * airline first to hold seats on the added flights (a seat exchange keyed by the change, under a
 * durable intent: docs/supplier-contract.md), then commits one transaction: the order's slices,
 * services and total replaced, the wallet debited or credited once (`change_debit` /
 * `change_credit`, keyed by the change), the reissue job queued, `order.changed` written and the
 * exchange's intent marked committed. Then the airline releases the removed flights. So a
 * confirmation either happened whole or not at all, whenever the process dies (the seat
 * reconciler cancels an exchange that never committed, and completes one that did); racing
 * confirmations change the order once, and every one of them answers the confirmed change. The
 * e-tickets are reissued after the airline's delay (the `reissue` job); the order stays TICKETED
 * meanwhile.
 */
export class ChangeConfirmationService {
  constructor(
    private readonly db: Database,
    private readonly orders: OrderService,
    private readonly requests: ChangeRequestService,
    private readonly wallets: WalletService,
    /** The order's supplier changes its flights under a durable intent (recovery/intent-calls.ts). */
    private readonly calls: IntentCalls,
    private readonly suppliers: Pick<OrderSuppliers, "declared" | "require">,
    /** Queues the reissue job with the confirmation, due after the airline's delay. */
    private readonly jobs: AirlineJobs,
    private readonly commits: OrderCommits,
    /** TEST ONLY (AEROGATE_TEST_PAUSE_AT): stops a confirmation before or after its commit. */
    private readonly pause: TestPause = noPause,
  ) {}

  /**
   * A change made from the offer, not yet confirmed; the same change for every request naming the
   * offer. 404 `not_found` for an unknown or another tenant's offer; 422 `change_offer_expired`
   * once it has expired.
   */
  async create(scope: TenantScope, offerId: string): Promise<OrderChange> {
    const field = "selected_order_change_offer";
    const offer = await this.requests.offer(scope, offerId, field);
    const now = scope.clock.now();
    if (offer.expiresAt <= now) throw expired(offer, field);
    const change = { id: newId("oce", now.getTime()), orderId: offer.orderId, tenantId: offer.tenantId, changeOfferId: offer.id, createdAt: now };
    try {
      await this.db.prisma.orderChange.create({ data: change });
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
      const made = await this.db.prisma.orderChange.findUniqueOrThrow({ where: { changeOfferId: offer.id } });
      return orderChangeFrom(made, offer);
    }
    return { ...change, offer, confirmedAt: null };
  }

  /** The change with its offer; 404 `not_found` for an unknown id or another tenant's. */
  async get(scope: TenantScope, changeId: string): Promise<OrderChange> {
    const row = await this.db.prisma.orderChange.findFirst({ where: { id: changeId, tenantId: scope.tenantId } });
    if (!row) throw appError("not_found", { field: "id" });
    return orderChangeFrom(row, await this.requests.offer(scope, row.changeOfferId));
  }

  /**
   * Confirms the change: the order takes the offer's slices, once. A confirmed change answers as
   * it is (repeats and racing confirmations alike). 422 `change_offer_expired` past the offer's
   * expiry; 422 `change_not_allowed` when the order can no longer be changed; 409
   * `order_state_conflict` when the order changed since the offer was priced (request the
   * change again); 422 `payment_amount_mismatch` when `payment` is not the change's cost (a
   * change that costs nothing or gives money back needs none); 402 `insufficient_balance`; 422
   * `offer_no_longer_available` when a new flight has no seats left.
   */
  async confirm(scope: TenantScope, changeId: string, payment: PaymentInput | null): Promise<OrderChange> {
    const change = await this.get(scope, changeId);
    if (change.confirmedAt !== null) return change;
    const { offer } = change;
    const order = await this.orders.get(scope, change.orderId);
    const now = scope.clock.now();
    if (offer.expiresAt <= now) throw expired(offer);
    requireAllowed(order, "change", now, { noPenalty: offer.noPenalty });
    // The order read may already be this change's doing: a racing confirmation committed in between.
    if (order.updatedAt.getTime() !== offer.orderVersion.getTime()) return this.confirmedOr(scope, changeId, offer, () => changedSincePriced(order));
    checkChangePayment(payment, offer);
    const money = await this.money(scope, order, change);
    const reissue = this.jobs.schedule(order, "reissue");
    const booking = changedBooking(order, offer.removed, offer.added);
    const changed: Order = { ...order, offer: booking.offer, services: booking.services, totalAmount: offer.newTotalAmount, updatedAt: now };
    const added = offer.added.slices.flatMap((slice) => slice.segments);
    const exchange = await this.exchangeSeats(scope, order, change, {
      release: flightKeysOf(offer.removed),
      hold: added.map((segment) => ({ flightKey: segment.flightKey, cabinClass: segment.cabinClass, marketingCarrier: segment.marketingCarrier, seatsForSale: segment.seatsLeft })),
      passengers: order.offer.payload.passengers,
    });
    // A racing confirmation's exchange was under way: it has committed or been undone since.
    if (exchange === "raced") return this.confirm(scope, changeId, payment);
    if (exchange === "committed") return this.get(scope, changeId);
    const statements: BatchStatement[] = [
      // The request before the change, as a retention sweep locks them: racing, one waits for the other.
      keepChangeRequest(this.db, change),
      // Of racing confirmations, the others wait (above) for the first's commit and then find it done here.
      confirmChange(this.db, change, now),
      // A change without penalty answers the order's open airline-initiated change (docs/rest-api.md#airline-initiated-changes). Its row is
      // locked before the order's, as an acceptance and a full refund lock them: on PostgreSQL, racing answers
      // then wait for each other instead of deadlocking (the order's guard decides between them).
      ...(offer.noPenalty ? [answerAirlineChanges(this.db, order, "change", now)] : []),
      replaceBooking(this.db, order, { ...booking, totalAmount: offer.newTotalAmount }, now),
      ...money.statements(now),
      reissue.statement,
      this.calls.intents.committed(exchange),
    ];
    await this.pause("before_change_commit", { orderId: order.id, orderChangeId: change.id });
    try {
      await this.commits.commit([order], statements, [orderEvent(changed, now, { type: "order.changed", change: { id: change.id, changeTotalAmount: offer.changeTotalAmount, currency: offer.currency } })]);
    } catch (error) {
      // The change did not commit: the seats held on its flights go back on sale.
      await this.calls.undo(exchange);
      if (!(error instanceof GuardFailed)) throw error;
      if (error.guard === CHANGE_GUARD) return this.get(scope, changeId);
      if (error.guard === ORDER_GUARD) {
        const current = await this.orders.get(scope, order.id);
        return this.confirmedOr(scope, changeId, offer, () => changedSincePriced(current));
      }
      if (error.guard === WALLET_GUARD) throw money.refused();
      if (CallIntents.tookOver(error)) throw appError("service_unavailable", { reason: "The confirmation took too long and was not made; nothing changed. Try again." });
      throw error;
    }
    await this.pause("after_change_commit", { orderId: order.id, orderChangeId: change.id });
    await this.calls.finish(exchange);
    reissue.wake();
    return { ...change, confirmedAt: now };
  }

  /**
   * The change's new flights held by the order's supplier, under an intent keyed by the change
   * (IntentCalls.change). 422 `offer_no_longer_available` when a new flight has too few seats left.
   */
  private async exchangeSeats(scope: TenantScope, order: Order, change: OrderChange, exchange: FlightChange) {
    const booking = { id: order.id, tenantId: order.tenantId, environment: scope.tenant.environment };
    const path = changePath(order.offer.payload, this.suppliers, "order changes");
    // A supplier that quoted the change makes and pays it in one step; any other holds the new flights.
    const ask = "quoted" in path ? () => path.quoted.confirmQuotedChange(booking, change.offer.supplierOfferId ?? change.offer.id) : () => path.searched.changeFlights(booking, change.id, exchange);
    try {
      return await this.calls.change(booking, change.id, exchange.release, ask, async () => (await this.get(scope, change.id)).confirmedAt !== null);
    } catch (error) {
      if (error instanceof SeatsUnavailable) throw appError("offer_no_longer_available", { field: "id", reason: `Flight ${error.flightKey} has too few seats left; request the change again.` });
      throw error;
    }
  }

  /**
   * The change, if a racing confirmation has confirmed it meanwhile; otherwise the refusal: 422
   * `change_not_allowed` if the order can no longer be changed, else `refusal()`.
   */
  private async confirmedOr(scope: TenantScope, changeId: string, offer: OrderChangeOffer, refusal: () => Error): Promise<OrderChange> {
    const change = await this.get(scope, changeId);
    if (change.confirmedAt !== null) return change;
    requireAllowed(await this.orders.get(scope, change.orderId), "change", scope.clock.now(), { noPenalty: offer.noPenalty });
    throw refusal();
  }

  /**
   * What the change moves in the wallet, in the wallet's currency: a debit of its cost or a credit
   * of what comes back (none when it is even), keyed by the change so it is written once; 402
   * `insufficient_balance` now when the wallet cannot cover a debit (the transaction's guard
   * decides between racing debits).
   */
  private async money(scope: TenantScope, order: Order, change: OrderChange): Promise<{ statements: (at: Date) => BatchStatement[]; refused: () => Error }> {
    const wallet = await this.wallets.get(scope.tenantId);
    // A change is the fare's: the wallet pays it for a wallet-settled order; the supplier's balance for one it settles.
    const amount = order.settlement === "wallet" ? convertMinor(-change.offer.changeTotalAmount, order.currency, wallet.currency) : 0;
    const refused = () => insufficientBalance(scope, "The change costs", -amount, wallet, " (or its currency changed meanwhile)");
    if (spendable(wallet) + amount < 0) throw refused();
    const statements = (at: Date) =>
      amount === 0
        ? []
        : walletChange(this.db, { tenantId: scope.tenantId, type: amount < 0 ? "change_debit" : "change_credit", amount, currency: wallet.currency, orderId: order.id, reference: change.id, operationId: change.id, at }).statements;
    return { statements, refused };
  }
}

/**
 * A change that costs money is paid exactly its cost (422 `payment_amount_mismatch` naming
 * `payment`, or `payment.amount`); one that costs nothing or gives money back needs no payment,
 * and a payment sent for it must be 0.
 */
function checkChangePayment(payment: PaymentInput | null, offer: OrderChangeOffer): void {
  const owed = Math.max(offer.changeTotalAmount, 0);
  if (payment !== null) {
    checkPayment(payment, owed, offer.currency, "payment.amount", "change costs");
  } else if (owed > 0) {
    throw appError("payment_amount_mismatch", { field: "payment", reason: `The change costs ${formatMinor(owed, offer.currency)} ${offer.currency}: send it as payment.` });
  }
}

/** 422 `change_offer_expired`. */
function expired(offer: OrderChangeOffer, field?: string) {
  return appError("change_offer_expired", { ...(field && { field }), reason: `The change offer expired at ${offer.expiresAt.toISOString()}.` });
}

/** 409 `order_state_conflict`: the order is not as it was when the offer was priced. */
function changedSincePriced(order: Order) {
  const message = `Order ${order.id} changed since this change was priced; request the change again.`;
  return appError("order_state_conflict", { message, reason: message });
}
