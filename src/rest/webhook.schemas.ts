import { z } from "zod";
import { SUBSCRIBABLE_EVENT_TYPES } from "../events/webhook-endpoint";
import { WEBHOOK_EVENT_TYPES } from "../events/webhook-events";
import { WEBHOOK_DELIVERY_STATUSES } from "../events/webhook-deliveries.service";
import { timestamp } from "./envelope";

/** A delivery log item (docs/webhooks.md#settings-and-the-delivery-log). */
export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    event_id: z.string(),
    event: z.enum(WEBHOOK_EVENT_TYPES),
    order_id: z.string().nullable().meta({ description: "Null for a ping or a wallet event" }),
    endpoint_id: z.string().meta({ description: "The webhook endpoint it went to (whe_…)" }),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.int(),
    last_status_code: z.int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: "WebhookDelivery" });

/** An event as its webhooks carried it: the body of each delivery, byte for byte. */
export const eventSchema = z
  .object({
    id: z.string().meta({ description: "The event's id: the webhook-id header of each of its deliveries" }),
    event: z.enum(WEBHOOK_EVENT_TYPES),
    created_at: timestamp,
    data: z.record(z.string(), z.unknown()).meta({
      description: "An order event: the order as the event left it (Variant A names), plus what the event adds. A wallet event: the wallet as the change left it (tenant_id, balance, currency, credit_limit, reserved, available, low_balance_threshold), plus what the event adds. A ping: { endpoint_id }",
    }),
  })
  .meta({ id: "Event" });

const enabledEvents = z.array(z.enum(SUBSCRIBABLE_EVENT_TYPES as [string, ...string[]])).meta({ description: 'The event types it receives, or ["*"]: every one' });

/** A webhook endpoint (never its stored secret). */
export const webhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    enabled_events: enabledEvents,
    description: z.string().nullable(),
    enabled: z.boolean(),
    is_default: z.boolean().meta({ description: "The tenant's own webhook_url, webhook_enabled and secret (PATCH /v1/tenant), shown as an endpoint that receives every event" }),
    created_at: timestamp,
    updated_at: timestamp,
    secret: z.string().nullable().optional().meta({
      description: "The signing secret (whsec_…): only in the answer that made the endpoint, null when an Idempotency-Key repeat replays it",
    }),
  })
  .meta({ id: "WebhookEndpoint" });

export const webhookEndpointSecretRotationSchema = z
  .object({
    id: z.string().meta({ description: "The endpoint's id" }),
    secret: z.string().nullable().meta({ description: "The new secret, shown only in this answer: null when an Idempotency-Key repeat replays it" }),
    previous_secret_expires_at: timestamp.nullable().meta({ description: "Until then the previous secret signs every delivery too" }),
  })
  .meta({ id: "WebhookEndpointSecretRotation" });
