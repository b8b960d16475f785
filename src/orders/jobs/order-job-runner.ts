import { airlineCreditsOf, insertAirlineCredit } from "../credits/airline-credits";
import type { Database } from "../../db/database";
import { queryRows } from "../../db/query-rows";
import { sqlTimestamp } from "../../db/sql-values";
import type { LeaseHeartbeat } from "../../db/lease-heartbeat";
import { GuardFailed, writeBatch, type BatchStatement } from "../../db/write-batch";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { newId } from "../../ids";
import { convertMinor } from "../../money/exchange-rates";
import { refundedFee } from "../cancellation/refund-rules";
import type { Environment } from "../../gateway/contract/air";
import type { OrderSuppliers } from "../../gateway/contract/gateway";
import type { TicketingAnswer } from "../../gateway/contract/bookings";
import { walletChange } from "../../wallet/wallet-change";
import type { OrderEvent } from "../../events/order-events";
import { orderEvent } from "../presentation/order-event-payload";
import { orderFrom, passengerFrom, type Order, type OrderDocument, type OrderPassenger, type OrderRecord, type PassengerRecord } from "../core/order";
import { awaitsConfirmation, awaitsTicketing, isRefunding, isTicketed } from "../core/order-actions";
import type { OrderCommits } from "../core/order-commits";
import { JOB_LEASE_GUARD, type AirlineJobKind, type ClaimedJob, type OrderJobQueue } from "./order-job-queue";
import { ORDER_GUARD, touchIn, transition } from "../core/order-state-machine";
import type { IntentCalls } from "../recovery/intent-calls";
import { supplierBooking } from "../core/supplier-booking";
import { insertDocument } from "../core/order-rows";
import type { TicketReissue } from "./ticket-reissue";
import { tenantClock, type TenantClock } from "../../tenancy/tenant-clock";
import { noPause, type TestPause } from "../../test-pause";
import { nextTicketingRead } from "./ticketing-backoff";

interface JobSubject {
  order: Order;
  passengers: OrderPassenger[];
  environment: Environment;
  /** The tenant's clock, read with the order: what the outcome is dated on (tenancy/tenant-clock.ts). */
  clock: TenantClock;
}

/**
 * How a run ended: its outcome written (`applied`); the order had moved on, so only the job was
 * removed (`superseded`); nothing written, because the job's lease was lost meanwhile and
 * whoever holds it now finishes the job (`lease_lost`); the supplier not finished yet, so the job
 * is due again later (`later`), or, past the longest wait, removed with the order left as it is
 * (`abandoned`).
 */
export type JobResult = "applied" | "superseded" | "lease_lost" | "later" | "abandoned";

/** The condition of a confirmation's write: the order has no booking reference yet. */
const UNCONFIRMED = Sql.sql`AND "bookingReference" = ''`;

/** The document type of an EMD. */
const EMD = "electronic_miscellaneous_document";

/** Why an order failed when its ticketing job was claimed more than `JOB_MAX_ATTEMPTS` times. */
export const ATTEMPTS_EXHAUSTED = "ticketing_attempts_exhausted";

/**
 * Does one claimed job: asks the airline, then applies its answer in one transaction with the
 * order's transition, the money that moves with it, and the job's removal. The transition is a
 * compare-and-set, and the ledger takes each (order, entry type) once, so a job that runs twice
 * (its process died after the airline answered, before the commit) ends the order once and
 * moves money once; the airline answers the same booking the same way every time. Every write
 * of an outcome is fenced on the job's lease (kept renewed while the airline is asked), so a run
 * whose lease was taken over by another process commits nothing, whatever the airline told it.
 */
export class OrderJobRunner {
  constructor(
    private readonly db: Database,
    /** Each order's supplier: ticketing, refunds and EMDs are asked of it. */
    private readonly suppliers: OrderSuppliers,
    private readonly queue: OrderJobQueue,
    private readonly commits: OrderCommits,
    /** Claims a job may have; the next claim gives it up (`giveUp`). */
    private readonly maxAttempts: number,
    /** Bookings given back from a commit on (recovery/intent-calls.ts), settled by the reconciler after a crash. */
    private readonly calls: IntentCalls,
    /** The airline's reissue of e-tickets after a confirmed order change (the `reissue` job). */
    private readonly reissue: TicketReissue,
    /** TEST ONLY (AEROGATE_TEST_PAUSE_AT): stops a job inside a crash window. */
    private readonly pause: TestPause = noPause,
  ) {}

