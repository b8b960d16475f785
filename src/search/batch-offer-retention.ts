import type { Database } from "../db/database";
import { sqlTimestamp } from "../db/sql-values";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { deleteRule, type RetentionRule } from "../retention/retention-rule";

/**
 * A batch offer request and its batches are removed OFFER_RETENTION_SECONDS after its offers
 * expire, as its batches' searches are (search-retention.ts). Each batch carries its request's
 * `expiresAt`, so the two tables are swept by the same cutoff; a read finds the request first,
 * so a request whose batches went first (or the reverse, for a moment) reads as gone. Both are
 * dated on their tenant's clock, as searches are.
 */
export function batchOfferRetention(db: Database, retentionMs: number): RetentionRule[] {
  const pastKeeping = (now: Date) => Sql.sql`"expiresAt" < ${sqlTimestamp(db.provider, new Date(now.getTime() - retentionMs))}`;
  return [deleteRule(db, "BatchOfferRequest", ["id"], "expiresAt", pastKeeping, true), deleteRule(db, "OfferBatch", ["batchOfferRequestId", "supplier"], "expiresAt", pastKeeping, true)];
}
