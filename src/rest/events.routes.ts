import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { appError } from "../errors/app-error";
import type { EventFilter, StoredEvent } from "../events/events.service";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../events/webhook-events";
import { okPageOfTexts, okPageSchema, okSchema, okText } from "./envelope";
import { listQuery, pageRequestFromQuery } from "./list-query";
import { restRoute } from "./route";
import { eventSchema } from "./webhook.schemas";

const tag = "Events";

/** Event types, the parameter repeated (`?type=a&type=b`) or comma-separated (`?type=a,b`), each trimmed. */
const eventTypes = z.preprocess(
  (value) => (Array.isArray(value) ? value : typeof value === "string" ? [value] : value),
  z
    .array(z.string())
    .max(100)
    .transform((values) => values.flatMap((value) => value.split(",")).map((type) => type.trim()))
    .superRefine((types, context) => {
      const unknown = types.find((type) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(type));
      if (unknown !== undefined) context.addIssue({ code: "custom", message: `${JSON.stringify(unknown)} is not an event type: name some of ${WEBHOOK_EVENT_TYPES.join(", ")}` });
    })
    .meta({ items: { enum: [...WEBHOOK_EVENT_TYPES] } }),
);

const eventListQuery = listQuery.extend({
  type: eventTypes.optional().meta({ description: "One or several event types, the parameter repeated (or comma-separated); ping only when named" }),
  order_id: z.string().max(200).optional(),
  created_after: z.iso.datetime({ offset: true }).optional().meta({ description: "Events made after this instant (ISO 8601), not at it" }),
  created_before: z.iso.datetime({ offset: true }).optional().meta({ description: "Events made before this instant (ISO 8601), not at it" }),
  delivery_success: z.enum(["true", "false"]).optional().meta({ description: "true: every delivery of the event succeeded; false: one has not (pending or failed)" }),
});

function eventFilterOf(query: z.output<typeof eventListQuery>): EventFilter {
  return {
    types: query.type === undefined ? undefined : [...new Set(query.type as WebhookEventType[])],
    orderId: query.order_id,
    createdAfter: query.created_after === undefined ? undefined : new Date(query.created_after),
    createdBefore: query.created_before === undefined ? undefined : new Date(query.created_before),
    deliverySuccess: query.delivery_success === undefined ? undefined : query.delivery_success === "true",
  };
}

const bodyOf = (event: StoredEvent) => event.payload;

/** The tenant's events, each exactly as its webhooks carried it: to catch up on what a receiver missed. */
export const eventRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/events",
    operation: "events",
    summary: "List the tenant's events, newest first, each the webhook body exactly as delivered",
    tag,
    query: eventListQuery,
    response: okPageSchema(eventSchema),
    handle: async ({ ctx, query }) => okPageOfTexts(await ctx.services.events.list(tenantScope(ctx), eventFilterOf(query), pageRequestFromQuery(query)), bodyOf),
  }),
  restRoute({
    method: "GET",
    url: "/v1/events/:id",
    operation: "event",
    summary: "One event, by its id (the webhook-id header of its deliveries), exactly as delivered",
    tag,
    response: okSchema(eventSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => {
      const event = await ctx.services.events.find(tenantScope(ctx), params.id!);
      if (!event) throw appError("not_found");
      return okText(bodyOf(event));
    },
  }),
];
