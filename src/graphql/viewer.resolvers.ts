import type { Principal } from "../context/principal";
import type { TenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { toGraphQLEnum } from "./enum-case";

/** The parent of `Viewer`: who called, and the tenant in scope if any. */
export interface ViewerParent {
  principal: Principal;
  scope: TenantScope | null;
}

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
