import { tenantScope } from "../../context/request-context";
import { airlineChangeView } from "../../rest/airline-change.views";
import { orderChangeOfferView, orderChangeRequestView, orderChangeView } from "../../rest/order-change.views";
import { airlineChangesQuery, changeOffersQuery, changeRequestBody, changeRequestCommand, confirmChangeBody, createChangeBody, updateAirlineChangeBody } from "./inputs";
import { parse, type Route } from "./route";

/** A list the client reads whole: a change request's offers, an order's airline changes (a few each). */
const wholeList = <T>(items: T[]) => ({ data: items, meta: { after: null, before: null, limit: items.length } });

/**
 * Order changes (a ticketed order's slices for others) and airline-initiated changes, on the same
 * domain services as /v1's, in /v1 Variant A's shapes, which are Duffel's.
 */
export const changeRoutes: Route[] = [
  {
    method: "POST",
    url: "/air/order_change_requests",
    operation: "requestOrderChange",
    status: 201,
    body: true,
    handle: async ({ ctx, body }) => ({ data: orderChangeRequestView(await ctx.services.orderChangeRequests.request(tenantScope(ctx), changeRequestCommand(parse(changeRequestBody, body)))) }),
  },
  {
    method: "GET",
    url: "/air/order_change_requests/:id",
    operation: "orderChangeRequest",
    handle: async ({ ctx, params }) => ({ data: orderChangeRequestView(await ctx.services.orderChangeRequests.get(tenantScope(ctx), params.id!)) }),
  },
  {
    method: "GET",
    url: "/air/order_change_offers",
    operation: "orderChangeRequest",
    handle: async ({ ctx, query }) => {
      const { order_change_request_id: requestId } = parse(changeOffersQuery, { order_change_request_id: query.order_change_request_id });
      return wholeList(orderChangeRequestView(await ctx.services.orderChangeRequests.get(tenantScope(ctx), requestId)).order_change_offers);
    },
  },
  {
    method: "GET",
    url: "/air/order_change_offers/:id",
    operation: "orderChangeOffer",
    handle: async ({ ctx, params }) => ({ data: orderChangeOfferView(await ctx.services.orderChangeRequests.offer(tenantScope(ctx), params.id!)) }),
  },
  {
    method: "POST",
    url: "/air/order_changes",
    operation: "createOrderChange",
    status: 201,
    body: true,
    handle: async ({ ctx, body }) => ({
      data: orderChangeView(await ctx.services.orderChangeConfirmations.create(tenantScope(ctx), parse(createChangeBody, body).data.selected_order_change_offer)),
    }),
  },
  {
    method: "GET",
    url: "/air/order_changes/:id",
    operation: "orderChange",
    handle: async ({ ctx, params }) => ({ data: orderChangeView(await ctx.services.orderChangeConfirmations.get(tenantScope(ctx), params.id!)) }),
  },
  {
    method: "POST",
    url: "/air/order_changes/:id/actions/confirm",
    operation: "confirmOrderChange",
    body: true,
    handle: async ({ ctx, params, body }) => ({
      data: orderChangeView(await ctx.services.orderChangeConfirmations.confirm(tenantScope(ctx), params.id!, parse(confirmChangeBody, body).data.payment ?? null)),
    }),
  },
  {
    method: "GET",
    url: "/air/airline_initiated_changes",
    operation: "order",
    handle: async ({ ctx, query }) => {
      const { order_id: orderId } = parse(airlineChangesQuery, { order_id: query.order_id });
      return wholeList((await ctx.services.orders.detail(tenantScope(ctx), orderId)).airlineInitiatedChanges.map(airlineChangeView));
    },
  },
  {
    method: "POST",
    url: "/air/airline_initiated_changes/:id/actions/accept",
    operation: "acceptAirlineInitiatedChange",
    handle: async ({ ctx, params }) => ({ data: airlineChangeView(await ctx.services.airlineChanges.accept(tenantScope(ctx), params.id!)) }),
  },
  {
    method: "PATCH",
    url: "/air/airline_initiated_changes/:id",
    // Answering a change outside the API is answering it: the acceptance's permission.
    operation: "acceptAirlineInitiatedChange",
    body: true,
    handle: async ({ ctx, params, body }) => ({
      data: airlineChangeView(await ctx.services.airlineChanges.recordAction(tenantScope(ctx), params.id!, parse(updateAirlineChangeBody, body).data.action_taken)),
    }),
  },
];
