import { tenantScope } from "../../context/request-context";
import { DUFFEL_FORMAT, duffelTypesOf } from "./webhook-format";
import type { WebhookEndpoint } from "../../events/webhook-endpoint";
import { shownWebhookUrl } from "../../events/webhook-url";
import { createWebhookBody, updateWebhookBody, webhookCommand, webhookPatch } from "./inputs";
import { listOf, pageRequest, parse, type Route } from "./route";

/** Endpoints made here are shaped and signed as Duffel's (webhook-format.ts); each surface sees only its own. */
const DUFFEL = DUFFEL_FORMAT;

/** A webhook as Duffel shows it; `secret` only in the answer that made it. */
function webhookView(endpoint: WebhookEndpoint, liveMode: boolean) {
  return {
    id: endpoint.id,
    url: shownWebhookUrl(endpoint.url),
    events: duffelTypesOf(endpoint.enabledEvents),
    active: endpoint.enabled,
    live_mode: liveMode,
    created_at: endpoint.createdAt.toISOString(),
    updated_at: endpoint.updatedAt.toISOString(),
    ...(endpoint.issuedSecret === undefined ? {} : { secret: endpoint.issuedSecret }),
  };
}

const liveMode = (ctx: Parameters<Route["handle"]>[0]["ctx"]) => tenantScope(ctx).tenant.environment === "live";

/** `duffel.webhooks.*`: endpoints on the tenant's webhook machinery that receive Duffel's envelope and signature. */
export const webhookRoutes: Route[] = [
  {
    method: "POST",
    url: "/air/webhooks",
    operation: "createWebhookEndpoint",
    status: 201,
    body: true,
    handle: async ({ ctx, body }) => ({
      data: webhookView(await ctx.services.webhookEndpoints.create(tenantScope(ctx), webhookCommand(parse(createWebhookBody, body)), ctx.origin, DUFFEL), liveMode(ctx)),
    }),
  },
  {
    method: "GET",
    url: "/air/webhooks",
    operation: "webhookEndpoints",
    handle: async ({ ctx, query }) => listOf(await ctx.services.webhookEndpoints.list(tenantScope(ctx), pageRequest(query), DUFFEL), (endpoint) => webhookView(endpoint, liveMode(ctx))),
  },
  {
    method: "PATCH",
    url: "/air/webhooks/:id",
    operation: "updateWebhookEndpoint",
    body: true,
    handle: async ({ ctx, params, body }) => ({
      data: webhookView(await ctx.services.webhookEndpoints.update(tenantScope(ctx), params.id!, webhookPatch(parse(updateWebhookBody, body)), ctx.origin, DUFFEL), liveMode(ctx)),
    }),
  },
  {
    method: "DELETE",
    url: "/air/webhooks/:id",
    operation: "deleteWebhookEndpoint",
    // The client throws on an empty body: the deleted webhook, as it was.
    handle: async ({ ctx, params }) => ({ data: webhookView(await ctx.services.webhookEndpoints.delete(tenantScope(ctx), params.id!, ctx.origin, DUFFEL), liveMode(ctx)) }),
  },
  {
    method: "POST",
    url: "/air/webhooks/:id/actions/ping",
    operation: "pingWebhookEndpoint",
    handle: async ({ ctx, params }) => {
      const scope = tenantScope(ctx);
      await ctx.services.webhookEndpoints.get(scope, params.id!, DUFFEL);
      await ctx.services.webhookDeliveries.ping(scope, params.id!);
      return { data: {} };
    },
  },
];
