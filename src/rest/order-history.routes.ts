import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { ORDER_EVENT_TYPES } from "../events/order-events";
import { okPage, okPageSchema, timestamp } from "./envelope";
import { listQuery, pageRequestFromQuery } from "./list-query";
import { restRoute } from "./route";

/** An event of an order's history, exactly as its webhook carried it. */
const orderEventSchema = z
  .object({
    id: z.string(),
    event: z.enum(ORDER_EVENT_TYPES),
    created_at: timestamp,
    data: z.record(z.string(), z.unknown()).meta({ description: "The order as the event left it (Variant A names), plus what the event adds" }),
  })
  .meta({ id: "OrderEvent" });

/** An order's history (docs/rest-api.md#an-orders-history). */
export const orderHistoryRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/air/orders/:id/events",
    operation: "order",
    operationId: "orderHistory",
    summary: "The order's events, oldest first, each as its webhook carried it",
    tag: "Orders",
    query: listQuery,
    response: okPageSchema(orderEventSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params, query }) => okPage(await ctx.services.orderHistory.events(tenantScope(ctx), params.id!, pageRequestFromQuery(query)), (event) => event.body),
  }),
];
