import type { Server } from "node:http";
import type { GraphQLSchema } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer } from "ws";
import { buildRequestContext } from "../context/build-context";
import type { RequestContext } from "../context/request-context";
import { AppError } from "../errors/app-error";
import { newId } from "../ids";
import type { Services } from "../services";

/**
 * graphql-ws (subprotocol `graphql-transport-ws`) on the same port and path as HTTP GraphQL.
 * The key comes in the `connection_init` payload (`{ authorization: "Bearer …" }` or
 * `{ "x-api-key": "…" }`, plus an optional `Service-Tenant`); a bad one closes with 4403.
 * Returns a function that closes every socket.
 */
export function registerSubscriptions(httpServer: Server, schema: GraphQLSchema, services: Services): () => Promise<void> {
  const wsServer = new WebSocketServer({ server: httpServer, path: "/graphql" });
  const contexts = new WeakMap<object, RequestContext>();
  const handle = useServer<Record<string, unknown> | undefined>(
    {
      schema,
      onConnect: async (connection) => {
        const params = connection.connectionParams ?? {};
        try {
          const ctx = await buildRequestContext(services, {
            requestId: newId("req"),
            authorization: params.authorization ?? params.Authorization,
            apiKey: params["x-api-key"],
            serviceTenant: params["service-tenant"] ?? params["Service-Tenant"],
          });
          contexts.set(connection, ctx);
          return true;
        } catch (error) {
          if (error instanceof AppError) return false;
          throw error;
        }
      },
      // Each operation gets its own context (scope is resolved per operation) sharing the connection's principal.
      context: (connection) => {
        const base = contexts.get(connection);
        if (!base) throw new Error("subscription without an authenticated connection");
        return { ...base, requestId: newId("req"), scope: null };
      },
    },
    wsServer,
  );
  return async () => {
    await handle.dispose();
    await new Promise<void>((resolve) => wsServer.close(() => resolve()));
  };
}
