import { tenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import type { OrderDetail } from "../orders/core/order";
import type { OrderEventUpdate } from "../orders/history/order-feed";

/** Order subscriptions (graphql-ws): thin over OrderFeed; the guard has resolved the tenant scope. */
export const orderSubscriptionResolvers: Resolvers = {
  Subscription: {
    orderStatusChanged: {
      subscribe: (_parent, { orderId }, ctx) => ctx.services.orderFeed.orderStates(tenantScope(ctx), orderId),
      resolve: (order: OrderDetail) => order,
    },
    orderEvents: {
      subscribe: (_parent, _args, ctx) => ctx.services.orderFeed.tenantEvents(tenantScope(ctx)),
      resolve: (event: OrderEventUpdate) => event,
    },
  },
};
