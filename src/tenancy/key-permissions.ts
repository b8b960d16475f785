import { z } from "zod";

/** The resources a tenant key's permissions name, and the levels an operation needs of them. */
export type PermissionResource = "search" | "orders" | "wallet" | "webhooks" | "tenant";
export type PermissionLevel = "read" | "write";
/** What an operation needs, as the permission table writes it: `orders:write`. */
export type Permission = `${PermissionResource}:${PermissionLevel}`;

/**
 * What a tenant key may do, per resource (docs/authentication.md#key-permissions). `write` includes `read`; `search` has
 * nothing beyond `read`, so its `write` grants the same. Enforced by `authorize` from the level
 * each operation names in the permission table.
 */
export type KeyPermissionLevel = "none" | PermissionLevel;
export type KeyPermissions = Readonly<Record<PermissionResource, KeyPermissionLevel>>;

/** Keys issued without `permissions` (every key before them): `write` on every resource. */
export const FULL_ACCESS: KeyPermissions = Object.freeze({ search: "write", orders: "write", wallet: "write", webhooks: "write", tenant: "write" });

export const PERMISSION_RESOURCES = Object.keys(FULL_ACCESS) as PermissionResource[];

const RANK: Record<KeyPermissionLevel, number> = { none: 0, read: 1, write: 2 };

const level = z.enum(["none", "read", "write"]);
const everyResource = z.object({ search: level, orders: level, wallet: level, webhooks: level, tenant: level } satisfies Record<PermissionResource, typeof level>);

/** A key's permissions as shown wherever the key is (REST views; GraphQL mirrors it). */
export const keyPermissionsView = everyResource.meta({
  id: "ApiKeyPermissions",
  description: "Per resource: none, read or write (write includes read). A key issued without permissions shows write everywhere.",
});

/**
 * `permissions` as a key is issued with: any of the resources, each `none`, `read` or `write`.
 * Resources not named get `none`: a restricted key grants only what it names. An unknown
 * resource or level is refused, naming it.
 */
export const keyPermissionsInput = everyResource
  .partial()
  .strict()
  .transform((named): KeyPermissions => ({ search: "none", orders: "none", wallet: "none", webhooks: "none", tenant: "none", ...named }))
  .meta({ description: "Per resource: none, read or write (write includes read). Resources left out get none; leave the whole object out for full access." });

/** The column as stored: null for a key with full access, else every resource's level. */
export function storedKeyPermissions(stored: unknown): KeyPermissions {
  if (stored === null || stored === undefined) return FULL_ACCESS;
  const parsed = keyPermissionsInput.safeParse(stored);
  // Only this module writes the column; should a row ever hold something else, it grants nothing.
  return parsed.success ? parsed.data : keyPermissionsInput.parse({});
}

/** Whether these permissions give the resource and level `needed` names (`orders:write`). */
export function grants(permissions: KeyPermissions, needed: Permission): boolean {
  const [resource, wanted] = splitPermission(needed);
  return RANK[permissions[resource]] >= RANK[wanted];
}

/** `orders:write` → `["orders", "write"]`. */
export function splitPermission(permission: Permission): [PermissionResource, PermissionLevel] {
  return permission.split(":") as [PermissionResource, PermissionLevel];
}
