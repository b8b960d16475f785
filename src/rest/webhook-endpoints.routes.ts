import { tenantScope } from "../context/request-context";
import { createWebhookEndpointInput, parseCreateWebhookEndpoint, parseUpdateWebhookEndpoint, updateWebhookEndpointInput } from "../events/webhook-endpoint.inputs";
import { ok, okPage, okPageSchema, okSchema } from "./envelope";
import { listQuery, pageRequestFromQuery } from "./list-query";
import { restRoute } from "./route";
import { webhookDeliverySchema, webhookEndpointSchema, webhookEndpointSecretRotationSchema } from "./webhook.schemas";
import { webhookDeliveryView, webhookEndpointSecretRotationView, webhookEndpointView } from "./webhook.views";

const tag = "Webhook endpoints";

/** A tenant's webhook endpoints: its default one (its webhook_url) and up to 16 more, each with the events it takes. */
export const webhookEndpointRoutes = [
  restRoute({
    method: "POST",
    url: "/v1/webhook_endpoints",
    operation: "createWebhookEndpoint",
    summary: "Make an endpoint receiving the events named (or every one); its signing secret is shown only in this answer",
    tag,
    status: 201,
    body: createWebhookEndpointInput,
    parseBody: parseCreateWebhookEndpoint,
    response: okSchema(webhookEndpointSchema),
    errors: ["invalid_field_value", "webhook_endpoint_limit_reached"],
    redactForReplay: (response) => ({ ...response, data: { ...response.data, secret: null } }),
    handle: async ({ ctx, body }) => ok(webhookEndpointView(await ctx.services.webhookEndpoints.create(tenantScope(ctx), body, ctx.origin)), "Webhook endpoint created"),
  }),
  restRoute({
    method: "GET",
    url: "/v1/webhook_endpoints",
    operation: "webhookEndpoints",
    summary: "List the tenant's webhook endpoints, newest first, its default one (its webhook_url) among them",
    tag,
    query: listQuery,
    response: okPageSchema(webhookEndpointSchema),
    handle: async ({ ctx, query }) => okPage(await ctx.services.webhookEndpoints.list(tenantScope(ctx), pageRequestFromQuery(query)), webhookEndpointView),
  }),
  restRoute({
    method: "GET",
    url: "/v1/webhook_endpoints/:id",
    operation: "webhookEndpoint",
    summary: "Read one webhook endpoint",
    tag,
    response: okSchema(webhookEndpointSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => ok(webhookEndpointView(await ctx.services.webhookEndpoints.get(tenantScope(ctx), params.id!))),
  }),
  restRoute({
    method: "PATCH",
    url: "/v1/webhook_endpoints/:id",
    operation: "updateWebhookEndpoint",
    summary: "Change an endpoint's url, enabled_events, description or enabled; the events committed after follow it",
    tag,
    body: updateWebhookEndpointInput,
    parseBody: parseUpdateWebhookEndpoint,
    response: okSchema(webhookEndpointSchema),
    errors: ["not_found", "invalid_field_value"],
    handle: async ({ ctx, params, body }) => ok(webhookEndpointView(await ctx.services.webhookEndpoints.update(tenantScope(ctx), params.id!, body, ctx.origin)), "Webhook endpoint updated"),
  }),
  restRoute({
    method: "DELETE",
    url: "/v1/webhook_endpoints/:id",
    operation: "deleteWebhookEndpoint",
    summary: "Remove an endpoint (its deliveries still waiting fail unsent; the log keeps them); answers it as it was",
    tag,
    response: okSchema(webhookEndpointSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => ok(webhookEndpointView(await ctx.services.webhookEndpoints.delete(tenantScope(ctx), params.id!, ctx.origin)), "Webhook endpoint deleted"),
  }),
  restRoute({
    method: "POST",
    url: "/v1/webhook_endpoints/:id/secret/rotate",
    operation: "rotateWebhookEndpointSecret",
    summary: "Replace the endpoint's signing secret (shown once); the previous one keeps signing for 24 h",
    tag,
    response: okSchema(webhookEndpointSecretRotationSchema),
    errors: ["not_found"],
    redactForReplay: (response) => ({ ...response, data: { ...response.data, secret: null } }),
    handle: async ({ ctx, params }) =>
      ok(webhookEndpointSecretRotationView(await ctx.services.webhookEndpoints.rotateSecret(tenantScope(ctx), params.id!, ctx.origin)), "Webhook endpoint secret rotated"),
  }),
  restRoute({
    method: "POST",
    url: "/v1/webhook_endpoints/:id/actions/ping",
    operation: "pingWebhookEndpoint",
    summary: "Send a ping event to this endpoint alone; answers its delivery (status pending until attempted)",
    tag,
    status: 201,
    response: okSchema(webhookDeliverySchema),
    errors: ["not_found", "webhooks_disabled", "webhook_endpoint_disabled"],
    handle: async ({ ctx, params }) => ok(webhookDeliveryView(await ctx.services.webhookDeliveries.ping(tenantScope(ctx), params.id!)), "Ping queued"),
  }),
];
