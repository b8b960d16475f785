import type { Database } from "../db/database";
import { sqlTimestamp } from "../db/sql-values";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { deleteRule, type RetentionRule } from "../retention/retention-rule";

/**
 * A search and its offers (one row) are removed OFFER_RETENTION_SECONDS after they expire. An
 * order booked from one of them keeps its own snapshot of the offer and never reads the row.
 * Searches are dated on their tenant's clock.
 */
export function searchRetention(db: Database, retentionMs: number): RetentionRule {
  return deleteRule(db, "OfferRequest", ["id"], "expiresAt", (now) => Sql.sql`"expiresAt" < ${sqlTimestamp(db.provider, new Date(now.getTime() - retentionMs))}`, true);
}
