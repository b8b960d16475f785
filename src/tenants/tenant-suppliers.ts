import type { Tenant } from "../db/models";
import { appError } from "../errors/app-error";
import type { SupplierOfferRef } from "../gateway/contract/offers";

/** The supplier ids the tenant chose to search, in its order, or null when it chose none (the defaults apply). */
export function tenantSuppliers(tenant: Pick<Tenant, "suppliers">): string[] | null {
  return stringList(tenant.suppliers);
}

/** The supplier ids the owner allows the tenant, or null for all (docs/running-the-platform.md#allowed-suppliers). */
export function allowedSuppliers(tenant: Pick<Tenant, "allowedSuppliers">): string[] | null {
  return stringList(tenant.allowedSuppliers);
}

/** The suppliers whose platform account (the owner's) the owner lets the tenant book through; none unless granted (docs/connectors.md#the-owners-platform-account). */
export function platformAccountsOf(tenant: Pick<Tenant, "platformAccounts">): string[] {
  return stringList(tenant.platformAccounts) ?? [];
}

/**
 * 422 `supplier_not_allowed` naming `field` when the offer was found through the owner's platform
 * account at `supplierId` and the owner no longer lets the tenant book through it (its orders
 * already booked keep that account).
 */
export function requireGrantedAccount(tenant: Pick<Tenant, "platformAccounts">, offer: { supplierOffer?: Pick<SupplierOfferRef, "account"> }, supplierId: string, field: string): void {
  if (offer.supplierOffer?.account !== "platform" || platformAccountsOf(tenant).includes(supplierId)) return;
  throw appError("supplier_not_allowed", { field, message: `${field}: the owner no longer lets this tenant book ${supplierId} through the platform's account; search again.` });
}

/**
 * The suppliers the tenant searches: its choice (or `defaults`, the gateway's) among those the
 * owner allows, in its order; null: the defaults, all allowed.
 */
export function searchedSuppliers(tenant: Pick<Tenant, "suppliers" | "allowedSuppliers">, defaults: readonly string[]): string[] | null {
  const allowed = allowedSuppliers(tenant);
  const chosen = tenantSuppliers(tenant);
  if (allowed === null) return chosen;
  return (chosen ?? defaults).filter((id) => allowed.includes(id));
}

/** Whether the owner allows the tenant this supplier. */
export function isSupplierAllowed(tenant: Pick<Tenant, "allowedSuppliers">, supplierId: string): boolean {
  const allowed = allowedSuppliers(tenant);
  return allowed === null || allowed.includes(supplierId);
}

/** 422 `supplier_not_allowed` naming `field` when the owner does not allow the tenant this supplier. */
export function requireAllowedSupplier(tenant: Pick<Tenant, "allowedSuppliers">, supplierId: string, field: string): void {
  if (!isSupplierAllowed(tenant, supplierId)) throw appError("supplier_not_allowed", { field, message: `${field}: ${supplierId} is not among the suppliers this tenant may use (${allowedSuppliers(tenant)!.join(", ") || "none"})` });
}

/** The suppliers the tenant searches, as its configuration shows them: its choice, or the defaults (`defaults`: the gateway's). */
export function shownTenantSuppliers(tenant: Pick<Tenant, "suppliers">, defaults: readonly string[]): readonly string[] {
  return tenantSuppliers(tenant) ?? defaults;
}

function stringList(value: unknown): string[] | null {
  return Array.isArray(value) && value.every((id) => typeof id === "string") ? (value as string[]) : null;
}
