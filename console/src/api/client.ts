import { createClient as createSocketClient } from "graphql-ws";
import { Client, cacheExchange, fetchExchange, subscriptionExchange } from "urql";

/** What every request carries: the key the person entered and, for the owner, the tenant acted for. */
export interface Credentials {
  key: string;
  /** Service-Tenant: the tenant the owner acts for; null for a tenant key or the owner on its own. */
  actingFor: string | null;
}

/** The headers of an HTTP request made with these credentials. */
export function credentialHeaders({ key, actingFor }: Credentials): Record<string, string> {
  return { authorization: `Bearer ${key}`, ...(actingFor ? { "service-tenant": actingFor } : {}) };
}

/** The same origin's GraphQL endpoint over WebSocket (graphql-ws). */
function socketUrl(): string {
  const { protocol, host } = window.location;
  return `${protocol === "https:" ? "wss" : "ws"}://${host}/graphql`;
}

/**
 * A GraphQL client for these credentials: queries and mutations over HTTP POST to /graphql,
 * subscriptions over graphql-ws to the same path, the key sent in its `connection_init` (the
 * socket opens on the first subscription only). Both speak only to this origin.
 */
export function apiClient(credentials: Credentials): { client: Client; dispose(): void } {
  const socket = createSocketClient({
    url: socketUrl(),
    lazy: true,
    connectionParams: credentialHeaders(credentials),
    retryAttempts: 5,
  });
  const client = new Client({
    url: "/graphql",
    fetchOptions: { headers: credentialHeaders(credentials) },
    // POST for queries too: a GET would put the operation in the URL (and the server's CSRF
    // check wants a JSON body or a preflight header on GETs).
    preferGetMethod: false,
    requestPolicy: "cache-and-network",
    exchanges: [
      cacheExchange,
      fetchExchange,
      subscriptionExchange({
        forwardSubscription: (request) => ({
          subscribe: (sink) => ({ unsubscribe: socket.subscribe({ ...request, query: request.query ?? "" }, sink) }),
        }),
      }),
    ],
  });
  return { client, dispose: () => void socket.dispose() };
}

/**
 * Per-operation context for the owner reading or changing one tenant's data from the tenant's
 * page (its wallet): the same key, naming that tenant in Service-Tenant.
 */
export function actingForContext(credentials: Credentials, tenantId: string) {
  return { fetchOptions: { headers: credentialHeaders({ key: credentials.key, actingFor: tenantId }) } };
}
