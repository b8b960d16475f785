import type { onRequestHookHandler } from "fastify";
import { hashSecret, sameHash } from "../tenancy/api-key-secret";
import { presentedSecret } from "../authentication/authenticate";
import { appError } from "../errors/app-error";

/**
 * The guard of /metrics when METRICS_TOKEN is set: `Authorization: Bearer <token>`, compared in
 * constant time, or 401 `unauthorized`. The figures (every tenant's order counts, backlogs,
 * routes' traffic) are for the operator's scraper, not for anyone who finds the port.
 */
export function metricsTokenGuard(token: string): onRequestHookHandler {
  const expected = hashSecret(token);
  return (request, _reply, done) => {
    const presented = presentedSecret({ authorization: request.headers.authorization });
    done(presented !== null && sameHash(hashSecret(presented), expected) ? undefined : appError("unauthorized"));
  };
}
