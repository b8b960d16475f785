import type { Database } from "../db/database";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { timedWriteBatch } from "../db/write-batch";

/**
 * One table's retention rule (docs/retention.md): what is past keeping, removed a bounded batch
 * at a time. Every process sweeps; a batch never removes a row another process's batch is
 * removing (PostgreSQL: `FOR UPDATE SKIP LOCKED`; SQLite: one process), so racing sweepers
 * each remove what the other does not.
 */
export interface RetentionRule {
  /** The table, as metrics and logs name it. */
  table: string;
  /**
   * Whether its rows are dated on their tenant's clock (tenancy/tenant-clock.ts): a sandbox
   * tenant whose clock runs ahead has them swept on its own time too (retention-sweeper.ts).
   */
  datedByTenant: boolean;
  /** Removes at most `limit` rows past keeping at `now` (of `tenantId` alone, when given), in one short transaction. */
  removeBatch(now: Date, limit: number, tenantId?: string): Promise<RemovedBatch>;
}

/** What a batch removed, and how long it held the database (timedWriteBatch). */
export interface RemovedBatch {
  removed: number;
  heldMs: number;
}

/**
 * `DELETE` of at most `limit` rows of `table` matching `where`, oldest by `orderBy` first, named
 * by their key columns. On PostgreSQL the rows are chosen `FOR UPDATE SKIP LOCKED`, so two
 * sweepers racing take different rows, and a row a transaction is changing is left for later.
 */
export function boundedDelete(db: Database, table: string, key: readonly string[], where: Sql.Sql, orderBy: string, limit: number): Sql.Sql {
  const columns = Sql.raw(key.map((column) => `"${column}"`).join(", "));
  const lock = db.provider === "postgresql" ? Sql.sql`FOR UPDATE SKIP LOCKED` : Sql.empty;
  return Sql.sql`DELETE FROM ${Sql.raw(`"${table}"`)} WHERE (${columns}) IN (
    SELECT ${columns} FROM ${Sql.raw(`"${table}"`)} WHERE ${where} ORDER BY ${Sql.raw(`"${orderBy}"`)} LIMIT ${limit} ${lock})`;
}

/** The rows of `tenantId` alone, when given (a tenant's own sweep: `RetentionRule.datedByTenant`). */
export function ofTenant(tenantId: string | undefined): Sql.Sql {
  return tenantId === undefined ? Sql.empty : Sql.sql`AND "tenantId" = ${tenantId}`;
}

/** A rule that removes, batch by batch, `table`'s rows matching `where(now)` (see `boundedDelete`). */
export function deleteRule(db: Database, table: string, key: readonly string[], orderBy: string, where: (now: Date) => Sql.Sql, datedByTenant = false): RetentionRule {
  return {
    table,
    datedByTenant,
    async removeBatch(now, limit, tenantId) {
      const { counts, heldMs } = await timedWriteBatch(db, [boundedDelete(db, table, key, Sql.sql`${where(now)} ${ofTenant(tenantId)}`, orderBy, limit)]);
      return { removed: counts[0] ?? 0, heldMs };
    },
  };
}
