import type { KeyPermissions } from "../tenancy/key-permissions";

/**
 * Who is calling: the owner account (unrestricted), or one tenant through one of its keys and what
 * that key may do. `label` is the key's, as the audit log names its actor.
 */
export type Principal =
  | { kind: "owner"; keyId: string; label: string }
  | { kind: "tenant"; keyId: string; label: string; tenantId: string; environment: "sandbox" | "live"; permissions: KeyPermissions };
