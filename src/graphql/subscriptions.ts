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
import { WaitingSockets } from "./waiting-sockets";

const FORBIDDEN_CLOSE_CODE = 4403;
/** RFC 6455's "Try Again Later": the service cannot take the connection now. */
const TRY_AGAIN_LATER_CLOSE_CODE = 1013;

/** The largest message read, as for an HTTP body (app.ts); a larger one closes the socket with 1009 before it is parsed. */
const MAX_MESSAGE_BYTES = 1024 * 1024;
/** How long a new connection may take to send its connection_init (graphql-ws then closes it with 4408). */
const CONNECTION_INIT_WAIT_MS = 3000;
/** Connections not yet authenticated one address may hold at once, and the process in all (waiting-sockets.ts). */
const MAX_WAITING_PER_ADDRESS = 32;
const MAX_WAITING = 256;

/**
 * graphql-ws (subprotocol `graphql-transport-ws`) on the same port and path as HTTP GraphQL.
 * The key comes in the `connection_init` payload (`{ authorization: "Bearer …" }` or
 * `{ "x-api-key": "…" }`, plus an optional `Service-Tenant`); a bad one closes with 4403.
 * A connection whose key is revoked, or whose tenant is suspended or deleted, while it is open
 * is closed with 4403 "Forbidden" too (authentication/live-connections.ts), which ends every
 * subscription on it: the client learns why, and a reconnect with that key is refused.
 * Errors leave with catalogue codes, as over HTTP. While the database cannot be reached, a new
 * connection is closed with 1013 "Try Again Later" and an operation's errors are
 * `service_unavailable` with `retryAfterSeconds`; open sockets stay open. Before its key is
 * accepted a connection is bounded: a message over 1 MB closes it with 1009 unread, no
 * connection_init within 3 s with 4408, and past 32 such connections from its address (256 in
 * all) it is closed with 1013 at once. Returns a function that closes every socket.
 */
export function registerSubscriptions(httpServer: Server, schema: GraphQLSchema, services: Services): () => Promise<void> {
  const wsServer = new WebSocketServer({ server: httpServer, path: "/graphql", maxPayload: MAX_MESSAGE_BYTES });
  const waiting = new WaitingSockets(MAX_WAITING_PER_ADDRESS, MAX_WAITING);
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
      connectionInitWaitTimeout: CONNECTION_INIT_WAIT_MS,
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
          waiting.authenticated(socket);
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
  // After graphql-ws's own listener, which reports a socket's errors (a message over the limit)
  // with console.error, past the JSON log: they are the client's, logged as such.
  wsServer.on("connection", (socket, request) => {
    socket.removeAllListeners("error");
    socket.on("error", (error: Error & { code?: string }) => services.log.info({ reason: error.code ?? error.message }, "WebSocket connection closed on a protocol error"));
    if (!waiting.admit(socket, request.socket.remoteAddress ?? "")) socket.close(TRY_AGAIN_LATER_CLOSE_CODE, "Too many connections waiting to authenticate");
  });
  return async () => {
    await handle.dispose();
    await new Promise<void>((resolve) => wsServer.close(() => resolve()));
  };
}
