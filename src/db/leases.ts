import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import type { Database } from "./database";
import { queryRows } from "./query-rows";
import { sqlTimestamp } from "./sql-values";
import { writeBatch } from "./write-batch";

/** A table of durable work whose rows a process claims by leasing them (`lockedUntil`). */
export type LeasedTable = "OrderJob" | "WebhookDelivery" | "SeatIntent";

export interface LeaseClaim {
  table: LeasedTable;
  /** Which rows are due, on the table aliased `candidate` (the lease condition is added). */
  due: Sql.Sql;
  /** How the due rows are ordered, oldest first. */
  orderBy: Sql.Sql;
  limit: number;
  now: Date;
  leaseMs: number;
  /** More assignments made by the claim, e.g. `"attempts" = "attempts" + 1`. */
  alsoSet?: Sql.Sql;
  /** The columns the claim returns. */
  returning: Sql.Sql;
}

/** The lease a claim made at `now` holds: also the claim's token (see `sameLease`). */
export function leaseEnd(claim: Pick<LeaseClaim, "now" | "leaseMs">): Date {
  return new Date(claim.now.getTime() + claim.leaseMs);
}

/**
 * Claims up to `limit` due rows whose lease is free, each leased to the caller until
 * `leaseEnd(claim)`. One statement: on PostgreSQL rows another process is claiming are skipped
 * (`FOR UPDATE SKIP LOCKED`), so no row is claimed twice; SQLite runs the statement alone.
 */
export function claimLeased<Row extends Record<string, unknown>>(db: Database, claim: LeaseClaim): Promise<Row[]> {
  const { provider } = db;
  const at = sqlTimestamp(provider, claim.now);
  const table = Sql.raw(`"${claim.table}"`);
  const skipLocked = provider === "postgresql" ? Sql.sql`FOR UPDATE SKIP LOCKED` : Sql.empty;
  const alsoSet = claim.alsoSet ? Sql.sql`, ${claim.alsoSet}` : Sql.empty;
  return queryRows<Row>(
    db,
    Sql.sql`UPDATE ${table} SET "lockedUntil" = ${sqlTimestamp(provider, leaseEnd(claim))}${alsoSet}
      WHERE "id" IN (SELECT "candidate"."id" FROM ${table} AS "candidate"
        WHERE ${claim.due} AND ("candidate"."lockedUntil" IS NULL OR "candidate"."lockedUntil" <= ${at})
        ORDER BY ${claim.orderBy} LIMIT ${claim.limit} ${skipLocked})
      RETURNING ${claim.returning}`,
  );
}

/** A condition on `table`'s row: it still holds the lease that ended at `lease` (no one re-queued or re-claimed it since). */
export function sameLease(provider: Database["provider"], lease: Date): Sql.Sql {
  return Sql.sql`"lockedUntil" = ${sqlTimestamp(provider, lease)}`;
}

/**
 * Extends the lease this process holds on `table`'s row `id`, from `lease` to `leaseEnd({ now, leaseMs })`:
 * a compare-and-set on the lease (its token). Returns the new lease, or null when the row no
 * longer holds `lease` (it ran out and another claim took the row, or the row is gone). (A claim
 * takes a row only once its lease has ended, and sets one ending later still: no two claims of
 * a row hold the same token.)
 */
export async function renewLease(db: Database, table: LeasedTable, id: string, lease: Date, claim: Pick<LeaseClaim, "now" | "leaseMs">): Promise<Date | null> {
  const renewed = leaseEnd(claim);
  const [count] = await writeBatch(db, [
    Sql.sql`UPDATE ${Sql.raw(`"${table}"`)} SET "lockedUntil" = ${sqlTimestamp(db.provider, renewed)} WHERE "id" = ${id} AND ${sameLease(db.provider, lease)}`,
  ]);
  return count === 1 ? renewed : null;
}

/**
 * Ends every lease of `table`. Only for SQLite at start: one process serves a SQLite database,
 * so any lease found then belonged to a process that died, and its rows can be claimed at once.
 */
export async function releaseAllLeases(db: Database, table: LeasedTable): Promise<void> {
  await writeBatch(db, [Sql.sql`UPDATE ${Sql.raw(`"${table}"`)} SET "lockedUntil" = NULL WHERE "lockedUntil" IS NOT NULL`]);
}
