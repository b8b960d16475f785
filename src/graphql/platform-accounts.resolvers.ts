import type { Resolvers } from "../generated/graphql";
import { SUPPLIER_CONNECTION_INPUT } from "../composition/connectors";
import { parseCreateSupplierConnection } from "../gateway/connections/supplier-connection.inputs";
import { toGraphQLEnum } from "./enum-case";

/** The owner's platform accounts (docs/connectors.md#the-owners-platform-account); owner-only (context/operations.ts). */
export const platformAccountResolvers: Resolvers = {
  Query: {
    platformAccounts: (_parent, _args, ctx) => ctx.services.platformAccounts.list(),
  },
  Mutation: {
    createPlatformAccount: (_parent, { input }, ctx) =>
      ctx.services.platformAccounts.create(parseCreateSupplierConnection(SUPPLIER_CONNECTION_INPUT, { supplier: input.supplier, access_token: input.accessToken }), ctx.origin),
    deletePlatformAccount: (_parent, { id }, ctx) => ctx.services.platformAccounts.delete(id, ctx.origin),
  },
  PlatformAccount: {
    mode: (account) => toGraphQLEnum(account.mode),
    status: (account) => toGraphQLEnum(account.status),
  },
};
