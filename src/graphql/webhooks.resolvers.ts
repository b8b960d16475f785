import { tenantScope } from "../context/request-context";
import { eventTypesOf } from "../events/events.service";
import { parseCreateWebhookEndpoint, parseUpdateWebhookEndpoint } from "../events/webhook-endpoint.inputs";
import { shownWebhookUrl } from "../events/webhook-url";
import type { Resolvers } from "../generated/graphql";
import { pageRequestFromArgs, toConnection } from "./connection";
import { fromGraphQLEnum, toGraphQLEnum } from "./enum-case";
import { idempotentMutation } from "./idempotent-mutation";

/** GraphQL field names of an endpoint's input, as the domain (REST) spells them. */
const ENDPOINT_FIELDS: Record<string, string> = { url: "url", enabledEvents: "enabled_events", description: "description", enabled: "enabled" };

function endpointBody(input: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(input).map(([field, value]) => [ENDPOINT_FIELDS[field] ?? field, value]));
}

export const webhookResolvers: Resolvers = {
  Query: {
    webhookDeliveries: async (_parent, args, ctx) =>
      toConnection(
        await ctx.services.webhookDeliveries.list(
          tenantScope(ctx),
          { status: args.status ? fromGraphQLEnum(args.status) : undefined, endpointId: args.endpointId ?? undefined },
          pageRequestFromArgs(args),
        ),
      ),
    webhookEndpoints: async (_parent, args, ctx) => toConnection(await ctx.services.webhookEndpoints.list(tenantScope(ctx), pageRequestFromArgs(args))),
    webhookEndpoint: (_parent, { id }, ctx) => ctx.services.webhookEndpoints.find(tenantScope(ctx), id),
    events: async (_parent, args, ctx) =>
      toConnection(
        await ctx.services.events.list(
          tenantScope(ctx),
          {
            types: args.types ? eventTypesOf(args.types, "types") : undefined,
            orderId: args.orderId ?? undefined,
            createdAfter: args.createdAfter ?? undefined,
            createdBefore: args.createdBefore ?? undefined,
            deliverySuccess: args.deliverySuccess ?? undefined,
          },
          pageRequestFromArgs(args),
        ),
      ),
    event: (_parent, { id }, ctx) => ctx.services.events.find(tenantScope(ctx), id),
  },
  Mutation: {
    rotateWebhookSecret: (_parent, _args, ctx) => ctx.services.tenantConfig.rotateWebhookSecret(tenantScope(ctx), ctx.origin),
    redeliverWebhook: (_parent, { id }, ctx) => ctx.services.webhookDeliveries.redeliver(tenantScope(ctx), id),
    createWebhookEndpoint: (_parent, args, ctx) =>
      idempotentMutation(ctx, {
        field: "createWebhookEndpoint",
        args,
        required: false,
        run: () => ctx.services.webhookEndpoints.create(tenantScope(ctx), parseCreateWebhookEndpoint(endpointBody(args.input)), ctx.origin),
        idOf: (endpoint) => endpoint.id,
        load: (id) => ctx.services.webhookEndpoints.get(tenantScope(ctx), id),
      }),
    updateWebhookEndpoint: (_parent, { id, input }, ctx) => ctx.services.webhookEndpoints.update(tenantScope(ctx), id, parseUpdateWebhookEndpoint(endpointBody(input)), ctx.origin),
    deleteWebhookEndpoint: (_parent, { id }, ctx) => ctx.services.webhookEndpoints.delete(tenantScope(ctx), id, ctx.origin),
    rotateWebhookEndpointSecret: (_parent, { id }, ctx) => ctx.services.webhookEndpoints.rotateSecret(tenantScope(ctx), id, ctx.origin),
    pingWebhookEndpoint: (_parent, args, ctx) =>
      idempotentMutation(ctx, {
        field: "pingWebhookEndpoint",
        args,
        required: false,
        run: () => ctx.services.webhookDeliveries.ping(tenantScope(ctx), args.id),
        idOf: (delivery) => delivery.id,
        load: (id) => ctx.services.webhookDeliveries.get(tenantScope(ctx), id),
      }),
  },
  WebhookDelivery: {
    status: (delivery) => toGraphQLEnum(delivery.status),
    attemptLog: (delivery, _args, ctx) => ctx.services.webhookDeliveries.attempts(delivery.id),
  },
  WebhookEndpoint: {
    url: (endpoint) => shownWebhookUrl(endpoint.url),
    // Never a stored secret: only the one a creation just made (shown once).
    secret: (endpoint) => endpoint.issuedSecret ?? null,
  },
  Event: {
    data: (event) => (JSON.parse(event.payload) as { data: Record<string, unknown> }).data,
  },
};
