import type { Database } from "../db/database";
import { sqlTimestamp } from "../db/sql-values";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { deleteRule, type RetentionRule } from "../retention/retention-rule";

const DAY_MS = 86_400_000;

/**
 * Events of no order (a wallet's events, pings) are no order's history: each is removed, with its
 * deliveries, WEBHOOK_LOG_RETENTION_DAYS after it was made (the events API shows no older ones),
 * once none of its deliveries is pending. Dated on their tenant's clock, as events are.
 */
export function tenantEventRetention(db: Database, retentionDays: number): RetentionRule {
  return deleteRule(
    db,
    "OrderEvent",
    ["id"],
    "createdAt",
    (now) => Sql.sql`"orderId" IS NULL AND "createdAt" < ${sqlTimestamp(db.provider, new Date(now.getTime() - retentionDays * DAY_MS))}
      AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."eventId" = "OrderEvent"."id" AND d."status" = 'pending')`,
    true,
  );
}
