import { allowedSuppliers, platformAccountsOf, shownTenantSuppliers } from "../tenants/tenant-suppliers";
import type { z } from "zod";
import { storedKeyPermissions } from "../tenancy/key-permissions";
import type { ApiKey, Tenant } from "../db/models";
import { asMetadata } from "../tenants/metadata";
import type { TenantUsage } from "../usage/usage.service";
import { formatMinor } from "../money/format";
import type { TenantConfig, WebhookSecretRotation } from "../tenants/tenant-config.service";
import { shownWebhookUrl } from "../events/webhook-url";
import type { apiKeySchema, tenantConfigSchema, tenantSchema, usageSchema, webhookSecretRotationSchema } from "./tenant.schemas";

/** The owner's tenant object (2.1). A tombstone shows no personal data. */
export function tenantView(tenant: Tenant): z.output<typeof tenantSchema> {
  const deleted = tenant.status === "deleted";
  return {
    tenantId: tenant.id,
    name: deleted ? null : tenant.name,
    email: deleted ? null : tenant.email,
    slug: tenant.slug,
    environment: tenant.environment,
    status: tenant.status,
    metadata: asMetadata(tenant.ownerMetadata),
    allowed_suppliers: allowedSuppliers(tenant),
    platform_accounts: platformAccountsOf(tenant),
    createdAt: tenant.createdAt.toISOString(),
    updatedAt: tenant.updatedAt.toISOString(),
    deletedAt: tenant.deletedAt?.toISOString() ?? null,
  };
}

/** A key as listed: never its secret. */
export function apiKeyView(key: ApiKey): z.output<typeof apiKeySchema> {
  return {
    keyId: key.id,
    tenantId: key.tenantId,
    label: key.label,
    prefix: key.prefix,
    permissions: storedKeyPermissions(key.permissions),
    createdAt: key.createdAt.toISOString(),
    revokedAt: key.revokedAt?.toISOString() ?? null,
  };
}

/**
 * The tenant configuration (2.3): what the tenant itself reads at /v1/tenant; with
 * `webhook_secret` only in the answer of the update that made the secret.
 */
/** The tenant's configuration; `defaultSuppliers`: what a tenant that chose none searches. */
export function tenantConfigView(tenant: TenantConfig, defaultSuppliers: readonly string[]): z.output<typeof tenantConfigSchema> {
  return {
    id: tenant.id,
    name: tenant.name,
    slug: tenant.slug,
    environment: tenant.environment,
    status: configStatus(tenant.status),
    default_currency: tenant.defaultCurrency,
    timezone: tenant.timezone,
    suppliers: [...shownTenantSuppliers(tenant, defaultSuppliers)],
    webhook_url: tenant.webhookUrl && shownWebhookUrl(tenant.webhookUrl),
    webhook_enabled: tenant.webhookEnabled,
    metadata: asMetadata(tenant.configMetadata),
    created_at: tenant.createdAt.toISOString(),
    updated_at: tenant.updatedAt.toISOString(),
    ...(tenant.issuedWebhookSecret && { webhook_secret: tenant.issuedWebhookSecret }),
  };
}

export function webhookSecretRotationView(rotation: WebhookSecretRotation): z.output<typeof webhookSecretRotationSchema> {
  return { webhook_secret: rotation.webhookSecret, previous_secret_expires_at: rotation.previousSecretExpiresAt?.toISOString() ?? null };
}

/** Configuration status mirrors the owner's: a tenant being deleted reads `disabled` (docs/authentication.md#tenancy). */
export function configStatus(status: Tenant["status"]): "active" | "suspended" | "disabled" {
  return status === "deleted" ? "disabled" : status;
}

export function usageView(usage: TenantUsage): z.output<typeof usageSchema> {
  return {
    tenantId: usage.tenantId,
    apiRequests: usage.apiRequests,
    searches: usage.searches,
    orders: usage.orders,
    tickets: usage.tickets,
    walletSpend: { amount: formatMinor(usage.walletSpend.amountMinor, usage.walletSpend.currency), currency: usage.walletSpend.currency },
    webhookDeliveries: usage.webhookDeliveries,
  };
}
