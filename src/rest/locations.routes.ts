import { z } from "zod";
import { DEFAULT_LOCATIONS, MAX_LOCATIONS } from "../locations/airport-index";
import { toLocationView } from "../locations/location-view";
import { ok, okSchema } from "./envelope";
import { locationSchema } from "./location.schemas";
import { listParameters, pageLimit } from "./list-query";
import { restRoute } from "./route";
import { RenderedResponses } from "./rendered-responses";

/** Lookups are pure functions of the query over reference data, so their bodies are kept. */
const renderedLookups = new RenderedResponses(2000);

/** A lookup's text and `limit` (no cursor: one page of the best matches), and nothing else. */
const locationsQuery = listParameters({
  // Two characters besides the whitespace around them, which is trimmed.
  query: z.string({ error: "is required" }).trim().min(2, "must be at least 2 characters").meta({ pattern: "^\\s*\\S[\\s\\S]*\\S\\s*$" }),
  limit: pageLimit(MAX_LOCATIONS).optional(),
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
      const limit = query.limit ?? DEFAULT_LOCATIONS;
      const key = `${limit} ${query.query.toLowerCase()}`;
      return renderedLookups.get(key, () => ok(ctx.services.airports.search(query.query, limit).map(toLocationView)));
    },
  }),
];
