import { tenantScope } from "../context/request-context";
import { ok, okSchema } from "./envelope";
import { batchOfferReadSchema, batchOfferRequestSchema } from "./batch-offer-request.schemas";
import { batchOfferReadView, batchOfferRequestView } from "./batch-offer-request.views";
import { restRoute } from "./route";
import { parseSearch, searchBodySchema } from "./search-body";

const tag = "Search and offers";

/** Batch offer requests (docs/gateway.md#batch-offer-requests): a search read a supplier's batch at a time. */
export const batchOfferRequestRoutes = [
  restRoute({
    method: "POST",
    url: "/v1/air/batch_offer_requests",
    operation: "createBatchOfferRequest",
    summary: "Start a search whose offers are read a supplier's batch at a time (the search body, either variant)",
    tag,
    body: searchBodySchema,
    parseBody: parseSearch,
    status: 201,
    response: okSchema(batchOfferRequestSchema),
    errors: ["invalid_search_params", "departure_date_out_of_range", "clock_advanced"],
    handle: async ({ ctx, body }) => ok(batchOfferRequestView(await ctx.services.batchOfferRequests.create(tenantScope(ctx), body.request)), "Batch offer request created"),
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/batch_offer_requests/:id",
    operation: "batchOfferRequest",
    summary: "The batches that arrived since the last read; waits for the next one, up to the search's deadline",
    tag,
    response: okSchema(batchOfferReadSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => ok(batchOfferReadView(await ctx.services.batchOfferRequests.next(tenantScope(ctx), params.id!))),
  }),
];
