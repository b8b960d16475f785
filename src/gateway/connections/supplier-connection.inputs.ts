import { z } from "zod";
import { parseInput } from "../../validation/parse-input";

/** The longest token any supplier issues, with room to spare. */
const MAX_TOKEN_LENGTH = 500;

/**
 * POST /v1/supplier_connections and Mutation.createSupplierConnection, for the suppliers that
 * take the tenant's own account (`connectable`, from the connectors that declare one). Whether
 * the token has its supplier's shape is the connector's to say (SupplierConnectionService).
 */
export function supplierConnectionInput(connectable: readonly [string, ...string[]]) {
  return z.strictObject({
    supplier: z.enum(connectable, { message: `must be one of ${connectable.join(", ")}` }),
    access_token: z.string({ message: "must be an access token" }).max(MAX_TOKEN_LENGTH, { message: "is longer than any access token" }),
  });
}

export interface CreateSupplierConnectionInput {
  supplier: string;
  access_token: string;
}

/** Every invalid field is 422 `invalid_field_value` naming it. */
export function parseCreateSupplierConnection(schema: ReturnType<typeof supplierConnectionInput>, body: unknown): CreateSupplierConnectionInput {
  return parseInput(schema, body, "invalid_field_value");
}

/**
 * What an Idempotency-Key fingerprint covers of the body: everything but the token, which is
 * replaced by `fingerprint` of it (an HMAC), so the same key with another token is another request.
 */
export function withTokenFingerprint(body: unknown, fingerprint: ((token: string) => string) | null): unknown {
  if (body === null || typeof body !== "object" || Array.isArray(body)) return body;
  const { access_token: token, ...rest } = body as Record<string, unknown>;
  return typeof token === "string" && fingerprint ? { ...rest, access_token_hmac: fingerprint(token) } : rest;
}

/** The longest webhook secret accepted, with room to spare (suppliers give a few tens of characters). */
const MAX_WEBHOOK_SECRET_LENGTH = 500;

/** PATCH /v1/supplier_connections/:id and Mutation.setSupplierConnectionWebhookSecret: the secret the supplier gave for this connection's webhook, or null to remove it. */
export const supplierConnectionWebhookInput = z.strictObject({
  webhook_secret: z
    .string({ message: "must be the webhook's secret, or null" })
    .min(1, { message: "must not be empty (null removes it)" })
    .max(MAX_WEBHOOK_SECRET_LENGTH, { message: "is longer than any webhook secret" })
    .nullable(),
});

/** A connection's own webhook address on this host: where its supplier's webhook is created to deliver. */
export function supplierWebhookPath(connection: { id: string; supplier: string }): string {
  return `/suppliers/${connection.supplier}/webhooks/${connection.id}`;
}
