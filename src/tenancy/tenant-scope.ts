import type { Tenant } from "../db/models";
import { tenantClock, type TenantClock } from "./tenant-clock";

/**
 * The tenant whose data a request reads and changes: what domain services take first. It lives
 * here, apart from the request context (which names every service), so the domain depends only
 * downward: transports → request-context → services → domain → tenant-scope → db.
 */
export interface TenantScope {
  tenantId: string;
  /** The tenant as it was when the request was authorised. */
  tenant: Tenant;
  /** True when the owner acts on the tenant's behalf with Service-Tenant. */
  actingAsOwner: boolean;
  /**
   * Whether the caller may read the wallet (the owner, or a key with `wallet: read`): answers of
   * other operations show the wallet's balance only then (a 402 says what is short, not what is held).
   */
  mayReadWallet: boolean;
  /** The tenant's own time (tenant-clock.ts): what every rule of its data and every time it is shown run on. */
  clock: TenantClock;
}

/** The scope of `tenant`'s data, on the tenant's own clock. */
export function scopeOf(tenant: Tenant, caller: Pick<TenantScope, "actingAsOwner" | "mayReadWallet">): TenantScope {
  return { tenantId: tenant.id, tenant, ...caller, clock: tenantClock(tenant) };
}
