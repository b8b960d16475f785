import type { z } from "zod";
import type { SupplierConnection } from "../gateway/connections/supplier-connections.service";
import { supplierWebhookPath } from "../gateway/connections/supplier-connection.inputs";
import type { supplierConnectionSchema } from "./supplier-connection.schemas";

export function supplierConnectionView(connection: SupplierConnection): z.output<typeof supplierConnectionSchema> {
  return {
    id: connection.id,
    supplier: connection.supplier,
    mode: connection.mode,
    created_at: connection.createdAt.toISOString(),
    last_used_at: connection.lastUsedAt?.toISOString() ?? null,
    status: connection.status,
    webhook_path: supplierWebhookPath(connection),
    webhook_secret_set: connection.webhookSecretSet,
  };
}
