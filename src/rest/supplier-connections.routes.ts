import { z } from "zod";
import { tenantScope } from "../context/request-context";
import { SUPPLIER_CONNECTION_INPUT } from "../composition/connectors";
import { parseCreateSupplierConnection, supplierConnectionWebhookInput } from "../gateway/connections/supplier-connection.inputs";
import { parseInput } from "../validation/parse-input";
import { ok, okSchema } from "./envelope";
import { restRoute } from "./route";
import { supplierConnectionSchema } from "./supplier-connection.schemas";
import { supplierConnectionView } from "./supplier-connection.views";

const tag = "Supplier connections";

/** A tenant's own accounts with suppliers that take one (docs/connectors.md#a-tenants-own-account); the token is never shown again. */
export const supplierConnectionRoutes = [
  restRoute({
    method: "POST",
    url: "/v1/supplier_connections",
    operation: "createSupplierConnection",
    summary: "Connect the tenant's own account with a supplier, with its access token (stored encrypted, never shown again)",
    tag,
    status: 201,
    body: SUPPLIER_CONNECTION_INPUT,
    parseBody: (body) => parseCreateSupplierConnection(SUPPLIER_CONNECTION_INPUT, body),
    fingerprintBody: (raw, ctx) => ctx.services.supplierConnections.idempotencyInput(raw),
    response: okSchema(supplierConnectionSchema),
    errors: ["invalid_field_value", "supplier_connection_exists", "supplier_secrets_unset"],
    handle: async ({ ctx, body }) => ok(supplierConnectionView(await ctx.services.supplierConnections.create(tenantScope(ctx), body, ctx.origin)), "Supplier connected"),
  }),
  restRoute({
    method: "GET",
    url: "/v1/supplier_connections",
    operation: "supplierConnections",
    summary: "List the tenant's supplier connections, newest first",
    tag,
    response: okSchema(z.array(supplierConnectionSchema)),
    handle: async ({ ctx }) => ok((await ctx.services.supplierConnections.list(tenantScope(ctx))).map(supplierConnectionView)),
  }),
  restRoute({
    method: "PATCH",
    url: "/v1/supplier_connections/:id",
    operation: "setSupplierConnectionWebhookSecret",
    summary: "Set (or, with null, remove) the secret the supplier gave for this connection's webhook: stored encrypted, never shown again",
    tag,
    body: supplierConnectionWebhookInput,
    parseBody: (body) => parseInput(supplierConnectionWebhookInput, body, "invalid_field_value"),
    response: okSchema(supplierConnectionSchema),
    errors: ["not_found", "invalid_field_value", "supplier_secrets_unset"],
    handle: async ({ ctx, params, body }) => ok(supplierConnectionView(await ctx.services.supplierConnections.setWebhookSecret(tenantScope(ctx), params.id!, body.webhook_secret, ctx.origin)), "Supplier connection updated"),
  }),
  restRoute({
    method: "DELETE",
    url: "/v1/supplier_connections/:id",
    operation: "deleteSupplierConnection",
    summary: "Remove a supplier connection and its token; answers it as it was",
    tag,
    response: okSchema(supplierConnectionSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => ok(supplierConnectionView(await ctx.services.connectionWebhooks.deleteConnection(tenantScope(ctx), params.id!, ctx.origin)), "Supplier connection deleted"),
  }),
  restRoute({
    method: "POST",
    url: "/v1/supplier_connections/:id/actions/register_webhook",
    operation: "registerSupplierConnectionWebhook",
    summary: "Create this connection's webhook at its supplier (to PUBLIC_URL + webhook_path) and keep the secret it gives; again replaces it",
    tag,
    response: okSchema(supplierConnectionSchema),
    errors: ["not_found", "unsupported_by_supplier", "supplier_webhook_changed", "supplier_error", "supplier_timeout", "public_url_unset", "supplier_secrets_unset"],
    handle: async ({ ctx, params }) => ok(supplierConnectionView(await ctx.services.connectionWebhooks.register(tenantScope(ctx), params.id!, ctx.origin)), "Supplier webhook registered"),
  }),
];
