import type { Resolvers } from "../generated/graphql";
import { toGraphQLEnum } from "./enum-case";

export const viewerResolvers: Resolvers = {
  Query: {
    viewer: (_parent, _args, ctx) => ({ principal: ctx.principal, scope: ctx.scope }),
  },
  Viewer: {
    kind: ({ principal }) => toGraphQLEnum(principal.kind),
    keyId: ({ principal }) => principal.keyId,
    tenant: ({ scope }) => scope?.tenant ?? null,
  },
};
