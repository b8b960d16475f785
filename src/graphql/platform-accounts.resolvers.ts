import type { Resolvers } from "../generated/graphql";
import { toGraphQLEnum } from "./enum-case";
import { supplierAccountInput } from "./supplier-connections.resolvers";

/** The owner's platform accounts (docs/connectors.md#the-owners-platform-account); owner-only (context/operations.ts). */
export const platformAccountResolvers: Resolvers = {
  Query: {
    platformAccounts: (_parent, _args, ctx) => ctx.services.platformAccounts.list(),
  },
  Mutation: {
    createPlatformAccount: (_parent, { input }, ctx) => supplierAccountInput(input, (parsed) => ctx.services.platformAccounts.create(parsed, ctx.origin)),
    deletePlatformAccount: (_parent, { id }, ctx) => ctx.services.platformAccounts.delete(id, ctx.origin),
  },
  PlatformAccount: {
    mode: (account) => toGraphQLEnum(account.mode),
    status: (account) => toGraphQLEnum(account.status),
  },
};
