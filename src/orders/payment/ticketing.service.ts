import type { TenantScope } from "../../tenancy/tenant-scope";
import type { OrderSuppliers } from "../../gateway/contract/gateway";
import { requireSupplierClock } from "../core/order-supplier";
import type { Database } from "../../db/database";
import { sqlTimestamp } from "../../db/sql-values";
import { GuardFailed } from "../../db/write-batch";
import { AppError, appError } from "../../errors/app-error";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { convertMinor } from "../../money/exchange-rates";
import { formatMinor } from "../../money/format";
import { walletChange, WALLET_GUARD } from "../../wallet/wallet-change";
import { insufficientBalance } from "../../wallet/insufficient-balance";
import type { WalletService } from "../../wallet/wallet.service";
import { newId } from "../../ids";
import { offerSupplier } from "../../search/offer-payload";
import { orderPriceSplit, servicesPaidAfterTicketing, walletShare, type Order, type OrderDetail } from "../core/order";
import { checkPayment } from "./payment-rules";
import type { Payment, PaymentRequest } from "./payment";
import { bookedTotal, currentTotal } from "./repricing";
import type { OrderCommits } from "../core/order-commits";
import type { AirlineJobs } from "../jobs/airline-jobs";
import type { OrderService } from "../core/order.service";
import { awaitsPayment, requireAllowed, stateConflict } from "../core/order-actions";
import { ORDER_GUARD, touchIn, transition } from "../core/order-state-machine";

/** 422 `price_changed`, naming the order's new total. */
function priceChanged(order: Order) {
  const total = `${formatMinor(order.totalAmount, order.currency)} ${order.currency}`;
  return appError("price_changed", { field: "payment.amount", reason: `The price guarantee ran out and the airline priced the order again: its total is now ${total}.` });
}

/** Why a payment's transition found the order changed: it left PENDING, or services added raised its total. */
function paymentRefused(order: Order) {
  if (!awaitsPayment(order)) return stateConflict(order, "pay");
  const total = `${formatMinor(order.totalAmount, order.currency)} ${order.currency}`;
  return appError("payment_amount_mismatch", { reason: `Services were added to the order while it was paid: its total is now ${total}. Pay that.` });
}

/**
 * Paying for an order and asking the airline to ticket it (docs/rest-api.md#orders-and-ticketing). The request
 * changes the order and queues a durable job in one transaction; the job worker applies the
 * airline's answer later (order-job-runner.ts).
 */
export class TicketingService {
  constructor(
    private readonly db: Database,
    private readonly orders: OrderService,
    private readonly wallets: WalletService,
    /** Queues the ticketing job with the payment, due after the airline's delay. */
    private readonly jobs: AirlineJobs,
    private readonly commits: OrderCommits,
    /** Each order's supplier: whether it runs on a moved clock, and how it prices a hold again. */
    private readonly suppliers: OrderSuppliers,
  ) {}

  /**
   * The ticket action: pays the order's current total from the wallet and starts ticketing
   * (`pay`). 422 `price_changed` if the airline priced it again just now (its guarantee ran out).
   */
  async ticket(scope: TenantScope, orderId: string): Promise<OrderDetail> {
    const { order, repriced } = await this.payable(scope, orderId);
    if (repriced) throw priceChanged(order);
    await this.pay(scope, order, null);
    return this.orders.detail(scope, orderId);
  }

  /**
   * POST /v1/air/payments: pays the order's total, sent as `payment` (it must match: 422
   * `payment_amount_mismatch`, or `price_changed` once the airline priced it again), and starts
   * ticketing exactly as the ticket action does.
   */
  async payOrder(scope: TenantScope, request: PaymentRequest): Promise<Payment> {
    const { order, repriced } = await this.payable(scope, request.orderId);
    let amount: number;
    try {
      amount = checkPayment(request.payment, order.totalAmount, order.currency, "payment.amount");
    } catch (error) {
      // A payment of the old total, once the airline has priced the order again.
      const newPrice = repriced || order.totalAmount !== bookedTotal(order);
      if (error instanceof AppError && error.code === "payment_amount_mismatch" && request.payment.currency === order.currency && newPrice) throw priceChanged(order);
      throw error;
    }
    const now = scope.clock.now();
    const payment: Payment = { id: newId("pay", now.getTime()), orderId: order.id, type: "balance", amount, currency: order.currency, createdAt: now };
    await this.pay(scope, order, payment);
    return payment;
  }

