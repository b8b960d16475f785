import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { requestTenantId } from "../context/request-context";
import type { Logger } from "../logger";

/**
 * One JSON line per answered request: request id, key and tenant ids, route, status, latency.
 * Never a header or body, so no key or personal data reaches the log.
 */
export function registerAccessLog(app: FastifyInstance): void {
  app.addHook("onResponse", (request, reply, done) => {
    logAnswer(request, reply);
    done();
  });
}

/**
 * Health probes, which a load balancer sends every second or so: their answers are logged at
 * `debug`, so `info` keeps to the API's own traffic. A probe that fails is still an `error`.
 */
const PROBES = new Set(["/healthz", "/readyz"]);

/** The access-log line of one answer; also called for answers given outside the hooks (router errors). */
export function logAnswer(request: FastifyRequest, reply: FastifyReply): void {
  // 503 and 507 are refusals (the database unreachable or full, shutting down), summed up elsewhere: not failures.
  const failed = reply.statusCode >= 500 && reply.statusCode !== 503 && reply.statusCode !== 507;
  const level = failed ? "error" : PROBES.has(request.routeOptions.url ?? "") ? "debug" : "info";
  // Skipped cheaply when the level is off (benchmarks and tests run at warn or silent).
  if (!(request.log as Logger).isLevelEnabled(level)) return;
  const ctx = request.ctx;
  // requestId is already bound to request.log (Fastify's requestIdLogLabel): not repeated here.
  const fields = {
    method: request.method,
    route: request.routeOptions.url ?? "unmatched",
    status: reply.statusCode,
    ms: Math.round(reply.elapsedTime * 10) / 10,
    keyId: ctx?.principal.keyId,
    tenantId: ctx ? (requestTenantId(ctx) ?? undefined) : undefined,
  };
  if (failed) request.log.error(fields, "request failed");
  else request.log[level](fields, reply.statusCode >= 500 ? "request refused" : "request completed");
}
