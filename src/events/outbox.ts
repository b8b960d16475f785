import type { Database } from "../db/database";
import { sqlEnum } from "../db/sql-enum";
import { sqlTimestamp } from "../db/sql-values";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import type { OrderEvent } from "./order-events";

/**
 * The transactional outbox: statements for the batch of the change an event reports, so the
 * event exists exactly when the change committed. With the tenant's webhooks enabled (read in
 * the same transaction) its delivery is queued too, due `firstAttemptDelayMs` after the event
 * (the first entry of WEBHOOK_RETRY_SCHEDULE).
 */
export function recordEvent(db: Database, event: OrderEvent, firstAttemptDelayMs: number): Sql.Sql[] {
  const { provider } = db;
  const at = sqlTimestamp(provider, event.createdAt);
  const due = sqlTimestamp(provider, new Date(event.createdAt.getTime() + firstAttemptDelayMs));
  return [
    Sql.sql`INSERT INTO "OrderEvent" ("id", "tenantId", "orderId", "type", "payload", "createdAt")
      VALUES (${event.id}, ${event.tenantId}, ${event.orderId}, ${event.type}, ${event.payload}, ${at})`,
    Sql.sql`INSERT INTO "WebhookDelivery" ("id", "eventId", "tenantId", "orderId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
      SELECT ${newId("whd", event.createdAt.getTime())}, ${event.id}, "id", ${event.orderId}, ${sqlEnum(provider, "WebhookDeliveryStatus", "pending")}, 0, ${due}, ${at}, ${at}
      FROM "Tenant" WHERE "id" = ${event.tenantId} AND "webhookEnabled" = TRUE AND "webhookUrl" IS NOT NULL`,
  ];
}
