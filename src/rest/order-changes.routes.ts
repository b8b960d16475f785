import { tenantScope } from "../context/request-context";
import { changeRequestInput, confirmChangeInput, createChangeInput, fromChangeRequestInput, fromConfirmChangeInput } from "../order-changes/order-change.inputs";
import { ok, okSchema } from "./envelope";
import { orderChangeOfferSchema, orderChangeRequestSchema, orderChangeSchema } from "./order-change.schemas";
import { orderChangeOfferView, orderChangeRequestView, orderChangeView } from "./order-change.views";
import { restRoute } from "./route";

const tag = "Order changes";

/** Changing a ticketed order's slices (Variant A's order change flow, docs/rest-api.md#order-changes). */
export const orderChangeRoutes = [
  restRoute({
    method: "POST",
    url: "/v1/air/order_change_requests",
    operation: "requestOrderChange",
    summary: "Ask to change a ticketed order's slices: the airline's offers for the new slices, priced (nothing changes yet)",
    tag,
    body: changeRequestInput,
    status: 201,
    response: okSchema(orderChangeRequestSchema),
    errors: ["not_found", "change_not_allowed", "invalid_field_value", "invalid_search_params", "departure_date_out_of_range", "unsupported_by_supplier"],
    handle: async ({ ctx, body }) => ok(orderChangeRequestView(await ctx.services.orderChangeRequests.request(tenantScope(ctx), fromChangeRequestInput(body))), "Order change request created"),
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/order_change_requests/:id",
    operation: "orderChangeRequest",
    summary: "Read an order change request with its offers",
    tag,
    response: okSchema(orderChangeRequestSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => ok(orderChangeRequestView(await ctx.services.orderChangeRequests.get(tenantScope(ctx), params.id!))),
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/order_change_offers/:id",
    operation: "orderChangeOffer",
    summary: "Read an order change offer",
    tag,
    response: okSchema(orderChangeOfferSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => ok(orderChangeOfferView(await ctx.services.orderChangeRequests.offer(tenantScope(ctx), params.id!))),
  }),
  restRoute({
    method: "POST",
    url: "/v1/air/order_changes",
    operation: "createOrderChange",
    summary: "Choose an order change offer: a change to confirm (the same change for every request naming the offer)",
    tag,
    body: createChangeInput,
    status: 201,
    response: okSchema(orderChangeSchema),
    errors: ["not_found", "change_offer_expired"],
    handle: async ({ ctx, body }) => ok(orderChangeView(await ctx.services.orderChangeConfirmations.create(tenantScope(ctx), body.selected_order_change_offer)), "Order change created"),
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/order_changes/:id",
    operation: "orderChange",
    summary: "Read an order change",
    tag,
    response: okSchema(orderChangeSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => ok(orderChangeView(await ctx.services.orderChangeConfirmations.get(tenantScope(ctx), params.id!))),
  }),
  restRoute({
    method: "POST",
    url: "/v1/air/order_changes/:id/actions/confirm",
    operation: "confirmOrderChange",
    summary: "Confirm an order change: the order takes the new slices, seats move, the wallet pays or is credited once; e-tickets are reissued after the airline's delay",
    tag,
    body: confirmChangeInput,
    response: okSchema(orderChangeSchema),
    // 503 service_unavailable: the confirmation stalled past its seat exchange's lease and was not made (a retry confirms it).
    errors: ["not_found", "change_offer_expired", "change_not_allowed", "order_state_conflict", "payment_amount_mismatch", "insufficient_balance", "offer_no_longer_available", "service_unavailable"],
    handle: async ({ ctx, params, body }) =>
      ok(orderChangeView(await ctx.services.orderChangeConfirmations.confirm(tenantScope(ctx), params.id!, fromConfirmChangeInput(body))), "Order change confirmed"),
  }),
];
