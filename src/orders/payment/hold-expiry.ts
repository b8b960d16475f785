import type { Database } from "../../db/database";
import { GuardFailed, writeBatch } from "../../db/write-batch";
import { orderEvent } from "../presentation/order-event-payload";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { tenantClock, type TenantClock } from "../../tenancy/tenant-clock";
import { orderFrom, type Order } from "../core/order";
import { awaitsPayment } from "../core/order-actions";
import type { OrderCommits } from "../core/order-commits";
import { JOB_LEASE_GUARD, type ClaimedJob, type OrderJobQueue } from "../jobs/order-job-queue";
import type { JobResult } from "../jobs/order-job-runner";
import { ORDER_GUARD, transitionAll } from "../core/order-state-machine";
import type { Environment } from "../../gateway/contract/air";
import type { IntentCalls } from "../recovery/intent-calls";

const REASON = "payment_deadline_passed";

/**
 * Unpaid holds cancelled at their payment deadlines (docs/rest-api.md#holds-and-payments), the `payment_deadline` jobs of
 * one claim together: one read of their orders and one transaction for all (the jobs deleted
 * under their lease, the orders still PENDING moved to CANCELED with their seats owed back and
 * their `order.cancelled` events), a few statements for the whole batch, so a flood of deadlines
 * (ten thousand in a minute) costs a few round trips per hundred holds. Every write is still a
 * guarded compare-and-set, each statement on every row it names: should one fail (a hold paid at
 * its deadline, a lease taken over), the whole transaction is undone and the jobs run again one
 * per transaction, so each race decides only its own order, and no hold is both paid and
 * cancelled. A job's lease is not renewed: a batch is the database's work alone, far shorter than
 * a lease, and a lease lost meanwhile only fails the batch's guard.
 */
export class HoldExpiry {
  constructor(
    private readonly db: Database,
    private readonly queue: OrderJobQueue,
    private readonly commits: OrderCommits,
    /** Bookings given back from a commit on (recovery/intent-calls.ts), settled by the reconciler after a crash. */
    private readonly calls: IntentCalls,
  ) {}

  /** Runs `jobs` (payment_deadline jobs of one claim, so of one lease); how each ended, in their order. */
  async expire(jobs: readonly ClaimedJob[]): Promise<JobResult[]> {
    if (jobs.length === 0) return [];
    const orders = await this.ordersOf(jobs);
    const finished: ClaimedJob[] = [];
    const cancelled: Order[] = [];
    const results = jobs.map((job): JobResult => {
      const order = orders.get(job.orderId)?.order;
      // The order is gone (its tenant was deleted): the job went with it.
      if (!order || order.tenantId !== job.tenantId) return "superseded";
      finished.push(job);
      // Paid or cancelled meanwhile: only the job goes.
      if (!awaitsPayment(order)) return "superseded";
      cancelled.push(order);
      return "applied";
    });
    try {
      // One statement a kind for the whole batch, each guarded on every row it must change.
      const done = finished.length > 0 ? [this.queue.doneAll(finished.map((job) => job.id), finished[0]!.lease)] : [];
      if (cancelled.length > 0) {
        // Each order is cancelled at its tenant's time (one statement per clock: almost always one).
        const byClock = new Map<number, Order[]>();
        for (const order of cancelled) {
          const offset = orders.get(order.id)!.clock.offsetMs;
          const group = byClock.get(offset);
          if (group) group.push(order);
          else byClock.set(offset, [order]);
        }
        const cancels = [...byClock.values()].map((group) => ({ group, now: orders.get(group[0]!.id)!.clock.now() }));
        const statements = cancels.map(({ group, now }) => transitionAll(this.db, group, "cancel", now, Sql.sql`, "cancellationReason" = ${REASON}`));
        const events = cancels.flatMap(({ group, now }) => group.map((order) => orderEvent(order, now, { type: "order.cancelled", cancellationReason: REASON })));
        await this.commits.commit(cancelled, [...done, ...statements, this.calls.intents.releaseOwedAll(cancelled)], events);
      } else if (done.length > 0) {
        await writeBatch(this.db, done);
      }
    } catch (error) {
      if (!(error instanceof GuardFailed)) throw error;
      if (jobs.length > 1) return (await Promise.all(jobs.map((job) => this.expire([job])))).flat();
      if (error.guard === JOB_LEASE_GUARD) return ["lease_lost"];
      if (error.guard !== ORDER_GUARD) throw error;
      // The order moved on between the read and the commit: read again, and only the job goes.
      return this.expire(jobs);
    }
    // The bookings go back after the commit, as a cancellation's do; a crash in between leaves the
    // release intents to the reconciler.
    await this.calls.release(...cancelled.map((order) => ({ id: order.id, tenantId: order.tenantId, environment: orders.get(order.id)!.environment })));
    return results;
  }

  /** The jobs' orders, each with its tenant's clock (read here, not from a cache: a sandbox clock just moved ahead is what made the job due). */
  private async ordersOf(jobs: readonly ClaimedJob[]): Promise<Map<string, { order: Order; clock: TenantClock; environment: Environment }>> {
    const rows = await this.db.prisma.order.findMany({ where: { id: { in: jobs.map((job) => job.orderId) } }, include: { tenant: { select: { clockOffsetSeconds: true, environment: true } } } });
    return new Map(rows.map(({ tenant, ...row }) => [row.id, { order: orderFrom(row), clock: tenantClock(tenant), environment: tenant.environment }]));
  }
}
