import { z } from "zod";
import { ORDER_EVENT_TYPES } from "../events/order-events";
import { WEBHOOK_DELIVERY_STATUSES } from "../events/webhook-deliveries.service";
import { timestamp } from "./envelope";

/** A delivery log item (docs/webhooks.md#settings-and-the-delivery-log). */
export const webhookDeliverySchema = z
  .object({
    id: z.string(),
    event_id: z.string(),
    event: z.enum(ORDER_EVENT_TYPES),
    order_id: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.int(),
    last_status_code: z.int().nullable(),
    last_error: z.string().nullable(),
    next_attempt_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: "WebhookDelivery" });
