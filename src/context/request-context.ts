import type { Services } from "../services";
import type { Principal } from "../authentication/principal";
import type { TenantScope } from "../tenancy/tenant-scope";
import type { ChangeOrigin } from "../audit/change-origin";
import type { AuditReader } from "../audit/audit-events.service";

/**
 * Built once per HTTP request or WebSocket connection (build-context.ts) and handed to routes and
 * resolvers, which pass its `scope` (tenancy/tenant-scope.ts) into domain calls. `scope` is set by
 * `authorize` for operations on one tenant's data. Transports import this module; the domain
 * never does (it names every service, so a domain import would close a circle through services.ts).
 */
export interface RequestContext {
  requestId: string;
  principal: Principal;
  /** The Service-Tenant header as sent, if any. */
  serviceTenantId: string | null;
  services: Services;
  scope: TenantScope | null;
  /** Who is calling and from where, as every configuration change records it in the audit log. */
  origin: ChangeOrigin;
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

/** Who reads the audit log: the owner (one tenant's events with Service-Tenant), or a tenant's key (its own). Call after `authorize`. */
export function auditReader(ctx: RequestContext): AuditReader {
  return ctx.principal.kind === "owner" ? { kind: "owner", tenantId: ctx.scope?.tenantId ?? null } : { kind: "tenant", tenantId: ctx.principal.tenantId };
}
