import { z } from "zod";
import { keyPermissionsView } from "../tenancy/key-permissions";
import { metadataView, timestamp } from "./envelope";

const environment = z.enum(["sandbox", "live"]);

/** The owner's tenant object (2.1); a tombstone has `name` and `email` null. */
export const tenantSchema = z
  .object({
    tenantId: z.string(),
    name: z.string().nullable(),
    email: z.string().nullable(),
    slug: z.string(),
    environment,
    status: z.enum(["active", "suspended", "deleted"]),
    metadata: metadataView,
    allowed_suppliers: z.array(z.string()).nullable().meta({ description: "The suppliers the owner allows the tenant; null: all" }),
    platform_accounts: z.array(z.string()).meta({ description: "The suppliers whose platform account (the owner's, POST /v1/platform_accounts) the tenant books through when it has no account of its own there, paying from its wallet" }),
    createdAt: timestamp,
    updatedAt: timestamp,
    deletedAt: timestamp.nullable(),
  })
  .meta({ id: "Tenant" });

/** A key as listed: never its secret. */
export const apiKeySchema = z
  .object({
    keyId: z.string(),
    tenantId: z.string().nullable(),
    label: z.string(),
    prefix: z.string(),
    permissions: keyPermissionsView,
    createdAt: timestamp,
    revokedAt: timestamp.nullable(),
  })
  .meta({ id: "ApiKey" });

/** A key as created: the only answer that shows its secret. */
export const createdApiKeySchema = apiKeySchema
  .extend({ apiKey: z.string().nullable().meta({ description: "The secret, shown only in this answer: null when an Idempotency-Key repeat replays it" }) })
  .meta({ id: "CreatedApiKey" });

/** The tenant's own configuration (2.3). */
export const tenantConfigSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    slug: z.string(),
    environment,
    status: z.enum(["active", "suspended", "disabled"]),
    default_currency: z.string(),
    timezone: z.string(),
    suppliers: z.array(z.string()).meta({ description: "The suppliers searched, in order of preference (ties between equal offers go to the first)" }),
    webhook_url: z.string().nullable(),
    webhook_enabled: z.boolean(),
    metadata: metadataView,
    created_at: timestamp,
    updated_at: timestamp,
    webhook_secret: z.string().optional().meta({ description: "Only in the answer of the update that first set a webhook_url" }),
  })
  .meta({ id: "TenantConfig" });

export const webhookSecretRotationSchema = z
  .object({
    webhook_secret: z.string().nullable().meta({ description: "The new secret, shown only in this answer: null when an Idempotency-Key repeat replays it" }),
    previous_secret_expires_at: timestamp.nullable(),
  })
  .meta({ id: "WebhookSecretRotation" });

const count = z.int().nonnegative();

export const usageSchema = z
  .object({
    tenantId: z.string(),
    apiRequests: count,
    searches: count,
    orders: z.object({ total: count, byStatus: z.record(z.string(), count) }),
    tickets: count,
    walletSpend: z.object({ amount: z.string(), currency: z.string() }),
    webhookDeliveries: z.object({ succeeded: count, failed: count, pending: count }),
  })
  .meta({ id: "TenantUsage" });
