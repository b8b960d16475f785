import type { Database } from "../db/database";
import { sqlTimestamp } from "../db/sql-values";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { deleteRule, type RetentionRule } from "../retention/retention-rule";

const DAY_MS = 86_400_000;

/**
 * The delivery log: a delivery no longer pending is removed, with its attempts (they cascade),
 * WEBHOOK_LOG_RETENTION_DAYS after it was made. Its event stays: it is the order's history.
 */
export function webhookLogRetention(db: Database, retentionDays: number): RetentionRule {
  return deleteRule(
    db,
    "WebhookDelivery",
    ["id"],
    "createdAt",
    (now) => Sql.sql`"createdAt" < ${sqlTimestamp(db.provider, new Date(now.getTime() - retentionDays * DAY_MS))} AND "status" <> 'pending'`,
  );
}
