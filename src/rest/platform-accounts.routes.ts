import { z } from "zod";
import { SUPPLIER_CONNECTION_INPUT } from "../composition/connectors";
import { parseCreateSupplierConnection } from "../gateway/connections/supplier-connection.inputs";
import { ok, okSchema } from "./envelope";
import { restRoute } from "./route";
import { platformAccountSchema } from "./supplier-connection.schemas";
import { platformAccountView } from "./supplier-connection.views";

const tag = "Platform accounts (owner)";

/** The owner's own accounts with suppliers that take one (docs/connectors.md#the-owners-platform-account); the token is never shown again. */
export const platformAccountRoutes = [
  restRoute({
    method: "POST",
    url: "/v1/platform_accounts",
    operation: "createPlatformAccount",
    summary: "Connect the platform's own account with a supplier for the token's mode (stored encrypted, never shown again)",
    tag,
    status: 201,
    body: SUPPLIER_CONNECTION_INPUT,
    parseBody: (body) => parseCreateSupplierConnection(SUPPLIER_CONNECTION_INPUT, body),
    fingerprintBody: (raw, ctx) => ctx.services.platformAccounts.idempotencyInput(raw),
    response: okSchema(platformAccountSchema),
    errors: ["invalid_field_value", "platform_account_exists", "supplier_secrets_unset"],
    handle: async ({ ctx, body }) => ok(platformAccountView(await ctx.services.platformAccounts.create(body, ctx.origin)), "Platform account connected"),
  }),
  restRoute({
    method: "GET",
    url: "/v1/platform_accounts",
    operation: "platformAccounts",
    summary: "List the platform's own supplier accounts, newest first",
    tag,
    response: okSchema(z.array(platformAccountSchema)),
    handle: async ({ ctx }) => ok((await ctx.services.platformAccounts.list()).map(platformAccountView)),
  }),
  restRoute({
    method: "DELETE",
    url: "/v1/platform_accounts/:id",
    operation: "deletePlatformAccount",
    summary: "Remove a platform account and its token; answers it as it was",
    tag,
    response: okSchema(platformAccountSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => ok(platformAccountView(await ctx.services.platformAccounts.delete(params.id!, ctx.origin)), "Platform account deleted"),
  }),
];
