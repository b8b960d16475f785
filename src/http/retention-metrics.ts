import { Counter, Histogram, type Registry } from "prom-client";
import type { Services } from "../services";

/** What this process's retention sweeps removed, by table, and how long their batches took (docs/retention.md). */
export function registerRetentionMetrics(registry: Registry, services: Services): void {
  const removed = new Counter({
    name: "aerogate_retention_removed_total",
    help: "Rows removed by this process's retention sweeps, by table (an offer request holds its search's offers).",
    labelNames: ["table"] as const,
    registers: [registry],
  });
  const batches = new Histogram({
    name: "aerogate_retention_batch_seconds",
    help: "How long each retention batch held the database (on SQLite, how long a request may wait for one).",
    buckets: [0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256],
    registers: [registry],
  });
  services.retention.onBatch(({ table, removed: count, heldMs }) => {
    if (count > 0) removed.inc({ table }, count);
    batches.observe(heldMs / 1000);
  });
}
