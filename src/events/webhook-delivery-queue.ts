import type { Database } from "../db/database";
import { claimLeased, leaseEnd, releaseAllLeases, sameLease } from "../db/leases";
import { queryRows } from "../db/query-rows";
import { sqlEnum } from "../db/sql-enum";
import { dateFrom, sqlTimestamp } from "../db/sql-values";
import { GuardFailed, guarded, writeBatch } from "../db/write-batch";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import type { WebhookEndpoint } from "../db/models";
import type { PingEvent, WebhookEventType } from "./webhook-events";
import { defaultEndpointId } from "./webhook-endpoint";
import { clock } from "../clock";

/** A delivery claimed for one attempt, with the event it carries. */
export interface ClaimedDelivery {
  id: string;
  eventId: string;
  tenantId: string;
  /** Null for a ping. */
  orderId: string | null;
  endpointId: string;
  /** Attempts of the current schedule before this one (a redelivery starts a new schedule). */
  attempts: number;
  /** The lease this claim holds: its outcome is written only while the delivery still holds it. */
  lease: Date;
  /** When the delivery was queued (the process clock; its event is dated on its tenant's). */
  queuedAt: Date;
  event: { type: WebhookEventType; payload: string };
  /**
   * Where it goes, as read with the claim: "default" for the tenant's webhook_url (read from the
   * tenant), the endpoint's row, or null when the endpoint was deleted.
   */
  endpoint: "default" | WebhookEndpoint | null;
}

/** Whose deliveries a claim may take: only these endpoints', or any but these. */
export type EndpointFilter = { only: readonly string[] } | { except: readonly string[] };

/** Of `candidates` (in order), the ids to claim: each tenant's first, as many as it has room for. */
function chooseByRoom(candidates: ReadonlyArray<{ id: string; endpointId: string }>, roomFor: (endpointId: string) => number): string[] {
  const taken = new Map<string, number>();
  const chosen: string[] = [];
  for (const { id, endpointId } of candidates) {
    const count = taken.get(endpointId) ?? 0;
    if (count >= roomFor(endpointId)) continue;
    taken.set(endpointId, count + 1);
    chosen.push(id);
  }
  return chosen;
}

/** What one claim of a delivery came to. */
export interface DeliveryOutcome {
  /** The HTTP attempt made, if one was (none when its endpoint was off or gone). */
  attempt: { at: Date; statusCode: number | null; durationMs: number; error: string | null } | null;
  status: "pending" | "succeeded" | "failed";
  nextAttemptAt: Date | null;
  lastStatusCode: number | null;
  lastError: string | null;
  /** The receiver answered 410 Gone: its endpoint is switched off (the default one: the tenant's webhook_enabled). */
  disableWebhooks: boolean;
}

/**
 * The WebhookDelivery rows as a durable queue. A delivery is queued with its event (outbox.ts);
 * a claim leases it to one process for one attempt, and the attempt's outcome (logged as a
 * WebhookAttempt) makes it succeeded, failed, or pending again at its next attempt time.
 * Deliveries of one order to one endpoint go out in event order: one is never claimed while an
 * earlier delivery of the same order to the same endpoint is still pending (being attempted or
 * waiting for a retry); each endpoint's deliveries are retried on their own.
 */
export class WebhookDeliveryQueue {
  constructor(
    private readonly db: Database,
    private readonly leaseMs: number,
  ) {}

