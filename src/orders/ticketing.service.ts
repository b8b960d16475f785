import type { TenantScope } from "../context/tenant-scope";
import type { Database } from "../db/database";
import { sqlTimestamp } from "../db/sql-values";
import { GuardFailed } from "../db/write-batch";
import { appError } from "../errors/app-error";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { convertMinor } from "../money/exchange-rates";
import { formatMinor } from "../money/format";
import { walletChange, WALLET_GUARD } from "../wallet/wallet-change";
import type { WalletService } from "../wallet/wallet.service";
import type { OrderDetail } from "./order";
import type { OrderChanges } from "./order-changes";
import type { OrderJobQueue } from "./order-job-queue";
import type { OrderService } from "./order.service";
import { ORDER_GUARD, stateConflict, touchIn, transition } from "./order-state-machine";
import { refundRefusal } from "./refund-rules";
import { clock } from "../clock";

/**
 * Asking the airline to ticket or refund an order (interface §4.6, decisions §5). The request
 * changes the order and queues a durable job in one transaction; the job worker applies the
 * airline's answer later (order-job-runner.ts).
 */
export class TicketingService {
  constructor(
    private readonly db: Database,
    private readonly orders: OrderService,
    private readonly wallets: WalletService,
    private readonly queue: OrderJobQueue,
    private readonly changes: OrderChanges,
    /** Tells this process's worker when the job it queued is due. */
    private readonly wake: (runAt: Date) => void,
    private readonly ticketingDelayMs: number,
  ) {}

  /**
   * PENDING → PROCESSING: debits the wallet by the order total, makes the order immutable and
   * queues the ticketing job, all in one transaction, so either all happen or none. The debit
   * is guarded by the balance in the database, so concurrent tickets never overdraw it (402
   * `insufficient_balance`); 409 `order_state_conflict` if the order is not PENDING.
   */
  async ticket(scope: TenantScope, orderId: string): Promise<OrderDetail> {
    const order = await this.orders.get(scope, orderId);
    if (order.status !== "PENDING") throw stateConflict(order, "ticket");
    // A second pass only if a sandbox wallet was re-denominated between reading and debiting it.
    for (let pass = 0; pass < 2; pass++) {
      const wallet = await this.wallets.get(scope.tenantId);
      const amount = convertMinor(order.totalAmount, order.currency, wallet.currency);
      const now = clock.now();
      const runAt = new Date(now.getTime() + this.ticketingDelayMs);
      const debit = walletChange(this.db, { tenantId: scope.tenantId, type: "ticketing_debit", amount: -amount, currency: wallet.currency, orderId, at: now });
      try {
        await this.changes.commit([order], [transition(this.db, order, "ticket", now), ...debit.statements, this.queue.enqueue(order, "ticket", runAt, now)]);
      } catch (error) {
        if (!(error instanceof GuardFailed)) throw error;
        if (error.guard === ORDER_GUARD) throw stateConflict(await this.orders.get(scope, orderId), "ticket");
        if (error.guard !== WALLET_GUARD) throw error;
        const current = await this.wallets.get(scope.tenantId);
        if (current.currency !== wallet.currency) continue;
        throw appError("insufficient_balance", {
          reason: `The order costs ${formatMinor(amount, wallet.currency)} ${wallet.currency}; the wallet holds ${formatMinor(current.balance, current.currency)}.`,
        });
      }
      this.wake(runAt);
      return this.orders.detail(scope, orderId);
    }
    throw appError("order_state_conflict", { reason: "The wallet's currency changed while ticketing; try again." });
  }

  /**
   * Asks for a TICKETED order's refund: it stays TICKETED until the airline confirms (the refund
   * job), then becomes REFUNDED and the wallet is credited the total less the fare's penalty.
   * 422 `refund_not_allowed` when the fare does not allow it or the first flight has left; 409
   * `order_state_conflict` if not TICKETED or a refund is already under way.
   */
  async requestRefund(scope: TenantScope, orderId: string): Promise<OrderDetail> {
    const order = await this.orders.get(scope, orderId);
    if (order.status !== "TICKETED") throw stateConflict(order, "requestRefund");
    if (order.refundRequestedAt !== null) throw stateConflict(order, "requestRefund", "a refund is already under way");
    const now = clock.now();
    const refusal = refundRefusal(order, now);
    if (refusal) throw appError("refund_not_allowed", { reason: refusal });
    const runAt = new Date(now.getTime() + this.ticketingDelayMs);
    try {
      await this.changes.commit([order], [
        touchIn(this.db, order, "TICKETED", now, Sql.sql`, "refundRequestedAt" = ${sqlTimestamp(this.db.provider, now)}`, Sql.sql`AND "refundRequestedAt" IS NULL`),
        this.queue.enqueue(order, "refund", runAt, now),
      ]);
    } catch (error) {
      if (error instanceof GuardFailed && error.guard === ORDER_GUARD) {
        throw stateConflict(await this.orders.get(scope, orderId), "requestRefund", "a refund is already under way");
      }
      throw error;
    }
    this.wake(runAt);
    return this.orders.detail(scope, orderId);
  }
}
