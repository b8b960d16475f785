import { requirePermission } from "../context/authorize";
import { FULL_ACCESS } from "../tenancy/key-permissions";
import type { Resolvers } from "../generated/graphql";
import { toGraphQLEnum } from "./enum-case";
import { graphQLPermissions } from "./key-permissions";

export const viewerResolvers: Resolvers = {
  Query: {
    viewer: (_parent, _args, ctx) => ({ principal: ctx.principal, scope: ctx.scope }),
  },
  Viewer: {
    kind: ({ principal }) => toGraphQLEnum(principal.kind),
    keyId: ({ principal }) => principal.keyId,
    // The tenant's configuration: what GET /v1/tenant shows, so a key needs what that operation needs.
    tenant: ({ principal, scope }) => {
      requirePermission(principal, "tenantConfig");
      return scope?.tenant ?? null;
    },
    permissions: ({ principal }) => graphQLPermissions(principal.kind === "tenant" ? principal.permissions : FULL_ACCESS),
  },
};