  /** A payment made (`payOrder`), as it was: its order's total at payment (services added after ticketing were paid on their own). 404 for an unknown id. */
  async payment(scope: TenantScope, paymentId: string): Promise<Payment> {
    const entry = await this.db.prisma.ledgerEntry.findFirst({ where: { tenantId: scope.tenantId, reference: paymentId, type: "ticketing_debit" }, select: { orderId: true, createdAt: true } });
    if (!entry?.orderId) throw appError("not_found", { field: "id" });
    const order = await this.orders.get(scope, entry.orderId);
    return { id: paymentId, orderId: order.id, type: "balance", amount: order.totalAmount - servicesPaidAfterTicketing(order), currency: order.currency, createdAt: entry.createdAt };
  }

  /**
   * The order, if it can be paid now: PENDING and before its deadline (409
   * `order_state_conflict` otherwise). Past its price guarantee the airline prices it again, and
   * a new total is written (`repriced`) before anything is paid.
   */
  private async payable(scope: TenantScope, orderId: string): Promise<{ order: Order; repriced: boolean }> {
    const order = await this.orders.get(scope, orderId);
    const now = scope.clock.now();
    requireAllowed(order, "pay", now);
    requireSupplierClock(order.offer.payload, scope.clock, this.suppliers);
    const total = await this.totalNow(scope, order, now);
    if (total === order.totalAmount) return { order, repriced: false };
    const set = Sql.sql`, "totalAmount" = ${total}`;
    try {
      await this.commits.commit([order], [touchIn(this.db, order, order.status, now, set, Sql.sql`AND "totalAmount" = ${order.totalAmount}`)]);
    } catch (error) {
      if (error instanceof GuardFailed && error.guard === ORDER_GUARD) return this.payable(scope, orderId);
      throw error;
    }
    return { order: { ...order, totalAmount: total, updatedAt: now }, repriced: true };
  }

  /**
   * What the unpaid order costs now: a supplier that prices its own holds is asked (outside any
   * transaction, before anything is paid); else the hold is priced by its supplier's rule once its
   * guarantee ran out (repricing.ts).
   */
  private async totalNow(scope: TenantScope, order: Order, now: Date): Promise<number> {
    const subject = order.offer.payload;
    const priced = this.suppliers.declared(subject, "pricedHolds");
    if (!priced) return currentTotal(order, now, this.suppliers.declared(subject, "holds"));
    const ref = { id: order.id, tenantId: order.tenantId, environment: scope.tenant.environment, supplier: offerSupplier(subject).id, ...(subject.supplierOffer && { supplierOffer: subject.supplierOffer }) };
    return bookedTotal(order) + (await priced.holdPriceChange(ref, order.currency));
  }

  /**
   * PENDING → PROCESSING: debits the wallet by the order total, makes the order immutable and
   * queues the ticketing job, all in one transaction, so either all happen or none. The debit
   * is guarded by the balance in the database, so concurrent payments never overdraw it (402
   * `insufficient_balance`); the transition's compare-and-set makes one of a payment and the
   * deadline's cancellation win (409 `order_state_conflict` for the other), and pays the total
   * it read or nothing: services added meanwhile (service-addition.service.ts) raised it, and the
   * payment is 422 `payment_amount_mismatch` naming the new total. The ledger entry carries the
   * payment's id, if any.
   */
  private async pay(scope: TenantScope, order: Order, payment: Payment | null): Promise<void> {
    // A second pass only if a sandbox wallet was re-denominated between reading and debiting it.
    for (let pass = 0; pass < 2; pass++) {
      const wallet = await this.wallets.get(scope.tenantId);
      const amount = convertMinor(walletShare(order), order.currency, wallet.currency);
      const now = payment?.createdAt ?? scope.clock.now();
      const ticketing = this.jobs.schedule(order, "ticket");
      const feeAmount = convertMinor(orderPriceSplit(order).feeAmount, order.currency, wallet.currency);
      const debit = walletChange(this.db, { tenantId: scope.tenantId, type: "ticketing_debit", amount: -amount, currency: wallet.currency, orderId: order.id, reference: payment?.id ?? null, feeAmount, at: now });
      const paid = transition(this.db, order, "ticket", now, Sql.sql`, "paidAt" = ${sqlTimestamp(this.db.provider, now)}`, Sql.sql`AND "totalAmount" = ${order.totalAmount}`);
      try {
        await this.commits.commit([order], [paid, ...debit.statements, ticketing.statement]);
      } catch (error) {
        if (!(error instanceof GuardFailed)) throw error;
        if (error.guard === ORDER_GUARD) throw paymentRefused(await this.orders.get(scope, order.id));
        if (error.guard !== WALLET_GUARD) throw error;
        const current = await this.wallets.get(scope.tenantId);
        if (current.currency !== wallet.currency) continue;
        throw insufficientBalance(scope, "The order costs", amount, current);
      }
      ticketing.wake();
      return;
    }
    throw appError("order_state_conflict", { reason: "The wallet's currency changed while ticketing; try again." });
  }
}
