import { z } from "zod";
import { keyPermissionsInput } from "../tenancy/key-permissions";
import { parseInput } from "../validation/parse-input";
import { shownText } from "../validation/shown-text";
import { metadataSchema } from "./metadata";

/** A tenant's name, as consoles show it: no hidden characters (422 naming them). */
const tenantName = shownText({ min: 1, max: 200 });

/** Owner: create a tenant (POST /v1/tenants, Mutation.createTenant). */
export const createTenantInput = z.strictObject({
  name: tenantName,
  email: z.email().max(320),
  metadata: metadataSchema.optional(),
  environment: z.enum(["sandbox", "live"]).optional(),
});
export type CreateTenantInput = z.infer<typeof createTenantInput>;

/** Owner: change a tenant (PATCH /v1/tenants/:id). Deletion has its own operation. */
export const updateTenantInput = z
  .strictObject({
    name: tenantName.optional(),
    email: z.email().max(320).optional(),
    metadata: metadataSchema.optional(),
    status: z.enum(["active", "suspended"]).optional(),
    /** Supplier ids the tenant may use, or null for all; the service checks each is one the gateway has. */
    allowed_suppliers: z
      .array(z.string().min(1).max(64))
      .max(16)
      .refine((ids) => new Set(ids).size === ids.length, "names a supplier twice")
      .meta({ uniqueItems: true })
      .nullable()
      .optional(),
    /** Suppliers whose platform account (the owner's) the tenant may book through; [] for none. The service checks each takes an account. */
    platform_accounts: z
      .array(z.string().min(1).max(64))
      .max(16)
      .refine((ids) => new Set(ids).size === ids.length, "names a supplier twice")
      .meta({ uniqueItems: true })
      .optional(),
  })
  .refine((input) => Object.keys(input).length > 0, { message: "send at least one of name, email, metadata, status, allowed_suppliers, platform_accounts" })
  .meta({ minProperties: 1 });
export type UpdateTenantInput = z.infer<typeof updateTenantInput>;

/** Owner: issue a key (POST /v1/tenants/:id/keys); without `permissions` it has full access. */
export const createApiKeyInput = z.strictObject({
  label: shownText({ min: 1, max: 100 }),
  permissions: keyPermissionsInput.optional(),
});
export type CreateApiKeyInput = z.infer<typeof createApiKeyInput>;

/**
 * Parses a key request: a wrong `permissions` (an unknown resource or level) is 422
 * `invalid_field_value` naming it (`permissions.foo`; docs/authentication.md#key-permissions); the rest of the body
 * answers 400 `validation_failed` as before permissions.
 */
export function parseCreateApiKeyInput(body: unknown): CreateApiKeyInput {
  if (typeof body === "object" && body !== null && Object.hasOwn(body, "permissions")) {
    parseInput(z.object({ permissions: keyPermissionsInput }), { permissions: (body as { permissions: unknown }).permissions }, "invalid_field_value");
  }
  return parseInput(createApiKeyInput, body);
}