  /**
   * Claims due deliveries, oldest due first, leased to the caller: among the first `limit` due
   * (of the endpoints `endpoints` allows: `only` those, or any `except` those), as many of each
   * endpoint's as `roomFor(endpointId)` says it may have now. Two statements: the due deliveries are
   * read, then those chosen are claimed if still due and unleased (another process may have
   * taken some meanwhile; on PostgreSQL rows it is claiming are skipped).
   */
  async claimDue(limit: number, endpoints: EndpointFilter, roomFor: (endpointId: string) => number): Promise<ClaimedDelivery[]> {
    const { provider } = this.db;
    const now = clock.now();
    const pending = sqlEnum(provider, "WebhookDeliveryStatus", "pending");
    const ofEndpoints =
      "only" in endpoints
        ? Sql.sql`AND "candidate"."endpointId" IN (${Sql.join(endpoints.only)})`
        : endpoints.except.length > 0
          ? Sql.sql`AND "candidate"."endpointId" NOT IN (${Sql.join(endpoints.except)})`
          : Sql.empty;
    const at = sqlTimestamp(provider, now);
    // A ping (no order) waits for nothing: NULL equals nothing.
    const due = Sql.sql`"candidate"."status" = ${pending} AND "candidate"."nextAttemptAt" <= ${at}
        AND NOT EXISTS (SELECT 1 FROM "WebhookDelivery" AS "earlier" WHERE "earlier"."orderId" = "candidate"."orderId"
          AND "earlier"."endpointId" = "candidate"."endpointId" AND "earlier"."status" = ${pending}
          AND ("earlier"."createdAt" < "candidate"."createdAt" OR ("earlier"."createdAt" = "candidate"."createdAt" AND "earlier"."id" < "candidate"."id")))`;
    const orderBy = Sql.sql`"candidate"."nextAttemptAt", "candidate"."createdAt"`;
    const candidates = await queryRows<{ id: string; endpointId: string }>(
      this.db,
      Sql.sql`SELECT "candidate"."id", "candidate"."endpointId" FROM "WebhookDelivery" AS "candidate"
        WHERE ${due} ${ofEndpoints} AND ("candidate"."lockedUntil" IS NULL OR "candidate"."lockedUntil" <= ${at})
        ORDER BY ${orderBy} LIMIT ${limit}`,
    );
    const chosen = chooseByRoom(candidates, roomFor);
    if (chosen.length === 0) return [];
    const rows = await claimLeased<{ id: string; eventId: string; tenantId: string; orderId: string | null; endpointId: string; attempts: number; createdAt: unknown }>(this.db, {
      table: "WebhookDelivery",
      due: Sql.sql`"candidate"."id" IN (${Sql.join(chosen)}) AND ${due}`,
      orderBy,
      limit: chosen.length,
      now,
      leaseMs: this.leaseMs,
      returning: Sql.sql`"id", "eventId", "tenantId", "orderId", "endpointId", "attempts", "createdAt"`,
    });
    if (rows.length === 0) return [];
    const endpointIds = [...new Set(rows.filter((row) => row.endpointId !== defaultEndpointId(row.tenantId)).map((row) => row.endpointId))];
    const [events, endpointRows] = await Promise.all([
      this.db.prisma.orderEvent.findMany({ where: { id: { in: rows.map((row) => row.eventId) } } }),
      endpointIds.length === 0 ? [] : this.db.prisma.webhookEndpoint.findMany({ where: { id: { in: endpointIds } } }),
    ]);
    const eventById = new Map(events.map((event) => [event.id, event]));
    const endpointById = new Map(endpointRows.map((endpoint) => [endpoint.id, endpoint]));
    const lease = leaseEnd({ now, leaseMs: this.leaseMs });
    return rows.flatMap((row) => {
      const event = eventById.get(row.eventId);
      // The event is gone only when its tenant was deleted meanwhile: nothing left to deliver.
      if (!event) return [];
      const endpoint = row.endpointId === defaultEndpointId(row.tenantId) ? "default" : (endpointById.get(row.endpointId) ?? null);
      const { createdAt, ...claimed } = row;
      return [{ ...claimed, lease, queuedAt: dateFrom(createdAt), endpoint, event: { type: event.type as WebhookEventType, payload: event.payload } }];
    });
  }

  /** Writes a claim's outcome, unless the delivery was re-queued (redelivered) meanwhile; the attempt is logged either way. */
  async record(delivery: ClaimedDelivery, outcome: DeliveryOutcome): Promise<void> {
    const { provider } = this.db;
    const at = clock.now();
    const statements: Sql.Sql[] = [];
    if (outcome.attempt) {
      const { attempt } = outcome;
      statements.push(Sql.sql`INSERT INTO "WebhookAttempt" ("id", "deliveryId", "tenantId", "number", "statusCode", "durationMs", "error", "attemptedAt")
        SELECT ${newId("wat", attempt.at.getTime())}, "id", "tenantId", (SELECT COUNT(*) + 1 FROM "WebhookAttempt" WHERE "deliveryId" = ${delivery.id}),
          ${attempt.statusCode}, ${attempt.durationMs}, ${attempt.error}, ${sqlTimestamp(provider, attempt.at)}
        FROM "WebhookDelivery" WHERE "id" = ${delivery.id}`);
    }
    const nextAttemptAt = outcome.nextAttemptAt ? sqlTimestamp(provider, outcome.nextAttemptAt) : Sql.sql`NULL`;
    statements.push(Sql.sql`UPDATE "WebhookDelivery" SET "status" = ${sqlEnum(provider, "WebhookDeliveryStatus", outcome.status)},
      "attempts" = "attempts" + ${outcome.attempt ? 1 : 0}, "nextAttemptAt" = ${nextAttemptAt}, "lockedUntil" = NULL,
      "lastStatusCode" = ${outcome.lastStatusCode}, "lastError" = ${outcome.lastError}, "updatedAt" = ${sqlTimestamp(provider, at)}
      WHERE "id" = ${delivery.id} AND ${sameLease(provider, delivery.lease)}`);
    if (outcome.disableWebhooks) {
      statements.push(
        delivery.endpoint === "default"
          ? Sql.sql`UPDATE "Tenant" SET "webhookEnabled" = FALSE, "updatedAt" = ${sqlTimestamp(provider, at)} WHERE "id" = ${delivery.tenantId}`
          : Sql.sql`UPDATE "WebhookEndpoint" SET "enabled" = FALSE, "updatedAt" = ${sqlTimestamp(provider, at)} WHERE "id" = ${delivery.endpointId}`,
      );
    }
    await writeBatch(this.db, statements);
  }

