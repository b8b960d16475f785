import type { Database } from "../db/database";
import { sqlEnum } from "../db/sql-enum";
import { queryRows } from "../db/query-rows";
import { dateFrom, sqlTimestamp } from "../db/sql-values";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import { clock } from "../clock";
import type { OrderEventType } from "./order-events";
import type { ChangeEventType } from "./webhook-events";
import { defaultEndpointId, quotedEventType } from "./webhook-endpoint";

/**
 * Events whose deliveries are queued by one statement: SQLite's limit on a compound SELECT is 500
 * arms, and each event has two (the default endpoint, the tenant's other endpoints).
 */
const EVENTS_PER_DELIVERY_STATEMENT = 100;

/** The characters of a delivery id an endpoint's slot replaces (WebhookEndpoint.slot: "01" to "16"). */
const SLOT_CHARS = 2;

/** An event as the outbox stores it: an order's (OrderEvent) or a tenant's own, of no order (a wallet's). `payload` is the webhook body, byte for byte. */
export interface OutboxEvent {
  id: string;
  tenantId: string;
  orderId: string | null;
  type: ChangeEventType;
  createdAt: Date;
  payload: string;
}

/**
 * The transactional outbox: statements for the batch of the change the events report, so the
 * events exist exactly when the change committed. Each event's deliveries are queued in the
 * same transaction (queueDeliveries).
 */
export function recordEvents(db: Database, events: readonly OutboxEvent[], firstAttemptDelayMs: number): Sql.Sql[] {
  if (events.length === 0) return [];
  const { provider } = db;
  return [
    Sql.sql`INSERT INTO "OrderEvent" ("id", "tenantId", "orderId", "type", "payload", "createdAt")
      VALUES ${Sql.join(events.map((event) => Sql.sql`(${event.id}, ${event.tenantId}, ${event.orderId}, ${event.type}, ${event.payload}, ${sqlTimestamp(provider, event.createdAt)})`))}`,
    ...queueDeliveries(db, events, firstAttemptDelayMs),
  ];
}

/**
 * The deliveries of events an earlier statement of the batch writes, one per endpoint of its
 * tenant enabled then: the default endpoint (the tenant's webhook_url, while `webhook_enabled`)
 * and every other endpoint whose enabled_events take the event's type, all due
 * `firstAttemptDelayMs` from now (the first entry of WEBHOOK_RETRY_SCHEDULE). However many the
 * events and endpoints, one statement a hundred events: a batch of changes costs a few round
 * trips on PostgreSQL. `ifWritten`: the statement that writes an event does so only when a
 * condition holds in the transaction (a wallet crossing its threshold), so its deliveries are
 * queued only if the event row is there. An event is dated on its tenant's clock; its
 * deliveries, on the process clock (receivers check a delivery's time against their own:
 * tenancy/tenant-clock.ts).
 */
export function queueDeliveries(db: Database, events: ReadonlyArray<Omit<OutboxEvent, "payload">>, firstAttemptDelayMs: number, ifWritten = false): Sql.Sql[] {
  const { provider } = db;
  const pending = sqlEnum(provider, "WebhookDeliveryStatus", "pending");
  const queuedAt = clock.nowMs();
  const [at, due] = [sqlTimestamp(provider, new Date(queuedAt)), sqlTimestamp(provider, new Date(queuedAt + firstAttemptDelayMs))];
  const deliveries: Sql.Sql[] = [];
  for (let start = 0; start < events.length; start += EVENTS_PER_DELIVERY_STATEMENT) {
    const selects = events.slice(start, start + EVENTS_PER_DELIVERY_STATEMENT).flatMap((event) => {
      const written = ifWritten ? Sql.sql`AND EXISTS (SELECT 1 FROM "OrderEvent" WHERE "id" = ${event.id})` : Sql.empty;
      return [
        Sql.sql`SELECT ${newId("whd", queuedAt)}, ${event.id}, "id", ${event.orderId}, ${defaultEndpointId(event.tenantId)}, ${pending}, 0, ${due}, ${at}, ${at}
          FROM "Tenant" WHERE "id" = ${event.tenantId} AND "webhookEnabled" = TRUE AND "webhookUrl" IS NOT NULL ${written}`,
        // One statement makes a delivery per matching endpoint, so each id is one made for the event
        // with its last characters replaced by the endpoint's slot: unique per event and endpoint.
        Sql.sql`SELECT ${newId("whd", queuedAt).slice(0, -SLOT_CHARS)} || "slot", ${event.id}, "tenantId", ${event.orderId}, "id", ${pending}, 0, ${due}, ${at}, ${at}
          FROM "WebhookEndpoint" WHERE "tenantId" = ${event.tenantId} AND "enabled" = TRUE
            AND (${position(provider, quotedEventType("*"))} > 0 OR ${position(provider, quotedEventType(event.type))} > 0) ${written}`,
      ];
    });
    deliveries.push(Sql.sql`INSERT INTO "WebhookDelivery" ("id", "eventId", "tenantId", "orderId", "endpointId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
      ${Sql.join(selects, " UNION ALL ")}`);
  }
  return deliveries;
}

/** An event as committed, without its payload. */
export interface CommittedEvent {
  id: string;
  tenantId: string;
  orderId: string;
  type: OrderEventType;
  createdAt: Date;
}

/** The tenants' order events created at or after `since`, oldest first, `limit` at most (pings, of no order, are not among them). */
export async function eventsSince(db: Database, tenantIds: readonly string[], since: Date, limit: number): Promise<CommittedEvent[]> {
  if (tenantIds.length === 0) return [];
  const rows = await queryRows<{ id: string; tenantId: string; orderId: string; type: OrderEventType; createdAt: unknown }>(
    db,
    Sql.sql`SELECT "id", "tenantId", "orderId", "type", "createdAt" FROM "OrderEvent"
      WHERE "tenantId" IN (${Sql.join(tenantIds)}) AND "orderId" IS NOT NULL AND "createdAt" >= ${sqlTimestamp(db.provider, since)}
      ORDER BY "createdAt", "id" LIMIT ${limit}`,
  );
  return rows.map((row) => ({ ...row, createdAt: dateFrom(row.createdAt) }));
}

/** Where `text` is in the endpoint's `enabledEvents` (0: nowhere), in each provider's words. */
function position(provider: Database["provider"], text: string): Sql.Sql {
  return provider === "postgresql" ? Sql.sql`strpos("enabledEvents", ${text})` : Sql.sql`instr("enabledEvents", ${text})`;
}
