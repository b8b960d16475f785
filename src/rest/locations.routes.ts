import { z } from "zod";
import { DEFAULT_LOCATIONS, MAX_LOCATIONS } from "../locations/airport-index";
import { toLocationView } from "../locations/location-view";
import { pageSize } from "../pagination/paginate";
import { ok, okSchema } from "./envelope";
import { listQuery } from "./list-query";
import { locationSchema } from "./location.schemas";
import { restRoute } from "./route";
import { RenderedResponses } from "./rendered-responses";


/** Lookups are pure functions of the query over reference data, so their bodies are kept. */
const renderedLookups = new RenderedResponses(2000);

/** A list's `limit` (no cursor: one page of the best matches) and the text looked up. */
const locationsQuery = listQuery.pick({ limit: true }).extend({
  query: z.string({ error: "is required" }).trim().min(2, "must be at least 2 characters"),
});

/** Airport lookup for origin and destination inputs (docs/rest-api.md#locations): `data` is the array. */
export const locationRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/air/locations",
    operation: "locations",
    summary: "Find airports by IATA code, name or city (exact code first, then prefix, then substring)",
    tag: "Locations",
    query: locationsQuery,
    response: okSchema(z.array(locationSchema)),
    handle: async ({ ctx, query }) => {
      // Digits only, as on every list: Number() would also take "1e1", "0x0A" or "10.0" for 10.
      const limit = pageSize(query.limit === undefined ? undefined : /^\d+$/.test(query.limit) ? Number(query.limit) : Number.NaN, DEFAULT_LOCATIONS, MAX_LOCATIONS);
      const key = `${limit} ${query.query.toLowerCase()}`;
      return renderedLookups.get(key, () => ok(ctx.services.airports.search(query.query, limit).map(toLocationView)));
    },
  }),
];
