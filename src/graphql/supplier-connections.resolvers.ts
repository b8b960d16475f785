import { tenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { SUPPLIER_CONNECTION_INPUT } from "../composition/connectors";
import { parseCreateSupplierConnection } from "../gateway/connections/supplier-connection.inputs";
import { toGraphQLEnum } from "./enum-case";

export const supplierConnectionResolvers: Resolvers = {
  Query: {
    supplierConnections: (_parent, _args, ctx) => ctx.services.supplierConnections.list(tenantScope(ctx)),
  },
  Mutation: {
    createSupplierConnection: (_parent, { input }, ctx) =>
      ctx.services.supplierConnections.create(tenantScope(ctx), parseCreateSupplierConnection(SUPPLIER_CONNECTION_INPUT, { supplier: input.supplier, access_token: input.accessToken }), ctx.origin),
    deleteSupplierConnection: (_parent, { id }, ctx) => ctx.services.supplierConnections.delete(tenantScope(ctx), id, ctx.origin),
  },
  SupplierConnection: {
    mode: (connection) => toGraphQLEnum(connection.mode),
    status: (connection) => toGraphQLEnum(connection.status),
  },
};