  /** Runs `job`, whose lease `lease` keeps renewed until the run writes its outcome. */
  async run(job: ClaimedJob<AirlineJobKind>, lease: LeaseHeartbeat): Promise<JobResult> {
    const subject = await this.load(job);
    // The order is gone (its tenant was deleted): the job went with it.
    if (!subject) return "superseded";
    // The services are paid and their EMDs owed: the job runs until the airline has issued them.
    if (job.kind === "emd") return this.issueEmds(job, lease, subject);
    // The change is paid and the airline answers a reissue the same every time: it runs until done.
    if (job.kind === "reissue") return this.reissueTickets(job, lease, subject);
    if (job.attempts > this.maxAttempts) return this.giveUp(job, lease, subject);
    if (job.kind === "confirm_booking") return this.confirmBooking(job, lease, subject);
    if (job.kind === "ticket") return this.ticket(job, lease, subject);
    return this.refund(job, lease, subject);
  }

  /** PROCESSING → TICKETED with e-tickets, or → FAILED with the debit reversed (the airline released the seats). */
  private async ticket(job: ClaimedJob, lease: LeaseHeartbeat, { order, passengers, environment, clock }: JobSubject): Promise<JobResult> {
    if (!awaitsTicketing(order)) return this.finish(job, lease, order, []);
    const answer = await this.suppliers.supplierOf(order.offer.payload).issueTickets(supplierBooking(order, passengers, environment));
    await this.pause("after_airline_ticketing", { orderId: order.id });
    const now = clock.now();
    if (answer.outcome === "rejected") return this.fail(job, lease, order, answer.reason, now);
    if (answer.outcome === "pending") return this.askAgainLater(job, lease, order, now);
    const documents = this.documents(order, answer, now);
    // A supplier that books only when paid (an offer it could not hold) gives its reference now.
    const reference = answer.bookingReference && answer.bookingReference !== order.bookingReference ? Sql.sql`, "bookingReference" = ${answer.bookingReference}` : Sql.empty;
    return this.finish(job, lease, order, [transition(this.db, order, "ticketed", now, reference), ...documents.map((document) => insertDocument(this.db, order, document))], orderEvent(order, now, { type: "order.ticketed", documents }));
  }

  /**
   * A booking the supplier took without confirming it (order-actions.ts `awaitsConfirmation`), read
   * again: confirmed (held, with its reference), the order keeps PENDING with the reference, and the
   * supplier's deadline for the hold when it is earlier than ours (its `payment_deadline` job moved
   * with it); gone (none, or cancelled), PENDING → FAILED (`airline_rejected`: nothing was paid) and
   * the booking given back as a failed ticketing's is; neither yet, read again later. An order no
   * longer waiting (cancelled meanwhile) only ends the job.
   */
  private async confirmBooking(job: ClaimedJob, lease: LeaseHeartbeat, { order, environment, clock }: JobSubject): Promise<JobResult> {
    if (!awaitsConfirmation(order)) return this.finish(job, lease, order, []);
    const booked = await this.suppliers.supplierOf(order.offer.payload).readOrder({ id: order.id, tenantId: order.tenantId, environment });
    const now = clock.now();
    if (booked?.status === "held" && booked.bookingReference) {
      // The supplier's deadline is real time; on a tenant's clock moved ahead it is as far ahead.
      const supplierDeadline = booked.paymentRequiredBy ? new Date(booked.paymentRequiredBy.getTime() + clock.offsetMs) : null;
      const earlier = supplierDeadline && order.paymentRequiredBy && supplierDeadline < order.paymentRequiredBy ? supplierDeadline : null;
      const reference = Sql.sql`, "bookingReference" = ${booked.bookingReference}`;
      const statements = earlier
        ? [touchIn(this.db, order, "PENDING", now, Sql.sql`${reference}, "paymentRequiredBy" = ${sqlTimestamp(this.db.provider, earlier)}`, UNCONFIRMED), this.queue.reschedule(order, "payment_deadline", clock.toProcess(earlier))]
        : [touchIn(this.db, order, "PENDING", now, reference, UNCONFIRMED)];
      return this.finish(job, lease, order, statements);
    }
    if (booked !== null && booked.status !== "cancelled") return this.askAgainLater(job, lease, order, now);
    const reason = "airline_rejected";
    const failed = transition(this.db, order, "bookingFailed", now, Sql.sql`, "failureReason" = ${reason}`);
    const result = await this.finish(job, lease, order, [failed, this.calls.intents.releaseOwed(order)], orderEvent(order, now, { type: "order.failed", failureReason: reason, paymentReversed: false }));
    if (result === "applied") await this.calls.release({ id: order.id, tenantId: order.tenantId, environment });
    return result;
  }

