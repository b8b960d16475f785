import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { createCancellationInput } from "../orders/cancellation/cancellation.inputs";
import { cancellationSchema } from "./cancellation.schemas";
import { cancellationView } from "./cancellation.views";
import { ok, okPage, okPageSchema, okSchema } from "./envelope";
import { listQuery, pageRequestFromQuery } from "./list-query";
import { restRoute } from "./route";

const tag = "Orders";

/** Cancellation quotes (docs/rest-api.md#cancellations-with-a-quote): quote, confirm, read. */
export const cancellationRoutes = [
  restRoute({
    method: "POST",
    url: "/v1/air/order_cancellations",
    operation: "quoteOrderCancellation",
    summary: "Quote cancelling an order: the refund it would give, for 15 minutes; nothing changes yet",
    tag,
    body: createCancellationInput,
    status: 201,
    response: okSchema(cancellationSchema),
    // 502 supplier_error, 504 supplier_timeout: a supplier that prices its own cancellations quotes the refund.
    errors: ["not_found", "order_state_conflict", "refund_not_allowed", "supplier_error", "supplier_timeout", "clock_advanced"],
    handle: async ({ ctx, body }) => ok(cancellationView(await ctx.services.cancellations.quote(tenantScope(ctx), body.order_id)), "Cancellation quoted"),
  }),
  restRoute({
    method: "POST",
    url: "/v1/air/order_cancellations/:id/actions/confirm",
    operation: "confirmOrderCancellation",
    summary: "Confirm a quote: a pending order is cancelled, a ticketed one refunded (after the airline's delay) by the quoted amount, once",
    tag,
    response: okSchema(cancellationSchema),
    errors: ["not_found", "cancellation_quote_expired", "order_state_conflict", "refund_not_allowed", "clock_advanced"],
    handle: async ({ ctx, params }) => ok(cancellationView(await ctx.services.cancellations.confirm(tenantScope(ctx), params.id!)), "Cancellation confirmed"),
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/order_cancellations/:id",
    operation: "orderCancellation",
    summary: "Read a cancellation quote",
    tag,
    response: okSchema(cancellationSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => ok(cancellationView(await ctx.services.cancellations.get(tenantScope(ctx), params.id!))),
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/order_cancellations",
    operation: "orderCancellations",
    summary: "List cancellation quotes, newest first, optionally of one order",
    tag,
    query: listQuery.extend({ order_id: z.string().optional() }),
    response: okPageSchema(cancellationSchema),
    errors: ["not_found"],
    handle: async ({ ctx, query }) => okPage(await ctx.services.cancellations.list(tenantScope(ctx), query.order_id, pageRequestFromQuery(query)), cancellationView),
  }),
];
