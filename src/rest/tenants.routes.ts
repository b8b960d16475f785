import { ok, okPage, okPageSchema, okSchema } from "./envelope";
import { apiKeySchema, createdApiKeySchema, tenantSchema, usageSchema } from "./tenant.schemas";
import { listQuery, pageRequestFromQuery } from "./list-query";
import { restRoute } from "./route";
import { apiKeyView, tenantView, usageView } from "./tenant.views";
import { createApiKeyInput, createTenantInput, parseCreateApiKeyInput, updateTenantInput } from "../tenants/tenant.inputs";

const tag = "Tenants (owner)";

/** Owner-only tenant management (docs/rest-api.md#tenants-and-keys). */
export const tenantRoutes = [
  restRoute({
    method: "POST",
    url: "/v1/tenants",
    operation: "createTenant",
    summary: "Create a tenant",
    tag,
    body: createTenantInput,
    status: 201,
    response: okSchema(tenantSchema),
    // 422 invalid_field_value: a name or a metadata key holding an invisible or direction-changing character.
    errors: ["invalid_field_value"],
    handle: async ({ ctx, body }) => ok(tenantView(await ctx.services.tenants.create(body, ctx.origin)), "Tenant created"),
  }),
  restRoute({
    method: "GET",
    url: "/v1/tenants",
    operation: "tenants",
    summary: "List tenants, newest first",
    tag,
    query: listQuery,
    response: okPageSchema(tenantSchema),
    handle: async ({ ctx, query }) => okPage(await ctx.services.tenants.list(pageRequestFromQuery(query)), tenantView),
  }),
  restRoute({
    method: "GET",
    url: "/v1/tenants/:id",
    operation: "tenant",
    summary: "Read a tenant (or its tombstone)",
    tag,
    response: okSchema(tenantSchema),
    errors: ["tenant_not_found"],
    handle: async ({ ctx, params }) => ok(tenantView(await ctx.services.tenants.get(params.id!))),
  }),
  restRoute({
    method: "PATCH",
    url: "/v1/tenants/:id",
    operation: "updateTenant",
    summary: "Suspend, reactivate, rename or re-address a tenant, or set the suppliers it may use (allowed_suppliers)",
    tag,
    body: updateTenantInput,
    response: okSchema(tenantSchema),
    errors: ["tenant_not_found", "tenant_deleted", "invalid_field_value"],
    handle: async ({ ctx, params, body }) => ok(tenantView(await ctx.services.tenants.update(params.id!, body, ctx.origin)), "Tenant updated"),
  }),
  restRoute({
    method: "DELETE",
    url: "/v1/tenants/:id",
    operation: "deleteTenant",
    summary: "Delete a tenant and all its data, keeping a tombstone",
    tag,
    response: okSchema(tenantSchema),
    errors: ["tenant_not_found", "tenant_deleted"],
    handle: async ({ ctx, params }) => ok(tenantView(await ctx.services.tenants.delete(params.id!, ctx.origin)), "Tenant deleted"),
  }),
  restRoute({
    method: "POST",
    url: "/v1/tenants/:id/keys",
    operation: "createTenantApiKey",
    summary: "Issue an API key, with permissions per resource (none: full access); the secret is shown only in this response",
    tag,
    body: createApiKeyInput,
    parseBody: parseCreateApiKeyInput,
    status: 201,
    response: okSchema(createdApiKeySchema),
    errors: ["tenant_not_found", "tenant_deleted", "invalid_field_value"],
    redactForReplay: (response) => ({ ...response, data: { ...response.data, apiKey: null } }),
    handle: async ({ ctx, params, body }) => {
      const { key, secret } = await ctx.services.apiKeys.create(params.id!, body, ctx.origin);
      return ok({ ...apiKeyView(key), apiKey: secret }, "API key created");
    },
  }),
  restRoute({
    method: "GET",
    url: "/v1/tenants/:id/keys",
    operation: "tenantApiKeys",
    summary: "List a tenant's keys (never their secrets)",
    tag,
    query: listQuery,
    response: okPageSchema(apiKeySchema),
    errors: ["tenant_not_found"],
    handle: async ({ ctx, params, query }) => okPage(await ctx.services.apiKeys.list(params.id!, pageRequestFromQuery(query)), apiKeyView),
  }),
  restRoute({
    method: "DELETE",
    url: "/v1/tenants/:id/keys/:keyId",
    operation: "revokeTenantApiKey",
    summary: "Revoke a key at once",
    tag,
    response: okSchema(apiKeySchema),
    errors: ["tenant_not_found", "not_found"],
    handle: async ({ ctx, params }) => ok(apiKeyView(await ctx.services.apiKeys.revoke(params.id!, params.keyId!, ctx.origin)), "API key revoked"),
  }),
  restRoute({
    method: "GET",
    url: "/v1/tenants/:id/usage",
    operation: "tenantUsage",
    summary: "A tenant's usage since creation",
    tag,
    response: okSchema(usageSchema),
    errors: ["tenant_not_found"],
    handle: async ({ ctx, params }) => ok(usageView(await ctx.services.usage.forTenant(params.id!))),
  }),
];