  /**
   * The supplier has the ticketing in hand but not finished (its tickets not issued yet): the job
   * is asked again later (ticketing-backoff.ts), the order staying PROCESSING, its attempt given
   * back. Past the longest wait it is asked no more: the order stays PROCESSING for an operator
   * (the supplier has been paid; failing it would give back a debit for a fare it holds).
   */
  private async askAgainLater(job: ClaimedJob, lease: LeaseHeartbeat, order: Order, now: Date): Promise<JobResult> {
    const next = nextTicketingRead(job.createdAt, now);
    if (!next) {
      const result = await this.finish(job, lease, order, []);
      return result === "superseded" ? "abandoned" : result;
    }
    const held = await lease.end();
    if (!held) return "lease_lost";
    try {
      await writeBatch(this.db, [this.queue.later(job.id, held, next)]);
    } catch (error) {
      if (error instanceof GuardFailed && error.guard === JOB_LEASE_GUARD) return "lease_lost";
      throw error;
    }
    return "later";
  }

  /** PROCESSING → FAILED for `reason`, with the ticketing debit reversed (and `also` in the same transaction). */
  private async fail(job: ClaimedJob, lease: LeaseHeartbeat, order: Order, reason: string, now: Date, also: BatchStatement[] = []): Promise<JobResult> {
    const reversal = await this.reversalOf(order);
    const failed = transition(this.db, order, "fail", now, Sql.sql`, "failureReason" = ${reason}`);
    const credit = reversal ? walletChange(this.db, { tenantId: order.tenantId, type: "ticketing_reversal", ...reversal, orderId: order.id, at: now }).statements : [];
    return this.finish(job, lease, order, [failed, ...credit, ...also], orderEvent(order, now, { type: "order.failed", failureReason: reason, paymentReversed: reversal !== null }));
  }

  /**
   * A job claimed more than `maxAttempts` times (its runs kept failing, or their processes kept
   * dying or stalling past the lease) is not tried again. A ticketing fails the order
   * (`ticketing_attempts_exhausted`) with the debit reversed and the seats released; a refund is
   * withdrawn: the order stays TICKETED, no longer refunding, and the tenant may ask again.
   */
  private async giveUp(job: ClaimedJob, lease: LeaseHeartbeat, { order, environment, clock }: JobSubject): Promise<JobResult> {
    const now = clock.now();
    if (job.kind === "refund") {
      if (!isRefunding(order)) return this.finish(job, lease, order, []);
      return this.finish(job, lease, order, [touchIn(this.db, order, "TICKETED", now, Sql.sql`, "refundRequestedAt" = NULL`, Sql.sql`AND "refundRequestedAt" IS NOT NULL`)]);
    }
    if (!awaitsTicketing(order)) return this.finish(job, lease, order, []);
    // The release is owed from the failure's commit on (a seat intent in the same transaction), and
    // done only then: until then another run may still ticket these seats. A process dying in
    // between leaves the intent to the seat reconciler.
    const result = await this.fail(job, lease, order, ATTEMPTS_EXHAUSTED, now, [this.calls.intents.releaseOwed(order)]);
    if (result === "applied") {
      await this.calls.release({ id: order.id, tenantId: order.tenantId, environment });
    }
    return result;
  }

