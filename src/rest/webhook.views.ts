import type { z } from "zod";
import type { WebhookDeliveryRecord } from "../events/webhook-deliveries.service";
import type { WebhookEndpoint } from "../events/webhook-endpoint";
import type { EndpointSecretRotation } from "../events/webhook-endpoints.service";
import { shownWebhookUrl } from "../events/webhook-url";
import type { webhookDeliverySchema, webhookEndpointSchema, webhookEndpointSecretRotationSchema } from "./webhook.schemas";

/** A delivery log item (docs/webhooks.md#settings-and-the-delivery-log); `event_id` is the `webhook-id` every attempt carried. */
export function webhookDeliveryView(delivery: WebhookDeliveryRecord): z.output<typeof webhookDeliverySchema> {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event: delivery.event,
    order_id: delivery.orderId,
    endpoint_id: delivery.endpointId,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
    created_at: delivery.createdAt.toISOString(),
  };
}

/** An endpoint; `secret` only in the answer that made it. */
export function webhookEndpointView(endpoint: WebhookEndpoint): z.output<typeof webhookEndpointSchema> {
  return {
    id: endpoint.id,
    url: shownWebhookUrl(endpoint.url),
    enabled_events: endpoint.enabledEvents,
    description: endpoint.description,
    enabled: endpoint.enabled,
    is_default: endpoint.isDefault,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
    ...(endpoint.issuedSecret && { secret: endpoint.issuedSecret }),
  };
}

export function webhookEndpointSecretRotationView(rotation: EndpointSecretRotation): z.output<typeof webhookEndpointSecretRotationSchema> {
  return { id: rotation.endpointId, secret: rotation.secret, previous_secret_expires_at: rotation.previousSecretExpiresAt?.toISOString() ?? null };
}
