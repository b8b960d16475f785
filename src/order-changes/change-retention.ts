import type { Database } from "../db/database";
import { sqlTimestamp } from "../db/sql-values";
import { timedWriteBatch } from "../db/write-batch";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { ofTenant, type RetentionRule } from "../retention/retention-rule";

/**
 * A change request with its offers, and the changes made from them, is removed
 * OFFER_RETENTION_SECONDS after its offers expire, unless a change made from one of them was
 * confirmed: its confirmation cleared the request's `expiresAt`, so the request, its offers and
 * the change stay with the order. A batch removes whole requests, in one transaction: on
 * PostgreSQL one statement, the requests chosen `FOR UPDATE SKIP LOCKED` (racing sweepers take
 * different ones); on SQLite the same choice made by each of three statements of one transaction.
 * Change requests are dated on their tenant's clock.
 */
export function changeRetention(db: Database, retentionMs: number): RetentionRule {
  return {
    table: "OrderChangeRequest",
    datedByTenant: true,
    async removeBatch(now, limit, tenantId) {
      const cutoff = sqlTimestamp(db.provider, new Date(now.getTime() - retentionMs));
      if (db.provider === "postgresql") {
        const { counts, heldMs } = await timedWriteBatch(db, [
          Sql.sql`WITH chosen AS (
              SELECT "id" FROM "OrderChangeRequest" WHERE "expiresAt" < ${cutoff} ${ofTenant(tenantId)} ORDER BY "expiresAt" LIMIT ${limit} FOR UPDATE SKIP LOCKED
            ), offers AS (
              DELETE FROM "OrderChangeOffer" WHERE "changeRequestId" IN (SELECT "id" FROM chosen) RETURNING "id"
            ), changes AS (
              DELETE FROM "OrderChange" WHERE "changeOfferId" IN (SELECT "id" FROM offers)
            )
            DELETE FROM "OrderChangeRequest" WHERE "id" IN (SELECT "id" FROM chosen)`,
        ]);
        return { removed: counts[0] ?? 0, heldMs };
      }
      const chosen = Sql.sql`SELECT "id" FROM "OrderChangeRequest" WHERE "expiresAt" < ${cutoff} ${ofTenant(tenantId)} ORDER BY "expiresAt", "id" LIMIT ${limit}`;
      const { counts, heldMs } = await timedWriteBatch(db, [
        Sql.sql`DELETE FROM "OrderChange" WHERE "changeOfferId" IN (SELECT "id" FROM "OrderChangeOffer" WHERE "changeRequestId" IN (${chosen}))`,
        Sql.sql`DELETE FROM "OrderChangeOffer" WHERE "changeRequestId" IN (${chosen})`,
        Sql.sql`DELETE FROM "OrderChangeRequest" WHERE "id" IN (${chosen})`,
      ]);
      return { removed: counts[2] ?? 0, heldMs };
    },
  };
}