  /** TICKETED (refund asked) → REFUNDED: the airline refunds, the wallet gets back what the confirmed quote said (of it, the fee alone when the supplier settles the fare). */
  private async refund(job: ClaimedJob, lease: LeaseHeartbeat, { order, passengers, environment, clock }: JobSubject): Promise<JobResult> {
    if (!isRefunding(order)) return this.finish(job, lease, order, []);
    const { quoted, walletCurrency, supplierReference } = await this.refundOwed(order);
    const outcome = await this.suppliers.supplierOf(order.offer.payload).refundTickets(supplierBooking(order, passengers, environment), supplierReference);
    await this.pause("after_airline_refund", { orderId: order.id });
    const now = clock.now();
    const credits = airlineCreditsOf(order, outcome?.airlineCredits ?? [], now);
    // The fare's refund is cash in the wallet only when the wallet paid it and the airline gave money,
    // not credits; else the wallet gets back only the fee it paid, if refundable.
    const amount = order.settlement === "wallet" && credits.length === 0 ? convertMinor(quoted, order.currency, walletCurrency) : refundedFeeIn(order, quoted, walletCurrency);
    return this.finish(
      job,
      lease,
      order,
      [
        transition(this.db, order, "refund", now),
        ...walletChange(this.db, { tenantId: order.tenantId, type: "refund_credit", amount, currency: walletCurrency, orderId: order.id, feeAmount: refundedFeeIn(order, quoted, walletCurrency), at: now }).statements,
        ...credits.map((credit) => insertAirlineCredit(this.db, credit)),
      ],
      [orderEvent(order, now, { type: "order.refunded", refundAmount: amount, refundCurrency: walletCurrency }), ...credits.map((credit) => orderEvent(order, now, { type: "airline_credit.created", credit }))],
    );
  }

  /**
   * The EMDs owed for services paid on the TICKETED order that have none yet (each service's
   * document id was chosen when it was paid): the airline numbers them, and they are written
   * with the order touched, the documents' ids making each one's insert possible once. Services
   * paid while this run was under way queue the job again (`requeue`): this run's lease is then
   * gone, it writes nothing, and the next run issues every EMD owed. Once the order is no longer
   * TICKETED (refunded), none is issued.
   */
  private async issueEmds(job: ClaimedJob, lease: LeaseHeartbeat, { order, passengers, environment, clock }: JobSubject): Promise<JobResult> {
    if (!isTicketed(order)) return this.finish(job, lease, order, []);
    const issued = await this.db.prisma.orderDocument.findMany({ where: { orderId: order.id, tenantId: order.tenantId, type: EMD }, select: { id: true } });
    const issuedIds = new Set(issued.map((document) => document.id));
    const owed = order.services.flatMap((service) => (service.emdId === undefined || issuedIds.has(service.emdId) ? [] : [{ ...service, emdId: service.emdId }]));
    if (owed.length === 0) return this.finish(job, lease, order, []);
    const emds = await this.suppliers.require(order.offer.payload, "services", "EMDs for services", "order").issueEmds(
      supplierBooking(order, passengers, environment),
      owed.map((service) => ({ reference: service.emdId, passengerId: service.passengerIds[0]!, type: service.type })),
    );
    await this.pause("after_emd_issue", { orderId: order.id });
    const now = clock.now();
    const numbers = new Map(emds.map((emd) => [emd.reference, emd.number]));
    const documents = owed.map(
      (service): OrderDocument => ({ id: service.emdId, orderId: order.id, passengerId: service.passengerIds[0]!, type: EMD, uniqueIdentifier: numbers.get(service.emdId)!, createdAt: now }),
    );
    return this.finish(job, lease, order, [touchIn(this.db, order, "TICKETED", now), ...documents.map((document) => insertDocument(this.db, order, document))]);
  }

  /** A TICKETED order's e-tickets reissued for its slices as changed (ticket-reissue.ts); none once it is no longer TICKETED. */
  private async reissueTickets(job: ClaimedJob, lease: LeaseHeartbeat, { order, passengers, environment, clock }: JobSubject): Promise<JobResult> {
    if (!isTicketed(order)) return this.finish(job, lease, order, []);
    const outcome = await this.reissue.outcome(order, passengers, environment, clock.now());
    await this.pause("after_airline_reissue", { orderId: order.id });
    return this.finish(job, lease, order, outcome);
  }

