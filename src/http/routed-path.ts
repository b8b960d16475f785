import type { FastifyRequest } from "fastify";

/**
 * The path a request is for, as the router read it: the route it matched (`/v1/tenants/:id`),
 * or, when none did, its path percent-decoded. The raw URL is not it: the router decodes
 * `/%761/wallet` to `/v1/wallet`, so a decision taken on the raw text would differ from the route run.
 */
export function routedPath(request: FastifyRequest): string {
  return request.routeOptions.url ?? decodedPath(request.url);
}

function decodedPath(url: string): string {
  const path = url.split("?", 1)[0]!;
  try {
    return decodeURI(path);
  } catch {
    // A malformed encoding: the router refuses it as a bad URL, answered without credentials.
    return path;
  }
}
