import type { Server } from "node:http";
import type { GraphQLSchema } from "graphql";
import { useServer } from "graphql-ws/use/ws";
import { WebSocketServer, type WebSocket } from "ws";
import { buildRequestContext } from "../context/build-context";
import type { RequestContext } from "../context/request-context";
import { AppError } from "../errors/app-error";
import { newRequestId } from "../ids";
import type { Services } from "../services";
import { formatGraphQLError } from "./format-error";
import { prepareWsOperation } from "./ws-operations";

const FORBIDDEN_CLOSE_CODE = 4403;
/** RFC 6455's "Try Again Later": the service cannot take the connection now. */
const TRY_AGAIN_LATER_CLOSE_CODE = 1013;

/**
 * graphql-ws (subprotocol `graphql-transport-ws`) on the same port and path as HTTP GraphQL.
 * The key comes in the `connection_init` payload (`{ authorization: "Bearer …" }` or
 * `{ "x-api-key": "…" }`, plus an optional `Service-Tenant`); a bad one closes with 4403.
 * A connection whose key is revoked, or whose tenant is suspended or deleted, while it is open
 * is closed with 4403 "Forbidden" too (authentication/live-connections.ts), which ends every
 * subscription on it: the client learns why, and a reconnect with that key is refused.
 * Errors leave with catalogue codes, as over HTTP. While the database cannot be reached, a new
 * connection is closed with 1013 "Try Again Later" and an operation's errors are
 * `service_unavailable` with `retryAfterSeconds`; open sockets stay open. Returns a function
 * that closes every socket.
 */
export function registerSubscriptions(httpServer: Server, schema: GraphQLSchema, services: Services): () => Promise<void> {
  const wsServer = new WebSocketServer({ server: httpServer, path: "/graphql" });
  const contexts = new WeakMap<object, RequestContext>();
  const formatError = formatGraphQLError(services.log, services.db.availability);
  const connectionContext = (connection: object): RequestContext => {
    const ctx = contexts.get(connection);
    if (!ctx) throw new Error("operation on a WebSocket without an authenticated connection");
    return ctx;
  };
  const handle = useServer<Record<string, unknown> | undefined, { socket: WebSocket }>(
    {
      schema,
      onConnect: async (connection) => {
        const params = connection.connectionParams ?? {};
        const credentials = { authorization: params.authorization ?? params.Authorization, apiKey: params["x-api-key"] };
        try {
          const { request } = connection.extra;
          const ctx = await buildRequestContext(services, {
            requestId: newRequestId(),
            ...credentials,
            serviceTenant: params["service-tenant"] ?? params["Service-Tenant"],
            ip: request.socket.remoteAddress ?? null,
            userAgent: request.headers["user-agent"],
          });
          contexts.set(connection, ctx);
          const { socket } = connection.extra;
          const end = () => socket.close(FORBIDDEN_CLOSE_CODE, "Forbidden");
          const stopTracking = services.liveConnections.track({ credentials, principal: ctx.principal, serviceTenantId: ctx.serviceTenantId, end });
          // The client may have gone while it was being authenticated.
          if (socket.readyState === socket.OPEN) socket.once("close", stopTracking);
          else stopTracking();
          return true;
        } catch (error) {
          if (error instanceof AppError) return false;
          // The database could not say who this is: 1013 Try Again Later, which clients retry (4403 would be final).
          if (services.db.availability.refusal(error)) {
            connection.extra.socket.close(TRY_AGAIN_LATER_CLOSE_CODE, "Try Again Later");
            return false;
          }
          throw error;
        }
      },
      onSubscribe: (connection, _id, payload) => prepareWsOperation(schema, payload, connectionContext(connection)),
      // Each operation gets its own context (scope is resolved per operation) sharing the connection's principal.
      context: (connection) => ({ ...connectionContext(connection), requestId: newRequestId(), scope: null }),
      onNext: (_connection, _id, _payload, _args, result) =>
        result.errors ? { ...result, errors: result.errors.map((error) => formatError(error.toJSON(), error)) } : undefined,
      onError: (_connection, _id, _payload, errors) => errors.map((error) => formatError(error.toJSON(), error)),
    },
    wsServer,
  );
  return async () => {
    await handle.dispose();
    await new Promise<void>((resolve) => wsServer.close(() => resolve()));
  };
}
