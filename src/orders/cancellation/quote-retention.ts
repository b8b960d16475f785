import type { Database } from "../../db/database";
import { sqlTimestamp } from "../../db/sql-values";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { deleteRule, type RetentionRule } from "../../retention/retention-rule";

/**
 * A cancellation quote never confirmed is removed OFFER_RETENTION_SECONDS after it expires; a
 * confirmed one stays with its order (it is what the order was refunded). Quotes are dated on
 * their tenant's clock.
 */
export function quoteRetention(db: Database, retentionMs: number): RetentionRule {
  return deleteRule(
    db,
    "OrderCancellation",
    ["id"],
    "expiresAt",
    (now) => Sql.sql`"confirmedAt" IS NULL AND "expiresAt" < ${sqlTimestamp(db.provider, new Date(now.getTime() - retentionMs))}`,
    true,
  );
}
