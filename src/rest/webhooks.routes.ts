import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { WEBHOOK_DELIVERY_STATUSES } from "../events/webhook-deliveries.service";
import { ok, okPage, okPageSchema, okSchema } from "./envelope";
import { webhookDeliverySchema } from "./webhook.schemas";
import { listQuery, pageRequestFromQuery } from "./list-query";
import { restRoute } from "./route";
import { webhookDeliveryView } from "./webhook.views";

const tag = "Webhooks";

const deliveryListQuery = listQuery.extend({
  status: z.enum(WEBHOOK_DELIVERY_STATUSES, { message: `must be one of ${WEBHOOK_DELIVERY_STATUSES.join(", ")}` }).optional(),
  endpoint_id: z.string().max(200).optional(),
});

/** The tenant's webhook delivery log and redelivery (docs/webhooks.md#settings-and-the-delivery-log). */
export const webhookRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/webhooks/deliveries",
    operation: "webhookDeliveries",
    summary: "List webhook deliveries, newest first, optionally in one status (pending, succeeded, failed) and to one endpoint",
    tag,
    query: deliveryListQuery,
    response: okPageSchema(webhookDeliverySchema),
    handle: async ({ ctx, query }) => okPage(await ctx.services.webhookDeliveries.list(tenantScope(ctx), { status: query.status, endpointId: query.endpoint_id }, pageRequestFromQuery(query)), webhookDeliveryView),
  }),
  restRoute({
    method: "POST",
    url: "/v1/webhooks/deliveries/:id/redeliver",
    operation: "redeliverWebhook",
    summary: "Send a delivery again now, with a fresh retry schedule (its attempt log is kept)",
    tag,
    response: okSchema(webhookDeliverySchema),
    errors: ["not_found", "webhooks_disabled", "webhook_endpoint_disabled"],
    handle: async ({ ctx, params }) => ok(webhookDeliveryView(await ctx.services.webhookDeliveries.redeliver(tenantScope(ctx), params.id!)), "Redelivery queued"),
  }),
];
