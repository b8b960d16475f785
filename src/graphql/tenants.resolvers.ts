import type { Resolvers } from "../generated/graphql";
import { asMetadata } from "../tenants/metadata";
import { createTenantInput, parseCreateApiKeyInput, updateTenantInput } from "../tenants/tenant.inputs";
import { allowedSuppliers, platformAccountsOf } from "../tenants/tenant-suppliers";
import { parseInput } from "../validation/parse-input";
import { pageRequestFromArgs, toConnection } from "./connection";
import { AppError, appError } from "../errors/app-error";
import { formatMinor } from "../money/format";
import { fromGraphQLEnum, toGraphQLEnum } from "./enum-case";
import { graphQLPermissions, permissionsFromGraphQL } from "./key-permissions";
import { storedKeyPermissions } from "../tenancy/key-permissions";

/** Minor units as the schema's Money. */
const money = ({ amountMinor, currency }: { amountMinor: number; currency: string }) => ({ amount: formatMinor(amountMinor, currency), currency });

/** Owner-only tenant management; the guard (guard.ts) has already checked the owner key. */
export const tenantResolvers: Resolvers = {
  Query: {
    tenants: async (_parent, args, ctx) => toConnection(await ctx.services.tenants.list(pageRequestFromArgs(args), args.search ?? undefined)),
    tenant: async (_parent, { id }, ctx) => {
      try {
        return await ctx.services.tenants.get(id);
      } catch (error) {
        if (error instanceof AppError && error.code === "tenant_not_found") return null;
        throw error;
      }
    },
  },
  Mutation: {
    createTenant: (_parent, { input }, ctx) => {
      const { environment, ...rest } = withoutNulls(input);
      return ctx.services.tenants.create(parseInput(createTenantInput, { ...rest, environment: environment && fromGraphQLEnum(environment) }), ctx.origin);
    },
    updateTenantStatus: (_parent, { id, status }, ctx) => ctx.services.tenants.update(id, { status: fromGraphQLEnum(status) }, ctx.origin),
    updateTenant: async (_parent, { id, input }, ctx) => {
      // An unknown tenant is not found whatever the input says.
      await ctx.services.tenants.get(id);
      const { status, allowedSuppliers, platformAccounts, ...rest } = input;
      const patch = {
        ...withoutNulls(rest),
        ...(status ? { status: fromGraphQLEnum(status) } : {}),
        ...(allowedSuppliers !== undefined ? { allowed_suppliers: allowedSuppliers } : {}),
        ...(platformAccounts != null ? { platform_accounts: platformAccounts } : {}),
      };
      return ctx.services.tenants.update(id, parseInput(updateTenantInput, patch), ctx.origin);
    },
    deleteTenant: (_parent, { id }, ctx) => ctx.services.tenants.delete(id, ctx.origin),
    createTenantApiKey: (_parent, { tenantId, label, permissions }, ctx) =>
      ctx.services.apiKeys.create(tenantId, parseCreateApiKeyInput({ label, ...(permissions && { permissions: permissionsFromGraphQL(permissions) }) }), ctx.origin),
    revokeTenantApiKey: (_parent, { tenantId, keyId }, ctx) => ctx.services.apiKeys.revoke(tenantId, keyId, ctx.origin),
  },
  Tenant: {
    name: (tenant) => (tenant.status === "deleted" ? null : tenant.name),
    email: (tenant) => (tenant.status === "deleted" ? null : tenant.email),
    environment: (tenant) => toGraphQLEnum(tenant.environment),
    status: (tenant) => toGraphQLEnum(tenant.status),
    metadata: (tenant) => asMetadata(tenant.ownerMetadata),
    allowedSuppliers: (tenant) => allowedSuppliers(tenant),
    platformAccounts: (tenant) => platformAccountsOf(tenant),
    apiKeys: async (tenant, args, ctx) => toConnection(await ctx.services.apiKeys.list(tenant.id, pageRequestFromArgs(args))),
    usage: (tenant, _args, ctx) => ctx.services.usage.forTenant(tenant.id),
  },
  ApiKey: {
    permissions: (key) => graphQLPermissions(storedKeyPermissions(key.permissions)),
  },
  CreatedApiKey: {
    apiKey: (created) => created.secret,
  },
  TenantUsage: {
    ordersTotal: (usage) => usage.orders.total,
    ordersByStatus: (usage) => Object.entries(usage.orders.byStatus).map(([status, count]) => ({ status, count })),
    walletSpend: (usage) => money(usage.walletSpend),
    daily: (usage, { from, to }, ctx) => ctx.services.usage.daily(usage.tenantId, from, to),
  },
  UsageDay: {
    date: (day) => day.day,
    walletSpend: (day) => money(day.walletSpend),
  },
};

/** GraphQL passes omitted optional inputs as null; the domain schemas mean "absent" by undefined. */
export function withoutNulls<T extends object>(input: T): { [K in keyof T]: Exclude<T[K], null> } {
  if (typeof input !== "object" || input === null) throw appError("validation_failed");
  return Object.fromEntries(Object.entries(input).filter(([, value]) => value !== null)) as { [K in keyof T]: Exclude<T[K], null> };
}
