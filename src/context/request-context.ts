import type { Tenant } from "../db/models";
import type { Services } from "../services";
import type { Principal } from "./principal";

/** The tenant whose data a request reads and changes. */
export interface TenantScope {
  tenantId: string;
  /** The tenant as it was when the request was authorised. */
  tenant: Tenant;
  /** True when the owner acts on the tenant's behalf with Service-Tenant. */
  actingAsOwner: boolean;
}

/**
 * Built once per HTTP request or WebSocket connection (build-context.ts) and passed first into
 * every domain call. `scope` is set by `authorize` for operations on one tenant's data.
 */
export interface RequestContext {
  requestId: string;
  principal: Principal;
  /** The Service-Tenant header as sent, if any. */
  serviceTenantId: string | null;
  services: Services;
  scope: TenantScope | null;
}

/** The tenant scope `authorize` resolved; calling it before authorisation is a programming error. */
export function tenantScope(ctx: RequestContext): TenantScope {
  if (!ctx.scope) throw new Error("tenantScope() called for an operation without a tenant scope");
  return ctx.scope;
}

/** The tenant a request is for, if any: the scope `authorize` resolved, else the key's own tenant. */
export function requestTenantId(ctx: RequestContext): string | null {
  return ctx.scope?.tenantId ?? (ctx.principal.kind === "tenant" ? ctx.principal.tenantId : null);
}
