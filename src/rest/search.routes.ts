import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { parseSearch, searchBodySchema } from "./search-body";
import { ok, okPage, okPageSchema, okSchema } from "./envelope";
import { offerBSchema, offerRequestSchema, searchResultASchema, supplierResultSchema } from "./offer.schemas";
import { listQuery, pageRequestFromQuery } from "./list-query";
import { offerRequestView, offerViewB, supplierResultsView } from "./offer.views";
import { searchAnswerJsonA } from "./search-answer-json";
import { JsonText } from "./rendered-responses";
import { restRoute } from "./route";

const tag = "Search and offers";

const searchResponseA = okSchema(searchResultASchema);

/** Flight search (docs/rest-api.md#search-and-offers) in both variants, and the offer-request and offer listings. */
export const searchRoutes = [
  restRoute({
    method: "POST",
    url: "/v1/air/search",
    operation: "searchFlights",
    summary: "Search flights (Variant A: fields at top level; Variant B: under `data`)",
    tag,
    body: searchBodySchema,
    parseBody: parseSearch,
    response: z.union([searchResponseA, okSchema(z.array(offerBSchema)).extend({ meta: z.object({ supplier_results: z.array(supplierResultSchema) }) }), okSchema(offerRequestSchema)]).meta({
      description:
        "Variant A: `data` is the search with its offers and `supplier_results`. Variant B: `data` is the offers (`supplier_results` in `meta`), or the offer request with its `supplier_results` with `return_offers: false`.",
    }),
    errors: ["invalid_search_params", "departure_date_out_of_range", "supplier_timeout", "supplier_error", "clock_advanced"],
    handle: async ({ ctx, body }) => {
      const result = await ctx.services.search.search(tenantScope(ctx), body.request);
      if (body.variant === "B") {
        const supplierResults = supplierResultsView(result.supplierResults);
        return body.request.returnOffers
          ? { ...ok(result.offers.map(offerViewB)), meta: { supplier_results: supplierResults } }
          : ok({ ...offerRequestView(result.offerRequest), supplier_results: supplierResults });
      }
      // The hot path's body (~50 offers, ~150 KB): rendered from the search as stored, in one buffer.
      return new JsonText<z.output<typeof searchResponseA>>(searchAnswerJsonA(result));
    },
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/search",
    operation: "offerRequests",
    summary: "List offer requests (searches), newest first",
    tag,
    variant: "B",
    query: listQuery,
    response: okPageSchema(offerRequestSchema),
    handle: async ({ ctx, query }) => okPage(await ctx.services.offers.listRequests(tenantScope(ctx), pageRequestFromQuery(query)), offerRequestView),
  }),
  restRoute({
    method: "GET",
    url: "/v1/air/offers",
    operation: "offers",
    summary: "List offers (Variant B shape), optionally of one offer request",
    tag,
    variant: "B",
    query: listQuery.extend({ offer_request_id: z.string().min(1).optional() }),
    response: okPageSchema(offerBSchema),
    errors: ["not_found"],
    handle: async ({ ctx, query }) =>
      okPage(await ctx.services.offers.list(tenantScope(ctx), query.offer_request_id, pageRequestFromQuery(query)), offerViewB),
  }),
];
