import { createHmac } from "node:crypto";
import { ORDER_EVENT_TYPES, type OrderEventType } from "../../events/order-events";
import { PING, type WebhookEventType } from "../../events/webhook-events";
import type { WebhookDeliveryFormat } from "../../events/webhook-formats";

/**
 * Deliveries to endpoints made through the Duffel-compatible surface (docs/duffel-compatible.md#webhooks):
 * the same events as every endpoint's, under Duffel's event types, in Duffel's envelope and
 * signed as Duffel signs them, so a receiver written for Duffel verifies and reads them unchanged.
 */

/** The format of endpoints made through the Duffel-compatible surface (WebhookEndpoint.format). */
export const DUFFEL_FORMAT = "duffel_compatible";

/**
 * Duffel's name for each of our event types: every change of an order's state or contents is
 * Duffel's `order.updated`. An airline credit and the wallet's events have no Duffel event: such endpoints do not get them.
 */
const DUFFEL_TYPE: Record<WebhookEventType, string | null> = {
  "order.created": "order.created",
  "order.ticketed": "order.updated",
  "order.failed": "order.updated",
  "order.cancelled": "order.updated",
  "order.refunded": "order.updated",
  "order.services_added": "order.updated",
  "order.changed": "order.updated",
  "order.airline_initiated_change_detected": "order.airline_initiated_change_detected",
  "airline_credit.created": null,
  "wallet.credited": null,
  "wallet.low_balance": null,
  "order_cancellation.created": "order_cancellation.created",
  "order_cancellation.confirmed": "order_cancellation.confirmed",
  [PING]: "ping.triggered",
};

/** The Duffel event types an endpoint may subscribe to here. */
export const DUFFEL_EVENT_TYPES: readonly string[] = [...new Set(ORDER_EVENT_TYPES.map((type) => DUFFEL_TYPE[type]).filter((type): type is string => type !== null))];

/** Our event types a Duffel endpoint subscribed to `duffelTypes` takes (stored as its enabled_events). */
export function eventTypesOfDuffel(duffelTypes: readonly string[]): OrderEventType[] {
  return ORDER_EVENT_TYPES.filter((type) => DUFFEL_TYPE[type] !== null && duffelTypes.includes(DUFFEL_TYPE[type]));
}

/** The Duffel event types that our `types` stand for (what a Duffel endpoint shows as its `events`). */
export function duffelTypesOf(types: readonly string[]): string[] {
  return DUFFEL_EVENT_TYPES.filter((duffelType) => types.some((type) => DUFFEL_TYPE[type as WebhookEventType] === duffelType));
}

/**
 * The body a Duffel endpoint receives for a stored event (`payload`: our `{ id, event, created_at,
 * data }`): `{ id, type, api_version, live_mode, idempotency_key, created_at, data: { object } }`,
 * `object` being what our event's `data` shows: the order, or for a cancellation's events the
 * cancellation (Duffel's object of those). The same bytes on every attempt.
 */
function duffelEventBody(payload: string, type: WebhookEventType, liveMode: boolean): string {
  const event = JSON.parse(payload) as { id: string; created_at: string; data: { order_cancellation?: unknown } };
  return JSON.stringify({
    id: event.id,
    type: DUFFEL_TYPE[type] ?? type,
    api_version: "v2",
    live_mode: liveMode,
    // One event, one key: a receiver drops a retry it already handled.
    idempotency_key: event.id,
    created_at: event.created_at,
    data: { object: event.data.order_cancellation ?? event.data },
  });
}

/**
 * `X-Duffel-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<body>">`, keyed by the
 * secret string as shown at creation; during a rotation's overlap, one `v1=` per secret.
 */
function duffelSignedHeaders(secrets: readonly string[], at: Date, body: string): Record<string, string> {
  const timestamp = String(Math.floor(at.getTime() / 1000));
  const signatures = secrets.map((secret) => `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`);
  return { "x-duffel-signature": [`t=${timestamp}`, ...signatures].join(",") };
}

/** Registered with the app's webhook formats when the surface is mounted (compat/index.ts). */
export const duffelWebhookFormat: WebhookDeliveryFormat = { name: DUFFEL_FORMAT, body: duffelEventBody, signedHeaders: duffelSignedHeaders };
