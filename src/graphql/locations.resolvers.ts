import { appError } from "../errors/app-error";
import type { Resolvers } from "../generated/graphql";
import { DEFAULT_LOCATIONS, MAX_LOCATIONS } from "../locations/airport-index";
import { pageSize } from "../pagination/paginate";

export const locationResolvers: Resolvers = {
  Query: {
    locations: (_parent, { query, limit }, ctx) => {
      if (query.trim().length < 2) throw appError("validation_failed", { field: "query", message: "query: must be at least 2 characters" });
      return ctx.services.airports.search(query, pageSize(limit ?? undefined, DEFAULT_LOCATIONS, MAX_LOCATIONS));
    },
  },
  Location: {
    type: () => "airport",
  },
};
