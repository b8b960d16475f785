import { tenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { SUPPLIER_CONNECTION_INPUT } from "../composition/connectors";
import { parseCreateSupplierConnection, supplierConnectionWebhookInput, supplierWebhookPath, type CreateSupplierConnectionInput } from "../gateway/connections/supplier-connection.inputs";
import { parseInput } from "../validation/parse-input";
import { toGraphQLEnum } from "./enum-case";
import { inGraphQLFieldNames } from "./field-names";

/** A supplier account's token as the GraphQL inputs name it (`accessToken`), checked by the REST rules (which name it `access_token`). */
export function supplierAccountInput<T>(input: { supplier: string; accessToken: string }, use: (parsed: CreateSupplierConnectionInput) => Promise<T>): Promise<T> {
  return inGraphQLFieldNames({ access_token: "accessToken" }, () => use(parseCreateSupplierConnection(SUPPLIER_CONNECTION_INPUT, { supplier: input.supplier, access_token: input.accessToken })));
}

export const supplierConnectionResolvers: Resolvers = {
  Query: {
    supplierConnections: (_parent, _args, ctx) => ctx.services.supplierConnections.list(tenantScope(ctx)),
  },
  Mutation: {
    createSupplierConnection: (_parent, { input }, ctx) => supplierAccountInput(input, (parsed) => ctx.services.supplierConnections.create(tenantScope(ctx), parsed, ctx.origin)),
    deleteSupplierConnection: (_parent, { id }, ctx) => ctx.services.connectionWebhooks.deleteConnection(tenantScope(ctx), id, ctx.origin),
    registerSupplierConnectionWebhook: (_parent, { id }, ctx) => ctx.services.connectionWebhooks.register(tenantScope(ctx), id, ctx.origin),
    setSupplierConnectionWebhookSecret: (_parent, { id, secret }, ctx) =>
      inGraphQLFieldNames({ webhook_secret: "secret" }, async () => {
        const { webhook_secret } = parseInput(supplierConnectionWebhookInput, { webhook_secret: secret ?? null }, "invalid_field_value");
        return ctx.services.supplierConnections.setWebhookSecret(tenantScope(ctx), id, webhook_secret, ctx.origin);
      }),
  },
  SupplierConnection: {
    webhookPath: (connection) => supplierWebhookPath(connection),
    mode: (connection) => toGraphQLEnum(connection.mode),
    status: (connection) => toGraphQLEnum(connection.status),
  },
};
