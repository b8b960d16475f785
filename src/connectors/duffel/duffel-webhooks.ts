import { createHmac, timingSafeEqual } from "node:crypto";
import { z } from "zod";
import { clock } from "../../clock";
import type { Database } from "../../db/database";
import { sqlTimestamp } from "../../db/sql-values";
import { writeBatch } from "../../db/write-batch";
import { appError } from "../../errors/app-error";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import type { SupplierInboundRoute, SupplierOrderSignals } from "../../gateway/contract/connector";
import { deleteRule, type RetentionRule } from "../../retention/retention-rule";
import { ORDER_ID_METADATA } from "./duffel-bookings";

/** How far a signature's `t` may be from our clock: older deliveries (a replay) are refused. */
export const SIGNATURE_TOLERANCE_MS = 5 * 60_000;

/** How long a received event's id is kept: Duffel repeats a delivery for a few days at most. */
export const WEBHOOK_EVENTS_KEPT_MS = 30 * 86_400_000;

/** Duffel's event telling an airline changed one of its orders: its changes are read and recorded as ours. */
const AIRLINE_CHANGE_DETECTED = "order.airline_initiated_change_detected";

/** Duffel's event telling an order's cancellation was confirmed (by us, or at Duffel: its dashboard, the airline). */
const CANCELLATION_CONFIRMED = "order_cancellation.confirmed";

/** The events that make us read Duffel's order again: it was confirmed, failed, or changed by the airline. */
const RECONCILED = new Set(["order.created", "order.creation_failed", "order.updated", AIRLINE_CHANGE_DETECTED]);

/** Every event this address acts on: what a webhook created for it subscribes to. */
export const DUFFEL_WEBHOOK_EVENTS: readonly string[] = [...RECONCILED, CANCELLATION_CONFIRMED];

/**
 * Duffel's `X-Duffel-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" under the
 * webhook's secret>` (Duffel's webhook documentation): true when one `v1` matches and `t` is
 * within SIGNATURE_TOLERANCE_MS of `now`.
 */
export function verifyDuffelSignature(header: string | undefined, body: string, secret: string, now: Date): boolean {
  if (!header) return false;
  let timestamp: string | undefined;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const at = part.indexOf("=");
    if (at < 0) continue;
    const [key, value] = [part.slice(0, at).trim(), part.slice(at + 1).trim()];
    if (key === "t") timestamp = value;
    if (key === "v1") signatures.push(value);
  }
  if (!timestamp || !/^\d{1,12}$/.test(timestamp) || signatures.length === 0) return false;
  if (Math.abs(now.getTime() - Number(timestamp) * 1000) > SIGNATURE_TOLERANCE_MS) return false;
  const expected = createHmac("sha256", secret).update(`${timestamp}.${body}`, "utf8").digest();
  return signatures.some((signature) => /^[0-9a-f]{64}$/i.test(signature) && timingSafeEqual(Buffer.from(signature, "hex"), expected));
}

/** Duffel's webhook event, as far as we read it: its id, type, and the order it is about. */
const webhookEvent = z.object({
  id: z.string().min(1).max(100),
  type: z.string().min(1).max(100),
  data: z.object({
    object: z
      .object({
        id: z.string().max(100).optional(),
        order_id: z.string().max(100).optional(),
        metadata: z.record(z.string(), z.unknown()).nullable().optional(),
        cancelled_at: z.string().max(100).nullable().optional(),
      })
      .passthrough(),
  }),
});

/**
 * Receives Duffel's webhooks (docs/duffel.md#duffels-webhooks) at the platform's
 * `/suppliers/duffel/webhooks` and at each connection's `/suppliers/duffel/webhooks/<connection
 * id>`: the signature checked against DUFFEL_WEBHOOK_SECRET, or the connection's own secret, before
 * anything is read (a bad one is 401
 * and changes nothing); each event acted on once by its id (a repeated delivery answers 200 and
 * does nothing); an order event names one of our bookings (by our order id in its metadata, or
 * Duffel's order id) and wakes the work waiting on it, which reads Duffel's order again as the
 * background poll does; `order.airline_initiated_change_detected` has the order's airline changes
 * read and recorded as ours; `order_cancellation.confirmed` (or `order.updated` showing the order
 * cancelled) has an order cancelled at Duffel refunded here. An event about an order we did not
 * book is recorded and ignored.
 */
export class DuffelWebhooks {
  constructor(
    private readonly db: Database,
    private readonly secret: string | undefined,
    private readonly signals: SupplierOrderSignals,
    /** A connection's own webhook secret, and whose connection it is (null: no such Duffel connection). */
    private readonly connectionSecret: (connectionId: string) => Promise<{ tenantId: string; secret: string | null } | null>,
  ) {}

