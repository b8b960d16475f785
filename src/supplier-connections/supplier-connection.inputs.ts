import { z } from "zod";
import { parseInput } from "../validation/parse-input";

/** Suppliers a tenant connects with an account of its own. */
export const CONNECTABLE_SUPPLIERS = ["duffel"] as const;
export type ConnectableSupplier = (typeof CONNECTABLE_SUPPLIERS)[number];

/** A Duffel access token: `duffel_test_…` or `duffel_live_…`, then the token's own characters. Messages never repeat it. */
const accessToken = z
  .string({ message: "must be a Duffel access token (duffel_test_… or duffel_live_…)" })
  .max(500, { message: "is longer than any Duffel access token" })
  .regex(/^duffel_(test|live)_[A-Za-z0-9_\-=+/.]{8,}$/, { message: "must be a Duffel access token: duffel_test_ or duffel_live_ followed by the token" });

/** POST /v1/supplier_connections and Mutation.createSupplierConnection. */
export const createSupplierConnectionInput = z.strictObject({
  supplier: z.enum(CONNECTABLE_SUPPLIERS, { message: `must be one of ${CONNECTABLE_SUPPLIERS.join(", ")}` }),
  access_token: accessToken,
});
export type CreateSupplierConnectionInput = z.infer<typeof createSupplierConnectionInput>;

/** Every invalid field is 422 `invalid_field_value` naming it. */
export function parseCreateSupplierConnection(body: unknown): CreateSupplierConnectionInput {
  return parseInput(createSupplierConnectionInput, body, "invalid_field_value");
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

/** `test` or `live`, from the token's prefix (a parsed token has one). */
export function tokenMode(token: string): "test" | "live" {
  return token.startsWith("duffel_live_") ? "live" : "test";
}
