import type { KeyPermissions } from "../tenancy/key-permissions";

/** Who is calling: the owner account (unrestricted), or one tenant through one of its keys and what that key may do. */
export type Principal =
  | { kind: "owner"; keyId: string }
  | { kind: "tenant"; keyId: string; tenantId: string; environment: "sandbox" | "live"; permissions: KeyPermissions };
