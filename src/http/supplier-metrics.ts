import { Counter, Gauge, Histogram, type Registry } from "prom-client";
import type { Environment } from "../gateway/contract/air";
import type { Services } from "../services";

/**
 * Prometheus metrics of this process's calls to its suppliers: a latency histogram and an outcome
 * counter per supplier and call (`search`, `book`, …), the calls in flight, and each supplier's
 * circuit per environment (0 closed, 1 half-open, 2 open).
 */
export function registerSupplierMetrics(registry: Registry, services: Services): void {
  const { calls: supplierCalls, breakers, registry: suppliers } = services.gateway;
  const duration = new Histogram({
    name: "aerogate_supplier_call_duration_seconds",
    help: "Calls to suppliers by supplier and call, whatever their outcome.",
    labelNames: ["supplier", "call"] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 20],
    registers: [registry],
  });
  const outcomes = new Counter({
    name: "aerogate_supplier_calls_total",
    help: "Calls to suppliers by supplier, call and outcome (ok, error, timeout).",
    labelNames: ["supplier", "call", "outcome"] as const,
    registers: [registry],
  });
  supplierCalls.onCall((call) => {
    duration.observe({ supplier: call.supplier, call: call.call }, call.durationMs / 1000);
    outcomes.inc({ supplier: call.supplier, call: call.call, outcome: call.outcome });
  });
  new Gauge({
    name: "aerogate_supplier_calls_in_flight",
    help: "Calls to each supplier started and not yet ended in this process.",
    labelNames: ["supplier"] as const,
    registers: [registry],
    collect() {
      for (const entry of suppliers.all) this.set({ supplier: entry.ref.id }, supplierCalls.inFlight(entry.ref.id));
    },
  });
  new Gauge({
    name: "aerogate_supplier_circuit_state",
    help: "Each supplier's circuit in this process, per environment: 0 closed, 1 half-open, 2 open.",
    labelNames: ["supplier", "environment"] as const,
    registers: [registry],
    collect() {
      for (const entry of suppliers.all) {
        for (const environment of ENVIRONMENTS) this.set({ supplier: entry.ref.id, environment }, CIRCUIT_VALUE[breakers.of(entry.ref.id, environment).state]);
      }
    },
  });
}

const CIRCUIT_VALUE = { closed: 0, half_open: 1, open: 2 } as const;
const ENVIRONMENTS: readonly Environment[] = ["sandbox", "live"];
