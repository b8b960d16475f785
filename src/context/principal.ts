/** Who is calling: the owner account, or one tenant through one of its keys. */
export type Principal =
  | { kind: "owner"; keyId: string }
  | { kind: "tenant"; keyId: string; tenantId: string; environment: "sandbox" | "live" };
