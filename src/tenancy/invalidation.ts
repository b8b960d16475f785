/**
 * What the caches hear on the `auth` channel. Published by the services that change keys or
 * tenants, after their transaction commits.
 */
export type AuthInvalidation =
  | { kind: "key"; secretHash: string }
  | { kind: "tenant"; tenantId: string };

export function isAuthInvalidation(value: unknown): value is AuthInvalidation {
  if (typeof value !== "object" || value === null) return false;
  const message = value as Record<string, unknown>;
  return (
    (message.kind === "key" && typeof message.secretHash === "string") ||
    (message.kind === "tenant" && typeof message.tenantId === "string")
  );
}
