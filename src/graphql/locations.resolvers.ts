import { appError } from "../errors/app-error";
import type { Resolvers } from "../generated/graphql";

const DEFAULT_LIMIT = 10;
const MAX_LIMIT = 15;

export const locationResolvers: Resolvers = {
  Query: {
    locations: (_parent, { query, limit }, ctx) => {
      if (query.trim().length < 2) throw appError("validation_failed", { field: "query", message: "query: must be at least 2 characters" });
      const size = limit ?? DEFAULT_LIMIT;
      if (size < 1 || size > MAX_LIMIT) throw appError("LIMIT_OUT_OF_RANGE", { field: "limit", message: `limit must be between 1 and ${MAX_LIMIT}.` });
      return ctx.services.airports.search(query, size);
    },
  },
  Location: {
    type: () => "airport",
  },
};