  /**
   * Applies a job's outcome to the order and removes the job, atomically, only if this process
   * still holds the job's lease (the renewals end first). If the order moved on meanwhile
   * (another run finished it), only the job is removed. Any other failure leaves the job leased:
   * it runs again when the lease is over.
   */
  private async finish(job: ClaimedJob, lease: LeaseHeartbeat, order: Order, statements: BatchStatement[], event?: OrderEvent | OrderEvent[]): Promise<JobResult> {
    const held = await lease.end();
    if (!held) return "lease_lost";
    const done = this.queue.done(job.id, held);
    try {
      if (statements.length === 0) {
        await writeBatch(this.db, [done]);
        return "superseded";
      }
      await this.commits.commit([order], [done, ...statements], event === undefined ? [] : [event].flat());
      return "applied";
    } catch (error) {
      if (!(error instanceof GuardFailed)) throw error;
      if (error.guard === JOB_LEASE_GUARD) return "lease_lost";
      if (error.guard !== ORDER_GUARD) throw error;
    }
    return this.finish(job, lease, order, []);
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


  /** What gives the ticketing debit back (its fee with it), in the wallet's currency now; null if nothing was debited. */
  private async reversalOf(order: Order): Promise<{ amount: number; currency: string; feeAmount: number } | null> {
    const [debit] = await queryRows<{ amount: number; feeAmount: number; currency: string; walletCurrency: string }>(
      this.db,
      Sql.sql`SELECT "LedgerEntry"."amount", "LedgerEntry"."feeAmount", "LedgerEntry"."currency", "Wallet"."currency" AS "walletCurrency"
        FROM "LedgerEntry" JOIN "Wallet" ON "Wallet"."tenantId" = "LedgerEntry"."tenantId"
        WHERE "LedgerEntry"."orderId" = ${order.id} AND "LedgerEntry"."type" = 'ticketing_debit'`,
    );
    if (!debit) return null;
    const inWallet = (amount: number) => convertMinor(Number(amount), debit.currency, debit.walletCurrency);
    return { amount: inWallet(-debit.amount), currency: debit.walletCurrency, feeAmount: inWallet(debit.feeAmount) };
  }

  /**
   * The refund the order's latest confirmed cancellation quoted (the refund action writes one
   * too), in the order's currency, the supplier's own quote it repeats (if any), and the wallet's
   * currency now. One read.
   */
  private async refundOwed(order: Order): Promise<{ quoted: number; walletCurrency: string; supplierReference: string | null }> {
    const [row] = await queryRows<{ quoted: number | null; supplierReference: string | null; walletCurrency: string }>(
      this.db,
      Sql.sql`SELECT (SELECT "refundAmount" FROM "OrderCancellation"
          WHERE "orderId" = ${order.id} AND "tenantId" = ${order.tenantId} AND "confirmedAt" IS NOT NULL
          ORDER BY "confirmedAt" DESC LIMIT 1) AS "quoted",
        (SELECT "supplierReference" FROM "OrderCancellation"
          WHERE "orderId" = ${order.id} AND "tenantId" = ${order.tenantId} AND "confirmedAt" IS NOT NULL
          ORDER BY "confirmedAt" DESC LIMIT 1) AS "supplierReference", "currency" AS "walletCurrency"
        FROM "Wallet" WHERE "tenantId" = ${order.tenantId}`,
    );
    if (!row) throw new Error(`tenant ${order.tenantId} has no wallet`);
    if (row.quoted === null) throw new Error(`order ${order.id} is refunding without a confirmed cancellation`);
    return { quoted: row.quoted, walletCurrency: row.walletCurrency, supplierReference: row.supplierReference };
  }

  /**
   * The job's order, its passengers, its tenant's environment and clock (read here, not from a
   * cache: a sandbox clock just moved ahead is what made the job due): two raw prepared reads
   * (Prisma's one call with its includes cost ~1 ms of CPU a job).
   */
  private async load(job: ClaimedJob): Promise<JobSubject | null> {
    const [row] = await queryRows<OrderRecord & { environment: JobSubject["environment"]; clockOffsetSeconds: number }>(
      this.db,
      Sql.sql`SELECT "Order".*, "Tenant"."environment" AS "environment", "Tenant"."clockOffsetSeconds" AS "clockOffsetSeconds"
        FROM "Order" JOIN "Tenant" ON "Tenant"."id" = "Order"."tenantId"
        WHERE "Order"."id" = ${job.orderId} AND "Order"."tenantId" = ${job.tenantId}`,
    );
    if (!row) return null;
    const passengers = await queryRows<PassengerRecord>(this.db, Sql.sql`SELECT * FROM "OrderPassenger" WHERE "orderId" = ${job.orderId} ORDER BY "position"`);
    return { order: orderFrom(row), passengers: passengers.map(passengerFrom), environment: row.environment, clock: tenantClock(row) };
  }
}

/** The fee a refund of `quoted` (the order's currency) gives back, in the wallet's currency: its rule's refundable fee, never more than the refund. */
function refundedFeeIn(order: Order, quoted: number, walletCurrency: string): number {
  return convertMinor(Math.min(refundedFee(order), quoted), order.currency, walletCurrency);
}
