import type { Tenant } from "../db/models";

/** The supplier ids the tenant chose to search, in its order, or null when it chose none (the defaults apply). */
export function tenantSuppliers(tenant: Pick<Tenant, "suppliers">): string[] | null {
  const chosen = tenant.suppliers;
  return Array.isArray(chosen) && chosen.every((id) => typeof id === "string") ? (chosen as string[]) : null;
}

/** The suppliers the tenant searches, as its configuration shows them: its choice, or the defaults (`defaults`: the gateway's). */
export function shownTenantSuppliers(tenant: Pick<Tenant, "suppliers">, defaults: readonly string[]): readonly string[] {
  return tenantSuppliers(tenant) ?? defaults;
}
