import type { FastifyInstance, FastifyReply } from "fastify";
import type { Registry } from "prom-client";
import { pendingMigrations } from "../db/migrate";
import type { Database } from "../db/database";
import { metricsTokenGuard } from "./metrics-token";
import { clock } from "../clock";

/**
 * Liveness (`/healthz`: the process answers), readiness (`/readyz`: the database answers and
 * every migration is applied) and Prometheus metrics (guarded by `metricsToken` when one is
 * set). Public otherwise; none counted as API usage.
 *
 * During a database outage /readyz answers 503 at once, naming the database and why, without
 * waiting on the network. A full disk leaves the process ready (reads work) and says so
 * (`database: "full"`).
 */
export function registerHealthRoutes(app: FastifyInstance, db: Database, registry: Registry, metricsToken: string | undefined): void {
  app.get("/healthz", async () => ({ status: "ok" }));

  const unreachable = (reply: FastifyReply, outage: { since: Date; reason: string }) =>
    reply.code(503).send({ status: "not_ready", database: "unreachable", name: db.availability.description, reason: outage.reason, since: outage.since.toISOString() });

  app.get("/readyz", async (_request, reply) => {
    const before = db.availability.status();
    if (before.unreachable) return unreachable(reply, before.unreachable);
    let pending: string[];
    try {
      pending = await pendingMigrations(db);
    } catch (error) {
      db.availability.notice(error);
      const outage = db.availability.status().unreachable ?? { since: clock.now(), reason: "the readiness check failed" };
      return unreachable(reply, outage);
    }
    if (pending.length > 0) return reply.code(503).send({ status: "not_ready", database: "ok", pendingMigrations: pending });
    const { storageFull } = db.availability.status();
    if (storageFull) return { status: "ready", database: "full", reason: storageFull.reason, since: storageFull.since.toISOString(), pendingMigrations: [] };
    return { status: "ready", database: "ok", pendingMigrations: [] };
  });

  app.get("/metrics", { onRequest: metricsToken === undefined ? [] : [metricsTokenGuard(metricsToken)] }, async (_request, reply) => {
    reply.header("content-type", registry.contentType);
    return registry.metrics();
  });
}
