import { createHash } from "node:crypto";

/** JSON with object keys sorted at every level: equal values, equal text, whatever the key order sent. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, inner: unknown) =>
    inner !== null && typeof inner === "object" && !Array.isArray(inner)
      ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : inner,
  );
}

/**
 * What identifies a request for idempotency: the operation (method and path, or GraphQL field)
 * and its input. Reusing a key with another fingerprint is refused.
 */
export function requestFingerprint(operation: string, input: unknown): string {
  return createHash("sha256").update(operation).update("\n").update(canonicalJson(input ?? null)).digest("hex");
}
