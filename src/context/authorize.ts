import { appError } from "../errors/app-error";
import { grants, splitPermission } from "../tenancy/key-permissions";
import { operations, type Operation, type OperationRule } from "./operations";
import type { Principal } from "../authentication/principal";
import type { RequestContext } from "./request-context";
import { scopeOf, type TenantScope } from "../tenancy/tenant-scope";
import { snakeCase } from "../validation/parse-input";

/**
 * The one guard: checks the permission table for `operation` (and for the operations its
 * `alsoPerforms` names, and those its `whenGiven` names when `inputs` holds them: the GraphQL
 * arguments or the REST query) and,
 * for tenant data, resolves and stores the tenant scope on the context. Throws catalogued
 * errors only: `forbidden`, `insufficient_permissions`, `tenant_required`, `tenant_not_found`,
 * `tenant_suspended`.
 */
export async function authorize(ctx: RequestContext, operation: Operation, inputs: Readonly<Record<string, unknown>> = {}): Promise<void> {
  const rule: OperationRule = operations[operation];
  if (rule.audience === "owner") {
    if (ctx.principal.kind !== "owner") throw appError("forbidden");
    return;
  }
  requirePermission(ctx.principal, operation);
  for (const also of rule.alsoPerforms ?? []) requirePermission(ctx.principal, also as Operation);
  for (const [input, also] of Object.entries(rule.whenGiven ?? {})) {
    if (isGiven(inputs, input)) requirePermission(ctx.principal, also as Operation);
  }
  const scope = await resolveTenantScope(ctx);
  if (!scope && rule.audience === "tenant") throw appError("tenant_required");
  if (scope && rule.effect === "write" && scope.tenant.status === "suspended") throw appError("tenant_suspended");
  ctx.scope = scope;
}

async function resolveTenantScope(ctx: RequestContext): Promise<TenantScope | null> {
  const { principal, serviceTenantId } = ctx;
  if (principal.kind === "tenant") {
    if (serviceTenantId !== null && serviceTenantId !== principal.tenantId) {
      throw appError("forbidden", { reason: "A tenant key cannot act for another tenant." });
    }
    const tenant = await ctx.services.tenantDirectory.find(principal.tenantId);
    // authenticate() already refused deleted and suspended tenants; this guards a race with deletion.
    if (!tenant || tenant.status === "deleted") throw appError("unauthorized");
    return scopeOf(tenant, { actingAsOwner: false, mayReadWallet: grants(principal.permissions, operations.wallet.permission) });
  }
  if (serviceTenantId === null) return null;
  const tenant = await ctx.services.tenantDirectory.find(serviceTenantId);
  if (!tenant || tenant.status === "deleted") throw appError("tenant_not_found", { field: "Service-Tenant" });
  return scopeOf(tenant, { actingAsOwner: true, mayReadWallet: true });
}

/**
 * 403 `insufficient_permissions`, naming the resource and level, when a tenant key's permissions
 * lack what the table says `operation` needs. The owner key is unrestricted, also acting for a
 * tenant. Also for fields below the root that show another operation's data (`Viewer.tenant`).
 */
export function requirePermission(principal: Principal, operation: Operation): void {
  const { permission } = operations[operation];
  if (principal.kind !== "tenant" || permission === null || grants(principal.permissions, permission)) return;
  const [resource, level] = splitPermission(permission);
  throw appError("insufficient_permissions", {
    reason: `This key's permissions give ${resource}: ${principal.permissions[resource]}; this operation needs ${resource}: ${level}.`,
    requiredPermission: { resource, level },
  });
}

/** Whether `inputs` holds `name` (`orderId`) or its snake_case spelling (`order_id`), with any value but null. */
function isGiven(inputs: Readonly<Record<string, unknown>>, name: string): boolean {
  return [name, snakeCase(name)].some((spelling) => Object.hasOwn(inputs, spelling) && inputs[spelling] !== undefined && inputs[spelling] !== null);
}
