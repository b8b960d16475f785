import { authorize } from "../context/authorize";
import { tenantScope } from "../context/request-context";
import { namesWebhookSettings, parseTenantConfigPatch, updateTenantConfigInput } from "../tenants/tenant-config.inputs";
import { ok, okSchema } from "./envelope";
import { tenantConfigSchema, webhookSecretRotationSchema } from "./tenant.schemas";
import { restRoute } from "./route";
import { tenantConfigView, webhookSecretRotationView } from "./tenant.views";

const tag = "Tenant configuration";

/** The calling tenant's own configuration (docs/rest-api.md#tenant-configuration). */
export const tenantConfigRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/tenant",
    operation: "tenantConfig",
    summary: "Read the calling tenant's configuration",
    tag,
    response: okSchema(tenantConfigSchema),
    handle: async ({ ctx }) => ok(tenantConfigView(ctx.services.tenantConfig.get(tenantScope(ctx)), ctx.services.gateway.searches.defaultSuppliers)),
  }),
  restRoute({
    method: "PATCH",
    url: "/v1/tenant",
    operation: "updateTenantConfig",
    summary: "Change webhook_url, webhook_enabled, default_currency, timezone or metadata",
    tag,
    body: updateTenantConfigInput,
    parseBody: parseTenantConfigPatch,
    // Every invalid field here is 422 invalid_field_value, text holding U+0000 included (docs/rest-api.md#tenant-configuration).
    validatesNulText: true,
    response: okSchema(tenantConfigSchema),
    errors: ["invalid_field_value", "currency_locked", "amount_too_large", "supplier_not_allowed"],
    handle: async ({ ctx, body }) => {
      if (namesWebhookSettings(body)) await authorize(ctx, "updateWebhookSettings");
      return ok(tenantConfigView(await ctx.services.tenantConfig.update(tenantScope(ctx), body, ctx.origin), ctx.services.gateway.searches.defaultSuppliers), "Tenant updated");
    },
  }),
  restRoute({
    method: "POST",
    url: "/v1/tenant/webhook_secret/rotate",
    operation: "rotateWebhookSecret",
    summary: "Replace the webhook signing secret (shown once); the previous one keeps signing for 24 h",
    tag,
    response: okSchema(webhookSecretRotationSchema),
    redactForReplay: (response) => ({ ...response, data: { ...response.data, webhook_secret: null } }),
    handle: async ({ ctx }) => ok(webhookSecretRotationView(await ctx.services.tenantConfig.rotateWebhookSecret(tenantScope(ctx), ctx.origin)), "Webhook secret rotated"),
  }),
];
