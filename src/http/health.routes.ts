import type { FastifyInstance } from "fastify";
import type { Registry } from "prom-client";
import { pendingMigrations } from "../db/migrate";
import type { Database } from "../db/database";
import { metricsTokenGuard } from "./metrics-token";

/**
 * Liveness (`/healthz`: the process answers), readiness (`/readyz`: the database answers and
 * every migration is applied) and Prometheus metrics (guarded by `metricsToken` when one is
 * set). Public otherwise; none counted as API usage.
 */
export function registerHealthRoutes(app: FastifyInstance, db: Database, registry: Registry, metricsToken: string | undefined): void {
  app.get("/healthz", async () => ({ status: "ok" }));

  app.get("/readyz", async (_request, reply) => {
    try {
      const pending = await pendingMigrations(db);
      if (pending.length > 0) return reply.code(503).send({ status: "not_ready", database: "ok", pendingMigrations: pending });
      return { status: "ready", database: "ok", pendingMigrations: [] };
    } catch {
      return reply.code(503).send({ status: "not_ready", database: "unreachable" });
    }
  });

  app.get("/metrics", { onRequest: metricsToken === undefined ? [] : [metricsTokenGuard(metricsToken)] }, async (_request, reply) => {
    reply.header("content-type", registry.contentType);
    return registry.metrics();
  });
}
