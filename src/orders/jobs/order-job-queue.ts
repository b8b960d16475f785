import type { Database } from "../../db/database";
import { queryRows } from "../../db/query-rows";
import { sqlEnum } from "../../db/sql-enum";
import { dateFrom, sqlTimestamp } from "../../db/sql-values";
import { claimLeased, leaseEnd, releaseAllLeases, renewLease, sameLease } from "../../db/leases";
import { LeaseHeartbeat } from "../../db/lease-heartbeat";
import { guarded, writeBatch, type GuardedStatement } from "../../db/write-batch";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { newId } from "../../ids";
import { clock } from "../../clock";

/**
 * Airline work (ticketing, refunds, EMDs for services added to a ticketed order, bookings the
 * airline has still to confirm), and the
 * cancellation of an unpaid hold at its deadline (payment/hold-deadline.ts).
 */
export const ORDER_JOB_KINDS = ["ticket", "refund", "payment_deadline", "emd", "reissue", "confirm_booking"] as const;
export type OrderJobKind = (typeof ORDER_JOB_KINDS)[number];
/** The jobs that ask the airline, each run on its own (job-worker.ts); a hold's deadline is run in batches (hold-expiry.ts). */
export type AirlineJobKind = Exclude<OrderJobKind, "payment_deadline">;
export const AIRLINE_JOB_KINDS = ORDER_JOB_KINDS.filter((kind): kind is AirlineJobKind => kind !== "payment_deadline");

/** The guard of a job's finishing write: it fails when this process no longer holds the job's lease. */
export const JOB_LEASE_GUARD = "order-job-lease";

export interface ClaimedJob<Kind extends OrderJobKind = OrderJobKind> {
  id: string;
  orderId: string;
  tenantId: string;
  kind: Kind;
  runAt: Date;
  /** Claims so far, this one included. */
  attempts: number;
  /** When the job was first queued. */
  createdAt: Date;
  /** When the claim's lease ends: its token (renewals replace it, see `keepLeased`). */
  lease: Date;
}

/**
 * The durable queue of airline work (OrderJob rows). A job is queued in the same transaction as
 * the order change that needs it, so it exists exactly when the change committed; it is
 * finished (deleted) in the same transaction as the change its outcome makes. A claim leases
 * the job: if the process dies, the job is claimed again once the lease is over, by this
 * process after a restart or by any other process on the same PostgreSQL. While the job runs,
 * its lease is renewed (`keepLeased`), and its finish is written only under the lease it holds,
 * so a job is never finished by a process that lost it.
 */
export class OrderJobQueue {
  constructor(
    private readonly db: Database,
    private readonly leaseMs: number,
  ) {}

  /** Queues `kind` for the order, due at `runAt`: a statement for the batch that makes it due. */
  enqueue(order: { id: string; tenantId: string }, kind: OrderJobKind, runAt: Date, at: Date): Sql.Sql {
    const { provider } = this.db;
    return Sql.sql`INSERT INTO "OrderJob" ("id", "orderId", "tenantId", "kind", "runAt", "attempts", "createdAt")
      VALUES (${newId("job", at.getTime())}, ${order.id}, ${order.tenantId}, ${sqlEnum(provider, "OrderJobKind", kind)},
        ${sqlTimestamp(provider, runAt)}, 0, ${sqlTimestamp(provider, at)})`;
  }

  /**
   * Queues `kind` for the order, due at `runAt`, or queues it again if it is queued already: the
   * job (one per order and kind) is then due at `runAt` and unleased, so a run already under way
   * finishes nothing (its lease is gone, see `done`) and the next run does the work as it stands
   * after this batch's commit. For work that grows while it waits (EMDs of services added since).
   */
  requeue(order: { id: string; tenantId: string }, kind: OrderJobKind, runAt: Date, at: Date): Sql.Sql {
    return Sql.sql`${this.enqueue(order, kind, runAt, at)}
      ON CONFLICT ("orderId", "kind") DO UPDATE SET "runAt" = excluded."runAt", "lockedUntil" = NULL`;
  }

  /** Moves the order's `kind` job, if queued, to `runAt` (a statement for the batch that moves it). */
  reschedule(order: { id: string; tenantId: string }, kind: OrderJobKind, runAt: Date): Sql.Sql {
    const { provider } = this.db;
    return Sql.sql`UPDATE "OrderJob" SET "runAt" = ${sqlTimestamp(provider, runAt)}
      WHERE "orderId" = ${order.id} AND "tenantId" = ${order.tenantId} AND "kind" = ${sqlEnum(provider, "OrderJobKind", kind)}`;
  }

  /**
   * Removes a finished job, if `lease` is still its lease: the guard of the batch that applies
   * its outcome (GuardFailed `JOB_LEASE_GUARD` otherwise, and nothing of the batch is written).
   */
  done(jobId: string, lease: Date): GuardedStatement {
    return this.doneAll([jobId], lease);
  }

  /** `done` for the jobs of one claim (one lease) in one statement: every one must still hold it. */
  doneAll(jobIds: readonly string[], lease: Date): GuardedStatement {
    return guarded(Sql.sql`DELETE FROM "OrderJob" WHERE "id" IN (${Sql.join(jobIds)}) AND ${sameLease(this.db.provider, lease)}`, JOB_LEASE_GUARD, jobIds.length);
  }

