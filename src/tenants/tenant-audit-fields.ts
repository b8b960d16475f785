import type { Tenant } from "../db/models";
import { shownWebhookUrl } from "../events/webhook-url";
import { asMetadata } from "./metadata";
import { allowedSuppliers, platformAccountsOf } from "./tenant-suppliers";

/**
 * What the audit log records of a tenant (src/audit/), by the API's field names: the owner's
 * fields (`tenantAuditFields`) and the tenant's own configuration (`configAuditFields`). Never a
 * secret: the webhook URL is shown as the API shows it, its credentials hidden.
 */
export function tenantAuditFields(tenant: Tenant) {
  return {
    name: tenant.name,
    email: tenant.email,
    environment: tenant.environment,
    status: tenant.status,
    metadata: asMetadata(tenant.ownerMetadata),
    allowed_suppliers: allowedSuppliers(tenant),
    platform_accounts: platformAccountsOf(tenant),
  };
}

export function configAuditFields(tenant: Tenant) {
  return {
    webhook_url: tenant.webhookUrl === null ? null : shownWebhookUrl(tenant.webhookUrl),
    webhook_enabled: tenant.webhookEnabled,
    default_currency: tenant.defaultCurrency,
    timezone: tenant.timezone,
    metadata: asMetadata(tenant.configMetadata),
    suppliers: tenant.suppliers ?? null,
  };
}
