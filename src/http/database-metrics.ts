import { Counter, Gauge, type Registry } from "prom-client";
import type { DatabaseAvailability } from "../db/availability";

/**
 * Prometheus metrics of the database as this process finds it (db/availability.ts): whether it
 * can be reached, whether it has room to write, and the requests refused for either.
 */
export function registerDatabaseMetrics(registry: Registry, availability: DatabaseAvailability): void {
  new Gauge({
    name: "aerogate_database_reachable",
    help: "1 while this process can reach the database, 0 during an outage.",
    registers: [registry],
    collect() {
      this.set(availability.reachable ? 1 : 0);
    },
  });
  new Gauge({
    name: "aerogate_database_storage_full",
    help: "1 while the database has no room to write (writes answer 507 storage_full), else 0.",
    registers: [registry],
    collect() {
      this.set(availability.status().storageFull ? 1 : 0);
    },
  });
  const reported = { unreachable: 0, storage_full: 0, busy: 0 };
  new Counter({
    name: "aerogate_database_refusals_total",
    help: "Requests (HTTP and WebSocket) refused because the database was unreachable (503), too busy to start a transaction (503) or full (507).",
    labelNames: ["kind"] as const,
    registers: [registry],
    collect() {
      for (const kind of ["unreachable", "storage_full", "busy"] as const) {
        this.inc({ kind }, availability.refusedTotal[kind] - reported[kind]);
        reported[kind] = availability.refusedTotal[kind];
      }
    },
  });
}
