import type { Database } from "../db/database";
import { sqlEnum } from "../db/sql-enum";
import { queryRows } from "../db/query-rows";
import { dateFrom, sqlTimestamp } from "../db/sql-values";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import type { OrderEvent, OrderEventType } from "./order-events";

/** Events whose deliveries are queued by one statement: SQLite's limit on a compound SELECT is 500 arms. */
const EVENTS_PER_DELIVERY_STATEMENT = 100;

/**
 * The transactional outbox: statements for the batch of the change the events report, so the
 * events exist exactly when the change committed. With a tenant's webhooks enabled (read in the
 * same transaction) each of its events' delivery is queued too, due `firstAttemptDelayMs` after
 * the event (the first entry of WEBHOOK_RETRY_SCHEDULE). However many the events, two statements
 * (a hundred events a delivery statement): a batch of changes costs a few round trips on PostgreSQL.
 */
export function recordEvents(db: Database, events: readonly OrderEvent[], firstAttemptDelayMs: number): Sql.Sql[] {
  if (events.length === 0) return [];
  const { provider } = db;
  const pending = sqlEnum(provider, "WebhookDeliveryStatus", "pending");
  const rows = events.map((event) => ({ event, at: sqlTimestamp(provider, event.createdAt), due: sqlTimestamp(provider, new Date(event.createdAt.getTime() + firstAttemptDelayMs)) }));
  const deliveries: Sql.Sql[] = [];
  for (let start = 0; start < rows.length; start += EVENTS_PER_DELIVERY_STATEMENT) {
    const selects = rows.slice(start, start + EVENTS_PER_DELIVERY_STATEMENT).map(
      ({ event, at, due }) => Sql.sql`SELECT ${newId("whd", event.createdAt.getTime())}, ${event.id}, "id", ${event.orderId}, ${pending}, 0, ${due}, ${at}, ${at}
        FROM "Tenant" WHERE "id" = ${event.tenantId} AND "webhookEnabled" = TRUE AND "webhookUrl" IS NOT NULL`,
    );
    deliveries.push(Sql.sql`INSERT INTO "WebhookDelivery" ("id", "eventId", "tenantId", "orderId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
      ${Sql.join(selects, " UNION ALL ")}`);
  }
  return [
    Sql.sql`INSERT INTO "OrderEvent" ("id", "tenantId", "orderId", "type", "payload", "createdAt")
      VALUES ${Sql.join(rows.map(({ event, at }) => Sql.sql`(${event.id}, ${event.tenantId}, ${event.orderId}, ${event.type}, ${event.payload}, ${at})`))}`,
    ...deliveries,
  ];
}

/** An event as committed, without its payload. */
export interface CommittedEvent {
  id: string;
  tenantId: string;
  orderId: string;
  type: OrderEventType;
  createdAt: Date;
}

/** The tenants' events created at or after `since`, oldest first, `limit` at most. */
export async function eventsSince(db: Database, tenantIds: readonly string[], since: Date, limit: number): Promise<CommittedEvent[]> {
  if (tenantIds.length === 0) return [];
  const rows = await queryRows<{ id: string; tenantId: string; orderId: string; type: OrderEventType; createdAt: unknown }>(
    db,
    Sql.sql`SELECT "id", "tenantId", "orderId", "type", "createdAt" FROM "OrderEvent"
      WHERE "tenantId" IN (${Sql.join(tenantIds)}) AND "createdAt" >= ${sqlTimestamp(db.provider, since)}
      ORDER BY "createdAt", "id" LIMIT ${limit}`,
  );
  return rows.map((row) => ({ ...row, createdAt: dateFrom(row.createdAt) }));
}
