import { z } from "zod";
import { CONNECTABLE_SUPPLIERS } from "../composition/connectors";
import { timestamp } from "./envelope";

/** A tenant's connection to a supplier: never its token. */
export const supplierConnectionSchema = z
  .object({
    id: z.string().meta({ description: "spc_…" }),
    supplier: z.enum(CONNECTABLE_SUPPLIERS),
    mode: z.enum(["test", "live"]).meta({ description: "From the token's shape (its prefix): test tokens for sandbox tenants, live tokens for live tenants" }),
    created_at: timestamp,
    last_used_at: timestamp.nullable().meta({ description: "When the supplier last answered a call made with it" }),
    status: z.enum(["active", "invalid"]).meta({ description: "invalid once the supplier refused the token (401): connect again with a valid one" }),
  })
  .meta({ id: "SupplierConnection" });

/** The owner's account with a supplier: the fields of a connection, never its token. */
export const platformAccountSchema = supplierConnectionSchema
  .extend({
    id: z.string().meta({ description: "spa_…" }),
    mode: z.enum(["test", "live"]).meta({ description: "From the token's shape (its prefix): a test account serves sandbox tenants, a live one live tenants" }),
  })
  .meta({ id: "PlatformAccount" });
