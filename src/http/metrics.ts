import type { FastifyInstance } from "fastify";
import { Counter, Histogram, Registry, collectDefaultMetrics } from "prom-client";
import { registerHeapMetrics } from "./heap-metrics";

/**
 * Prometheus metrics for one app instance: requests by route template and status, and a latency
 * histogram. The registry is per instance so several apps in one process (tests) don't collide.
 */
export function registerMetrics(app: FastifyInstance): Registry {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  registerHeapMetrics(registry);
  const requests = new Counter({
    name: "http_requests_total",
    help: "HTTP requests by method, route template and status code.",
    labelNames: ["method", "route", "status"] as const,
    registers: [registry],
  });
  const latency = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request latency by method and route template.",
    labelNames: ["method", "route"] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [registry],
  });
  // Callback-style hooks (here and in the other per-request hooks) spare a promise per request.
  app.addHook("onResponse", (request, reply, done) => {
    // The route template (`/v1/tenants/:id`), never the raw URL, keeps label cardinality bounded.
    const route = request.routeOptions.url ?? "unmatched";
    requests.inc({ method: request.method, route, status: String(reply.statusCode) });
    latency.observe({ method: request.method, route }, reply.elapsedTime / 1000);
    done();
  });
  return registry;
}
