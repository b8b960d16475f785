import type { z } from "zod";
import type { WebhookDeliveryRecord } from "../events/webhook-deliveries.service";
import type { webhookDeliverySchema } from "./webhook.schemas";

/** A delivery log item (docs/webhooks.md#settings-and-the-delivery-log); `event_id` is the `webhook-id` every attempt carried. */
export function webhookDeliveryView(delivery: WebhookDeliveryRecord): z.output<typeof webhookDeliverySchema> {
  return {
    id: delivery.id,
    event_id: delivery.eventId,
    event: delivery.event,
    order_id: delivery.orderId,
    status: delivery.status,
    attempts: delivery.attempts,
    last_status_code: delivery.lastStatusCode,
    last_error: delivery.lastError,
    next_attempt_at: delivery.nextAttemptAt?.toISOString() ?? null,
    created_at: delivery.createdAt.toISOString(),
  };
}
