import { z } from "zod";
import type { SupplierHealthFigures } from "../gateway/health";
import { ok, okSchema } from "./envelope";
import { restRoute } from "./route";

const tag = "Suppliers (owner)";

const circuitState = z.enum(["closed", "open", "half_open"]);

/** A supplier's health over the last 5 minutes (docs/gateway.md#supplier-health). */
const supplierHealthSchema = z
  .object({
    id: z.string(),
    name: z.string(),
    status: z.enum(["healthy", "degraded", "unavailable"]).meta({ description: "From the live circuit and the window's calls" }),
    circuit: circuitState.meta({ description: "The answering process's circuit for live traffic (each process keeps its own): what live tenants' calls go through" }),
    circuits: z
      .object({ sandbox: circuitState, live: circuitState })
      .meta({ description: "The answering process's circuit for each environment's traffic: sandbox calls never move the live one" }),
    latency_ms: z.object({ p50: z.int().nullable(), p99: z.int().nullable() }).meta({ description: "Upper bounds of the latency buckets holding the 50th and 99th percentile; null without calls" }),
    error_rate: z.number(),
    calls: z.int(),
  })
  .meta({ id: "SupplierHealth" });

function supplierHealthView(figures: SupplierHealthFigures): z.output<typeof supplierHealthSchema> {
  return { id: figures.id, name: figures.name, status: figures.status, circuit: figures.circuit, circuits: figures.circuits, latency_ms: figures.latencyMs, error_rate: figures.errorRate, calls: figures.calls };
}

/** The suppliers' health, for the owner. */
export const supplierRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/suppliers",
    operation: "suppliers",
    summary: "Every supplier's health over the last 5 minutes, every process's calls together",
    tag,
    response: okSchema(z.array(supplierHealthSchema)),
    handle: async ({ ctx }) => ok((await ctx.services.supplierHealth.figures()).map(supplierHealthView)),
  }),
];
