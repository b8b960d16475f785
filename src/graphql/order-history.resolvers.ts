import { tenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { pageRequestFromArgs, toConnection } from "./connection";

/** An order's history (docs/rest-api.md#an-orders-history): Order.events, thin over OrderHistory. */
export const orderHistoryResolvers: Resolvers = {
  Order: {
    events: async (order, args, ctx) => toConnection(await ctx.services.orderHistory.events(tenantScope(ctx), order.id, pageRequestFromArgs(args, 25))),
  },
  OrderHistoryEvent: {
    data: (event) => event.body.data,
  },
};
