import type { Database } from "../db/database";
import { queryRows } from "../db/query-rows";
import { sqlEnum } from "../db/sql-enum";
import { dateFrom, sqlTimestamp } from "../db/sql-values";
import { writeBatch } from "../db/write-batch";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";

export type OrderJobKind = "ticket" | "refund";

export interface ClaimedJob {
  id: string;
  orderId: string;
  tenantId: string;
  kind: OrderJobKind;
  runAt: Date;
  /** Claims so far, this one included. */
  attempts: number;
}

/**
 * The durable queue of airline work (OrderJob rows). A job is queued in the same transaction as
 * the order change that needs it, so it exists exactly when the change committed; it is
 * finished (deleted) in the same transaction as the change its outcome makes. A claim leases
 * the job: if the process dies, the job is claimed again once the lease is over, by this
 * process after a restart or by any other process on the same PostgreSQL.
 */
export class OrderJobQueue {
  constructor(
    private readonly db: Database,
    private readonly leaseMs: number,
    private readonly now: () => Date = () => new Date(),
  ) {}

  /** Queues `kind` for the order, due at `runAt`: a statement for the batch that makes it due. */
  enqueue(order: { id: string; tenantId: string }, kind: OrderJobKind, runAt: Date, at: Date): Sql.Sql {
    const { provider } = this.db;
    return Sql.sql`INSERT INTO "OrderJob" ("id", "orderId", "tenantId", "kind", "runAt", "attempts", "createdAt")
      VALUES (${newId("job", at.getTime())}, ${order.id}, ${order.tenantId}, ${sqlEnum(provider, "OrderJobKind", kind)},
        ${sqlTimestamp(provider, runAt)}, 0, ${sqlTimestamp(provider, at)})`;
  }

  /** Removes a finished job: a statement for the batch that applies its outcome. */
  done(jobId: string): Sql.Sql {
    return Sql.sql`DELETE FROM "OrderJob" WHERE "id" = ${jobId}`;
  }

  /**
   * Claims up to `limit` due jobs, oldest due first, each leased to the caller. On PostgreSQL
   * rows another process is claiming are skipped (`FOR UPDATE SKIP LOCKED`), so no job is claimed
   * twice; SQLite runs the one statement alone.
   */
  async claimDue(limit: number): Promise<ClaimedJob[]> {
    const { provider } = this.db;
    const now = this.now();
    const at = sqlTimestamp(provider, now);
    const skipLocked = provider === "postgresql" ? Sql.sql`FOR UPDATE SKIP LOCKED` : Sql.empty;
    const rows = await queryRows<{ id: string; orderId: string; tenantId: string; kind: OrderJobKind; runAt: unknown; attempts: number }>(
      this.db,
      Sql.sql`UPDATE "OrderJob" SET "lockedUntil" = ${sqlTimestamp(provider, new Date(now.getTime() + this.leaseMs))}, "attempts" = "attempts" + 1
        WHERE "id" IN (SELECT "id" FROM "OrderJob" WHERE "runAt" <= ${at} AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${at})
          ORDER BY "runAt" LIMIT ${limit} ${skipLocked})
        RETURNING "id", "orderId", "tenantId", "kind", "runAt", "attempts"`,
    );
    return rows.map((row) => ({ ...row, runAt: dateFrom(row.runAt) }));
  }

  /**
   * Ends every lease. Only for SQLite at start: one process serves a SQLite database, so any
   * lease found then belonged to a process that died, and its jobs can run at once.
   */
  async releaseAllLeases(): Promise<void> {
    await writeBatch(this.db, [Sql.sql`UPDATE "OrderJob" SET "lockedUntil" = NULL WHERE "lockedUntil" IS NOT NULL`]);
  }

  /** Due jobs not yet claimed, per kind, and how late the oldest is (for metrics). */
  async backlog(): Promise<Array<{ kind: OrderJobKind; due: number; oldestDueSeconds: number }>> {
    const now = this.now();
    const at = sqlTimestamp(this.db.provider, now);
    const rows = await queryRows<{ kind: OrderJobKind; due: number; oldest: unknown }>(
      this.db,
      Sql.sql`SELECT "kind", COUNT(*) AS "due", MIN("runAt") AS "oldest" FROM "OrderJob"
        WHERE "runAt" <= ${at} AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${at}) GROUP BY "kind"`,
    );
    return rows.map((row) => ({ kind: row.kind, due: row.due, oldestDueSeconds: Math.max(0, (now.getTime() - dateFrom(row.oldest).getTime()) / 1000) }));
  }
}
