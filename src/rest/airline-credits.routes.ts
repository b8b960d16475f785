import { tenantScope } from "../context/request-context";
import { airlineCreditView } from "../orders/presentation/order-event-payload";
import { airlineCreditSchema } from "./airline-credit.schemas";
import { okPage, okPageSchema } from "./envelope";
import { listQuery, pageRequestFromQuery } from "./list-query";
import { restRoute } from "./route";

/** The tenant's airline credits: what airlines gave instead of cash when they refunded a cancelled order. */
export const airlineCreditRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/airline_credits",
    operation: "airlineCredits",
    summary: "Credits airlines gave instead of cash for refunded orders, newest first",
    tag: "Orders",
    query: listQuery,
    response: okPageSchema(airlineCreditSchema),
    handle: async ({ ctx, query }) => okPage(await ctx.services.airlineCredits.list(tenantScope(ctx), pageRequestFromQuery(query)), airlineCreditView),
  }),
];