  /** The platform's address (DUFFEL_WEBHOOK_SECRET, any tenant's orders), and each connection's own (its secret, its tenant's orders only). */
  routes(): SupplierInboundRoute[] {
    return [
      { path: "webhooks", handle: (request) => this.receive(request, this.secret, null) },
      {
        path: "webhooks/:connectionId",
        handle: async (request) => {
          const connection = await this.connectionSecret(request.params.connectionId ?? "");
          if (!connection) throw appError("not_found", { reason: "No Duffel connection has this webhook address." });
          return this.receive(request, connection.secret ?? undefined, connection.tenantId);
        },
      },
    ];
  }

  /** A delivery signed with `secret`; `tenantId`: the one tenant whose orders it may name (a connection's address), null for any (the platform's). */
  private async receive({ headers, body }: Parameters<SupplierInboundRoute["handle"]>[0], secret: string | undefined, tenantId: string | null): Promise<{ status: number; body: unknown }> {
    if (!secret) throw appError("supplier_webhooks_unset");
    const header = headers["x-duffel-signature"];
    if (!verifyDuffelSignature(typeof header === "string" ? header : undefined, body, secret, clock.now())) {
      throw appError("webhook_signature_invalid", { field: "X-Duffel-Signature" });
    }
    const event = parseEvent(body);
    const answer = (acted: boolean, duplicate = false) => ({ status: 200, body: { data: { id: event.id, type: event.type, acted, duplicate } } });
    if (await this.db.prisma.duffelWebhookEvent.findUnique({ where: { id: event.id }, select: { id: true } })) return answer(false, true);
    const object = event.data.object;
    const duffelOrderId = object.order_id ?? (object.id?.startsWith("ord_") ? object.id : undefined) ?? null;
    const cancelled = event.type === CANCELLATION_CONFIRMED || (event.type === "order.updated" && typeof object.cancelled_at === "string");
    const orderId = RECONCILED.has(event.type) || cancelled ? await this.ourOrderOf(object.metadata?.[ORDER_ID_METADATA], duffelOrderId, tenantId) : null;
    if (orderId && RECONCILED.has(event.type)) await this.signals.changed(orderId);
    if (orderId && event.type === AIRLINE_CHANGE_DETECTED) await this.signals.airlineChanged(orderId);
    if (orderId && cancelled) await this.signals.cancelled(orderId);
    // Recorded after acting: a delivery cut short is acted on when Duffel repeats it (waking the work twice does no harm).
    const now = clock.now();
    await writeBatch(this.db, [
      Sql.sql`INSERT INTO "DuffelWebhookEvent" ("id", "type", "duffelOrderId", "receivedAt") VALUES (${event.id}, ${event.type}, ${duffelOrderId}, ${sqlTimestamp(this.db.provider, now)})
        ON CONFLICT ("id") DO NOTHING`,
    ]);
    return answer(orderId !== null);
  }

  /** Our order id of the booking the event is about (of `tenantId`'s when given): named in the order's metadata, or found by Duffel's order id; null when it is none of ours. */
  private async ourOrderOf(named: unknown, duffelOrderId: string | null, tenantId: string | null): Promise<string | null> {
    const candidates = [typeof named === "string" ? { id: named } : null, duffelOrderId ? { duffelOrderId } : null].filter((where) => where !== null);
    if (candidates.length === 0) return null;
    const booking = await this.db.prisma.duffelBooking.findFirst({ where: { OR: candidates, ...(tenantId !== null && { tenantId }) }, select: { id: true } });
    return booking?.id ?? null;
  }
}

function parseEvent(body: string): z.infer<typeof webhookEvent> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw appError("validation_failed", { field: "body", message: "body: must be Duffel's webhook event in JSON" });
  }
  const parsed = webhookEvent.safeParse(json);
  if (!parsed.success) throw appError("validation_failed", { field: "body", message: `body: not a Duffel webhook event (${parsed.error.issues[0]?.path.join(".") || "event"}: ${parsed.error.issues[0]?.message})` });
  return parsed.data;
}

/** Received events' ids are removed WEBHOOK_EVENTS_KEPT_MS after they came: Duffel no longer repeats them. */
export function duffelWebhookEventRetention(db: Database): RetentionRule {
  return deleteRule(db, "DuffelWebhookEvent", ["id"], "receivedAt", (now) => Sql.sql`"receivedAt" < ${sqlTimestamp(db.provider, new Date(now.getTime() - WEBHOOK_EVENTS_KEPT_MS))}`);
}
