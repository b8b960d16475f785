import type { z } from "zod";
import type { SupplierAccount, SupplierConnection } from "../gateway/connections/supplier-connections.service";
import { supplierWebhookPath } from "../gateway/connections/supplier-connection.inputs";
import type { platformAccountSchema, supplierConnectionSchema } from "./supplier-connection.schemas";

/** The owner's platform account: an account's fields alone (its webhooks come to the platform's address). */
export function platformAccountView(account: SupplierAccount): z.output<typeof platformAccountSchema> {
  return {
    id: account.id,
    supplier: account.supplier,
    mode: account.mode,
    created_at: account.createdAt.toISOString(),
    last_used_at: account.lastUsedAt?.toISOString() ?? null,
    status: account.status,
  };
}

/** A tenant's connection: an account's fields, and its own webhook address. */
export function supplierConnectionView(connection: SupplierConnection): z.output<typeof supplierConnectionSchema> {
  return { ...platformAccountView(connection), webhook_path: supplierWebhookPath(connection), webhook_secret_set: connection.webhookSecretSet };
}