  /**
   * Gives claims back unattempted (shutdown, a destination with no room), or attempted but with
   * their outcome unwritten (a database fault): each is due again at once, for any process.
   */
  async release(...deliveries: ClaimedDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    const { provider } = this.db;
    await writeBatch(
      this.db,
      deliveries.map((delivery) => Sql.sql`UPDATE "WebhookDelivery" SET "lockedUntil" = NULL WHERE "id" = ${delivery.id} AND ${sameLease(provider, delivery.lease)}`),
    );
  }

  /**
   * Makes the tenant's delivery due now with a fresh schedule (its attempt log is kept), whatever
   * its status; an attempt in flight no longer decides its outcome. Returns false when the
   * tenant has no such delivery.
   */
  async requeue(tenantId: string, deliveryId: string): Promise<boolean> {
    const { provider } = this.db;
    const at = sqlTimestamp(provider, clock.now());
    const [count] = await writeBatch(this.db, [
      Sql.sql`UPDATE "WebhookDelivery" SET "status" = ${sqlEnum(provider, "WebhookDeliveryStatus", "pending")}, "attempts" = 0,
        "nextAttemptAt" = ${at}, "lockedUntil" = NULL, "updatedAt" = ${at}
        WHERE "id" = ${deliveryId} AND "tenantId" = ${tenantId}`,
    ]);
    return count === 1;
  }

  /**
   * Writes a ping and its one delivery to the endpoint it names, due now, if that endpoint is
   * enabled as the batch commits (the default one: the tenant's webhooks on, with a URL). Returns
   * the delivery's id, or null when the endpoint was off, deleted, or another tenant's.
   */
  async queuePing(ping: PingEvent, toDefaultEndpoint: boolean): Promise<string | null> {
    const { provider } = this.db;
    const { endpointId } = ping;
    // The ping is dated on the tenant's clock, its delivery (due now) on the process's, as an order event's are (outbox.ts).
    const queuedAt = clock.now();
    const at = sqlTimestamp(provider, queuedAt);
    const deliveryId = newId("whd", queuedAt.getTime());
    const delivery = Sql.sql`SELECT ${deliveryId}, ${ping.id}, ${ping.tenantId}, NULL, ${endpointId}, ${sqlEnum(provider, "WebhookDeliveryStatus", "pending")}, 0, ${at}, ${at}, ${at}`;
    const where = toDefaultEndpoint
      ? Sql.sql`FROM "Tenant" WHERE "id" = ${ping.tenantId} AND "webhookEnabled" = TRUE AND "webhookUrl" IS NOT NULL`
      : Sql.sql`FROM "WebhookEndpoint" WHERE "id" = ${endpointId} AND "tenantId" = ${ping.tenantId} AND "enabled" = TRUE`;
    try {
      await writeBatch(this.db, [
        Sql.sql`INSERT INTO "OrderEvent" ("id", "tenantId", "orderId", "type", "payload", "createdAt") VALUES (${ping.id}, ${ping.tenantId}, NULL, ${ping.type}, ${ping.payload}, ${sqlTimestamp(provider, ping.createdAt)})`,
        guarded(
          Sql.sql`INSERT INTO "WebhookDelivery" ("id", "eventId", "tenantId", "orderId", "endpointId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt") ${delivery} ${where}`,
          "endpoint enabled",
        ),
      ]);
      return deliveryId;
    } catch (error) {
      if (error instanceof GuardFailed) return null;
      throw error;
    }
  }

  /** Ends every lease: for SQLite at start (see `releaseAllLeases`). */
  releaseAllLeases(): Promise<void> {
    return releaseAllLeases(this.db, "WebhookDelivery");
  }

  /** Deliveries due and not claimed, all tenants, and how late the oldest is (for metrics). */
  async backlog(): Promise<{ due: number; oldestDueSeconds: number }> {
    const { provider } = this.db;
    const now = clock.now();
    const at = sqlTimestamp(provider, now);
    const [row] = await queryRows<{ due: number; oldest: unknown }>(
      this.db,
      Sql.sql`SELECT COUNT(*) AS "due", MIN("nextAttemptAt") AS "oldest" FROM "WebhookDelivery"
        WHERE "status" = ${sqlEnum(provider, "WebhookDeliveryStatus", "pending")} AND "nextAttemptAt" <= ${at}
          AND ("lockedUntil" IS NULL OR "lockedUntil" <= ${at})`,
    );
    const oldest = row?.oldest == null ? now : dateFrom(row.oldest);
    return { due: row?.due ?? 0, oldestDueSeconds: Math.max(0, (now.getTime() - oldest.getTime()) / 1000) };
  }
}
