import { Counter, type Registry } from "prom-client";
import type { Services } from "../services";

/** Rows this process's retention sweeps removed, by table (docs/retention.md). */
export function registerRetentionMetrics(registry: Registry, services: Services): void {
  const removed = new Counter({
    name: "aerogate_retention_removed_total",
    help: "Rows removed by this process's retention sweeps, by table (an offer request holds its search's offers).",
    labelNames: ["table"] as const,
    registers: [registry],
  });
  services.retention.onRemoved((table, count) => removed.inc({ table }, count));
}
