import { authorize } from "../context/authorize";
import { tenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { asMetadata } from "../tenants/metadata";
import { namesWebhookSettings, parseTenantConfigPatch } from "../tenants/tenant-config.inputs";
import { shownWebhookUrl } from "../events/webhook-url";
import { configStatus } from "../rest/tenant.views";
import { toGraphQLEnum } from "./enum-case";
import { shownTenantSuppliers } from "../tenants/tenant-suppliers";

/** GraphQL field names of the configuration patch, as the domain (REST) spells them. */
const PATCH_FIELDS = {
  webhookUrl: "webhook_url",
  webhookEnabled: "webhook_enabled",
  defaultCurrency: "default_currency",
  timezone: "timezone",
  metadata: "metadata",
  suppliers: "suppliers",
} as const;

export const tenantConfigResolvers: Resolvers = {
  Mutation: {
    updateTenantConfig: async (_parent, { input }, ctx) => {
      const patch = parseTenantConfigPatch(
        Object.fromEntries(Object.entries(input).map(([field, value]) => [PATCH_FIELDS[field as keyof typeof PATCH_FIELDS] ?? field, value])),
      );
      if (namesWebhookSettings(patch)) await authorize(ctx, "updateWebhookSettings");
      return ctx.services.tenantConfig.update(tenantScope(ctx), patch, ctx.origin);
    },
  },
  TenantConfig: {
    status: (tenant) => toGraphQLEnum(configStatus(tenant.status)),
    environment: (tenant) => toGraphQLEnum(tenant.environment),
    metadata: (tenant) => asMetadata(tenant.configMetadata),
    suppliers: (tenant, _args, ctx) => [...shownTenantSuppliers(tenant, ctx.services.gateway.searches.defaultSuppliers)],
    webhookUrl: (tenant) => tenant.webhookUrl && shownWebhookUrl(tenant.webhookUrl),
    // Never the stored secret: only the one an update just made (shown once).
    webhookSecret: (tenant) => tenant.issuedWebhookSecret ?? null,
  },
};