  /** Renews `job`'s lease every third of it until the heartbeat is ended. */
  keepLeased(job: ClaimedJob, onError: (error: unknown) => void): LeaseHeartbeat {
    const renew = (lease: Date) => renewLease(this.db, "OrderJob", job.id, lease, { now: clock.now(), leaseMs: this.leaseMs });
    return new LeaseHeartbeat(job.lease, renew, this.leaseMs / 3, onError);
  }

  /** Claims up to `limit` due jobs of `kinds`, oldest due first, each leased to the caller (see `claimLeased`). */
  async claimDue<Kind extends OrderJobKind>(limit: number, kinds: readonly Kind[]): Promise<Array<ClaimedJob<Kind>>> {
    const now = clock.now();
    const { provider } = this.db;
    const rows = await claimLeased<{ id: string; orderId: string; tenantId: string; kind: Kind; runAt: unknown; attempts: number; createdAt: unknown }>(this.db, {
      table: "OrderJob",
      due: Sql.sql`"candidate"."runAt" <= ${sqlTimestamp(provider, now)} AND "candidate"."kind" IN (${Sql.join(kinds.map((kind) => sqlEnum(provider, "OrderJobKind", kind)))})`,
      orderBy: Sql.sql`"candidate"."runAt"`,
      limit,
      now,
      leaseMs: this.leaseMs,
      alsoSet: Sql.sql`"attempts" = "attempts" + 1`,
      returning: Sql.sql`"id", "orderId", "tenantId", "kind", "runAt", "attempts", "createdAt"`,
    });
    const lease = leaseEnd({ now, leaseMs: this.leaseMs });
    return rows.map((row) => ({ ...row, runAt: dateFrom(row.runAt), createdAt: dateFrom(row.createdAt), lease }));
  }

  /**
   * Gives back the jobs of one claim whose run a database fault cut short (unreachable, or no
   * room to write): each is unleased (claimable from `notBefore`, at once when null) and its
   * attempt is returned, since the job itself did not fail and JOB_MAX_ATTEMPTS is for jobs that
   * do. Only while `lease` is still theirs.
   */
  async retryLater(jobIds: readonly string[], lease: Date, notBefore: Date | null): Promise<void> {
    const { provider } = this.db;
    const until = notBefore ? sqlTimestamp(provider, notBefore) : Sql.sql`NULL`;
    await writeBatch(this.db, [
      Sql.sql`UPDATE "OrderJob" SET "lockedUntil" = ${until}, "attempts" = "attempts" - 1 WHERE "id" IN (${Sql.join(jobIds)}) AND ${sameLease(provider, lease)}`,
    ]);
  }

  /**
   * The job asked again at `runAt`, unleased, its attempt given back (the supplier did not fail:
   * it has not finished yet), if `lease` is still its lease: the guard of the batch.
   */
  later(jobId: string, lease: Date, runAt: Date): GuardedStatement {
    const { provider } = this.db;
    return guarded(
      Sql.sql`UPDATE "OrderJob" SET "runAt" = ${sqlTimestamp(provider, runAt)}, "lockedUntil" = NULL, "attempts" = "attempts" - 1 WHERE "id" = ${jobId} AND ${sameLease(provider, lease)}`,
      JOB_LEASE_GUARD,
    );
  }

  /**
   * The order's job of `kind` waiting for a later run (due later, not running) is due now; returns
   * when, or null when there is no such job (none, or one running: it reads the latest itself).
   */
  async runNow(orderId: string, kind: OrderJobKind): Promise<Date | null> {
    const now = clock.now();
    const { provider } = this.db;
    const at = sqlTimestamp(provider, now);
    const counts = await writeBatch(this.db, [
      Sql.sql`UPDATE "OrderJob" SET "runAt" = ${at} WHERE "orderId" = ${orderId} AND "kind" = ${sqlEnum(provider, "OrderJobKind", kind)} AND "runAt" > ${at} AND "lockedUntil" IS NULL`,
    ]);
    return counts[0]! > 0 ? now : null;
  }

  /** Ends every lease: for SQLite at start (see `releaseAllLeases`). */
  releaseAllLeases(): Promise<void> {
    return releaseAllLeases(this.db, "OrderJob");
  }

  /** Due jobs not yet claimed, per kind, and how late the oldest is (for metrics). */
  async backlog(): Promise<Array<{ kind: OrderJobKind; due: number; oldestDueSeconds: number }>> {
    const now = clock.now();
    const at = sqlTimestamp(this.db.provider, now);
    const rows = await queryRows<{ kind: OrderJobKind; due: number; oldest: unknown }>(
      this.db,
      Sql.sql`SELECT "kind", COUNT(*) AS "due", MIN("runAt") AS "oldest" FROM "OrderJob"
        WHERE "runAt" <= ${at} AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${at}) GROUP BY "kind"`,
    );
    return rows.map((row) => ({ kind: row.kind, due: row.due, oldestDueSeconds: Math.max(0, (now.getTime() - dateFrom(row.oldest).getTime()) / 1000) }));
  }
}
