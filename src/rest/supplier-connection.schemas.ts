import { z } from "zod";
import { CONNECTABLE_SUPPLIERS } from "../composition/connectors";
import { timestamp } from "./envelope";

/** An account at a supplier (a tenant's connection, the owner's platform account): never its token. */
const supplierAccountFields = {
  supplier: z.enum(CONNECTABLE_SUPPLIERS),
  created_at: timestamp,
  last_used_at: timestamp.nullable().meta({ description: "When the supplier last answered a call made with it" }),
  status: z.enum(["active", "invalid"]).meta({ description: "invalid once the supplier refused the token (401): connect again with a valid one" }),
};

/** A tenant's connection to a supplier: never its token. */
export const supplierConnectionSchema = z
  .object({
    id: z.string().meta({ description: "spc_…" }),
    ...supplierAccountFields,
    mode: z.enum(["test", "live"]).meta({ description: "From the token's shape (its prefix): test tokens for sandbox tenants, live tokens for live tenants" }),
    webhook_path: z.string().meta({ description: "This connection's own webhook address on this host, /suppliers/<supplier>/webhooks/<id>: create the supplier's webhook with it" }),
    webhook_secret_set: z.boolean().meta({ description: "Whether the secret the supplier signs this connection's webhooks with is set (PATCH webhook_secret); it is never shown" }),
  })
  .meta({ id: "SupplierConnection" });

/** The owner's account with a supplier: never its token. Its webhooks come to the platform's address (docs/connectors.md). */
export const platformAccountSchema = z
  .object({
    id: z.string().meta({ description: "spa_…" }),
    ...supplierAccountFields,
    mode: z.enum(["test", "live"]).meta({ description: "From the token's shape (its prefix): a test account serves sandbox tenants, a live one live tenants" }),
  })
  .meta({ id: "PlatformAccount" });
