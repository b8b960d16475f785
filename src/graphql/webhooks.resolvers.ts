import { tenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { pageRequestFromArgs, toConnection } from "./connection";
import { fromGraphQLEnum, toGraphQLEnum } from "./enum-case";

export const webhookResolvers: Resolvers = {
  Query: {
    webhookDeliveries: async (_parent, args, ctx) =>
      toConnection(await ctx.services.webhookDeliveries.list(tenantScope(ctx), args.status ? fromGraphQLEnum(args.status) : undefined, pageRequestFromArgs(args))),
  },
  Mutation: {
    rotateWebhookSecret: (_parent, _args, ctx) => ctx.services.tenantConfig.rotateWebhookSecret(tenantScope(ctx)),
    redeliverWebhook: (_parent, { id }, ctx) => ctx.services.webhookDeliveries.redeliver(tenantScope(ctx), id),
  },
  WebhookDelivery: {
    status: (delivery) => toGraphQLEnum(delivery.status),
    attemptLog: (delivery, _args, ctx) => ctx.services.webhookDeliveries.attempts(delivery.id),
  },
};
