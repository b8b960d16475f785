import type { KeyPermissions } from "../tenancy/key-permissions";
import type { ApiKeyPermissions, ApiKeyPermissionsInput } from "../generated/graphql";
import { fromGraphQLEnum, toGraphQLEnum } from "./enum-case";

/** A key's permissions in the schema's enum case (`orders: READ`). */
export function graphQLPermissions(permissions: KeyPermissions): ApiKeyPermissions {
  const { search, orders, wallet, webhooks, tenant } = permissions;
  return { search: toGraphQLEnum(search), orders: toGraphQLEnum(orders), wallet: toGraphQLEnum(wallet), webhooks: toGraphQLEnum(webhooks), tenant: toGraphQLEnum(tenant) };
}

/** `createTenantApiKey`'s permissions as the REST body spells them; null fields are left out (so `none`). */
export function permissionsFromGraphQL(input: ApiKeyPermissionsInput): Record<string, string> {
  return Object.fromEntries(Object.entries(input).flatMap(([resource, level]) => (typeof level === "string" ? [[resource, fromGraphQLEnum(level)]] : [])));
}
