import type { FastifyInstance, FastifyRequest } from "fastify";
import { buildRequestContext } from "../context/build-context";
import type { Services } from "../services";
import { routedPath } from "./routed-path";

/** The browser's GET of the GraphQL playground page needs no key; the queries it sends do. */
export function isPlaygroundPage(request: FastifyRequest): boolean {
  return request.method === "GET" && (request.headers.accept ?? "").includes("text/html");
}

/**
 * Decided on the route matched, never the raw URL: `/%761/wallet` runs `/v1/wallet` and needs its
 * key. `mounts` are the further API surfaces (paths under them need a key, as /v1's do).
 */
function needsCredentials(request: FastifyRequest, mounts: readonly string[]): boolean {
  const path = routedPath(request);
  if (["/v1", ...mounts].some((mount) => path.startsWith(`${mount}/`) || path === mount)) return true;
  return path === "/graphql" && !isPlaygroundPage(request);
}

/**
 * Authenticates every `/v1`, `/graphql` and `mounts` request before its body is read, and attaches the
 * request context. Health, readiness, metrics, the OpenAPI document and its /docs page are public.
 */
export function registerAuthentication(app: FastifyInstance, services: Services, mounts: readonly string[] = []): void {
  app.addHook("onRequest", async (request) => {
    if (!needsCredentials(request, mounts)) return;
    request.ctx = await buildRequestContext(services, {
      requestId: request.id,
      authorization: request.headers.authorization,
      apiKey: request.headers["x-api-key"],
      serviceTenant: request.headers["service-tenant"],
      ip: request.ip,
      userAgent: request.headers["user-agent"],
    });
  });
}
