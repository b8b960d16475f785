import type { Database } from "../db/database";
import { queryRows } from "../db/query-rows";
import { sqlTimestamp } from "../db/sql-values";
import { GuardFailed, writeBatch, type BatchStatement } from "../db/write-batch";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import { convertMinor } from "../money/exchange-rates";
import type { Supplier, TicketingAnswer } from "../supplier/supplier";
import { walletChange } from "../wallet/wallet-change";
import { orderEvent, type OrderEvent } from "../events/order-events";
import { orderFrom, passengerFrom, type Order, type OrderDocument, type OrderPassenger } from "./order";
import type { OrderChanges } from "./order-changes";
import type { ClaimedJob, OrderJobQueue } from "./order-job-queue";
import { ORDER_GUARD, transition } from "./order-state-machine";
import { refundAmount } from "./refund-rules";
import { supplierBooking } from "./supplier-booking";
import { clock } from "../clock";

interface JobSubject {
  order: Order;
  passengers: OrderPassenger[];
  environment: "sandbox" | "live";
}

/**
 * Does one claimed job: asks the airline, then applies its answer in one transaction with the
 * order's transition, the money that moves with it, and the job's removal. The transition is a
 * compare-and-set, and the ledger takes each (order, entry type) once, so a job that runs twice
 * (its process died after the airline answered, before the commit) ends the order once and
 * moves money once; the airline answers the same booking the same way every time.
 */
export class OrderJobRunner {
  constructor(
    private readonly db: Database,
    private readonly supplier: Supplier,
    private readonly queue: OrderJobQueue,
    private readonly changes: OrderChanges,
  ) {}

  async run(job: ClaimedJob): Promise<void> {
    const subject = await this.load(job);
    // The order is gone (its tenant was deleted): the job went with it.
    if (!subject) return;
    if (job.kind === "ticket") await this.ticket(job, subject);
    else await this.refund(job, subject);
  }

  /** PROCESSING → TICKETED with e-tickets, or → FAILED with the debit reversed (the airline released the seats). */
  private async ticket(job: ClaimedJob, { order, passengers, environment }: JobSubject): Promise<void> {
    if (order.status !== "PROCESSING") return this.finish(job, order, []);
    const answer = await this.supplier.issueTickets(supplierBooking(order, passengers, environment));
    const now = clock.now();
    if (answer.outcome === "ticketed") {
      const documents = this.documents(order, answer, now);
      return this.finish(job, order, [transition(this.db, order, "ticketed", now), ...documents.map((document) => this.insertDocument(order, document))], orderEvent(order, now, { type: "order.ticketed", documents }));
    }
    const reversal = await this.reversalOf(order);
    const failed = transition(this.db, order, "fail", now, Sql.sql`, "failureReason" = ${answer.reason}`);
    const credit = reversal ? walletChange(this.db, { tenantId: order.tenantId, type: "ticketing_reversal", ...reversal, orderId: order.id, at: now }).statements : [];
    return this.finish(job, order, [failed, ...credit], orderEvent(order, now, { type: "order.failed", failureReason: answer.reason, paymentReversed: reversal !== null }));
  }

  /** TICKETED (refund asked) → REFUNDED: the airline refunds, the wallet gets the fare back less the penalty. */
  private async refund(job: ClaimedJob, { order }: JobSubject): Promise<void> {
    if (order.status !== "TICKETED" || order.refundRequestedAt === null) return this.finish(job, order, []);
    await this.supplier.refundTickets(order.id);
    const walletCurrency = await this.walletCurrency(order.tenantId);
    const now = clock.now();
    const amount = convertMinor(refundAmount(order), order.currency, walletCurrency);
    return this.finish(
      job,
      order,
      [
        transition(this.db, order, "refund", now),
        ...walletChange(this.db, { tenantId: order.tenantId, type: "refund_credit", amount, currency: walletCurrency, orderId: order.id, at: now }).statements,
      ],
      orderEvent(order, now, { type: "order.refunded", refundAmount: amount, refundCurrency: walletCurrency }),
    );
  }

  /**
   * Applies a job's outcome to the order and removes the job, atomically. If the order moved on
   * meanwhile (another run finished it), only the job is removed. Any other failure leaves the
   * job leased: it runs again when the lease is over.
   */
  private async finish(job: ClaimedJob, order: Order, statements: BatchStatement[], event?: OrderEvent): Promise<void> {
    try {
      if (statements.length === 0) await writeBatch(this.db, [this.queue.done(job.id)]);
      else await this.changes.commit([order], [...statements, this.queue.done(job.id)], event ? [event] : []);
    } catch (error) {
      if (!(error instanceof GuardFailed && error.guard === ORDER_GUARD)) throw error;
      await writeBatch(this.db, [this.queue.done(job.id)]);
    }
  }

  /** One e-ticket per ticket the airline issued. */
  private documents(order: Order, answer: Extract<TicketingAnswer, { outcome: "ticketed" }>, at: Date): OrderDocument[] {
    return answer.tickets.map((ticket) => ({
      id: newId("doc", at.getTime()),
      orderId: order.id,
      passengerId: ticket.passengerId,
      type: "electronic_ticket",
      uniqueIdentifier: ticket.number,
      createdAt: at,
    }));
  }

  private insertDocument(order: Order, document: OrderDocument): Sql.Sql {
    return Sql.sql`INSERT INTO "OrderDocument" ("id", "orderId", "tenantId", "passengerId", "type", "uniqueIdentifier", "createdAt")
      VALUES (${document.id}, ${order.id}, ${order.tenantId}, ${document.passengerId}, ${document.type}, ${document.uniqueIdentifier}, ${sqlTimestamp(this.db.provider, document.createdAt)})`;
  }

  /** What gives the ticketing debit back, in the wallet's currency now; null if nothing was debited. */
  private async reversalOf(order: Order): Promise<{ amount: number; currency: string } | null> {
    const [debit] = await queryRows<{ amount: number; currency: string; walletCurrency: string }>(
      this.db,
      Sql.sql`SELECT "LedgerEntry"."amount", "LedgerEntry"."currency", "Wallet"."currency" AS "walletCurrency"
        FROM "LedgerEntry" JOIN "Wallet" ON "Wallet"."tenantId" = "LedgerEntry"."tenantId"
        WHERE "LedgerEntry"."orderId" = ${order.id} AND "LedgerEntry"."type" = 'ticketing_debit'`,
    );
    if (!debit) return null;
    return { amount: convertMinor(-debit.amount, debit.currency, debit.walletCurrency), currency: debit.walletCurrency };
  }

  private async walletCurrency(tenantId: string): Promise<string> {
    const wallet = await this.db.prisma.wallet.findUniqueOrThrow({ where: { tenantId }, select: { currency: true } });
    return wallet.currency;
  }

  private async load(job: ClaimedJob): Promise<JobSubject | null> {
    const row = await this.db.prisma.order.findFirst({
      where: { id: job.orderId, tenantId: job.tenantId },
      include: { passengers: { orderBy: { position: "asc" } }, tenant: { select: { environment: true } } },
    });
    if (!row) return null;
    return { order: orderFrom(row), passengers: row.passengers.map(passengerFrom), environment: row.tenant.environment };
  }
}
