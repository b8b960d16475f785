import type { Resolvers } from "../generated/graphql";
import { toGraphQLEnum } from "./enum-case";

/** The suppliers' health, for the owner (the twin of GET /v1/suppliers). */
export const supplierResolvers: Resolvers = {
  Query: {
    suppliers: async (_parent, _args, ctx) =>
      (await ctx.services.supplierHealth.figures()).map((figures) => ({
        ...figures,
        status: toGraphQLEnum(figures.status),
        circuit: toGraphQLEnum(figures.circuit),
        circuits: { sandbox: toGraphQLEnum(figures.circuits.sandbox), live: toGraphQLEnum(figures.circuits.live) },
      })),
  },
};
