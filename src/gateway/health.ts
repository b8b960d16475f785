import { clock } from "../clock";
import type { Database } from "../db/database";
import { databaseFault } from "../db/errors";
import { sqlTimestamp } from "../db/sql-values";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import type { Logger } from "../logger";
import { deleteRule, type RetentionRule } from "../retention/retention-rule";
import type { Environment } from "./contract/air";
import type { SupplierRef } from "./contract/offers";
import type { Breakers, CircuitState } from "./pipeline/circuit-breaker";
import type { EndedCall, SupplierCalls } from "./pipeline/supplier-calls";

/** Upper bounds (ms) of the latency buckets the figures are kept in; one unbounded bucket follows. */
export const SUPPLIER_LATENCY_BOUNDS_MS = [5, 10, 25, 50, 100, 200, 300, 400, 500, 750, 1000, 1500, 2000, 3000, 5000, 10_000, 20_000, 60_000] as const;

/** The window the health figures cover. */
export const HEALTH_WINDOW_MS = 5 * 60_000;
/** How long the figures' rows are kept: well past the window. */
const KEPT_MS = 60 * 60_000;
/** Failures or timeouts among the window's calls from which a supplier reads as degraded. */
const DEGRADED_ERROR_RATE = 0.2;

/** One supplier's health, as `GET /v1/suppliers` shows it. */
export interface SupplierHealthFigures {
  id: string;
  name: string;
  /** From the live circuit and the window's calls. */
  status: "healthy" | "degraded" | "unavailable";
  /** This process's circuit for live traffic (each process keeps its own): what live tenants' calls go through. */
  circuit: CircuitState;
  /** This process's circuit for each environment's traffic: sandbox calls never move the live one. */
  circuits: Record<Environment, CircuitState>;
  /** Over the window's calls, every process's together; null without calls. */
  latencyMs: { p50: number | null; p99: number | null };
  /** Failures and timeouts per call (0 without calls). */
  errorRate: number;
  calls: number;
}

interface Tally {
  calls: number;
  errors: number;
  timeouts: number;
  latencyCounts: number[];
}

const emptyTally = (): Tally => ({ calls: 0, errors: 0, timeouts: 0, latencyCounts: new Array<number>(SUPPLIER_LATENCY_BOUNDS_MS.length + 1).fill(0) });

/**
 * Every supplier's health over the last five minutes, in every process together: each process
 * tallies its calls in memory and writes them as one row per supplier every `flushEveryMs` (and
 * before it answers a reading), so a reading sums the rows of the window, whichever process made
 * them. The circuits are the reading process's own, one per environment.
 */
export class SupplierHealth {
  readonly #process = newId("prc");
  #pending = new Map<string, Tally>();
  #timer: NodeJS.Timeout | null = null;
  #flushing: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Database,
    private readonly suppliers: readonly SupplierRef[],
    private readonly breakers: Breakers,
    calls: SupplierCalls,
    private readonly log: Logger,
    private readonly flushEveryMs: number,
  ) {
    calls.onCall((call) => this.#record(call));
  }

  /** Every registered supplier's figures, in the registry's order. */
  async figures(): Promise<SupplierHealthFigures[]> {
    await this.flush();
    const since = new Date(clock.nowMs() - HEALTH_WINDOW_MS);
    const rows = await this.db.prisma.supplierCallStat.findMany({ where: { recordedAt: { gte: since } }, select: { supplier: true, calls: true, errors: true, timeouts: true, latencyCounts: true } });
    const totals = new Map<string, Tally>();
    for (const row of rows) {
      const tally = totals.get(row.supplier) ?? emptyTally();
      tally.calls += row.calls;
      tally.errors += row.errors;
      tally.timeouts += row.timeouts;
      (row.latencyCounts as number[]).forEach((count, index) => (tally.latencyCounts[index] = (tally.latencyCounts[index] ?? 0) + count));
      totals.set(row.supplier, tally);
    }
    return this.suppliers.map((entry) => {
      const tally = totals.get(entry.id) ?? emptyTally();
      const circuits = { live: this.breakers.of(entry.id, "live").state, sandbox: this.breakers.of(entry.id, "sandbox").state };
      const circuit = circuits.live;
      const errorRate = tally.calls === 0 ? 0 : (tally.errors + tally.timeouts) / tally.calls;
      const status = circuit === "open" ? "unavailable" : circuit === "half_open" || errorRate >= DEGRADED_ERROR_RATE ? "degraded" : "healthy";
      return {
        id: entry.id,
        name: entry.name,
        status,
        circuit,
        circuits,
        latencyMs: { p50: percentile(tally, 0.5), p99: percentile(tally, 0.99) },
        errorRate: Math.round(errorRate * 1000) / 1000,
        calls: tally.calls,
      };
    });
  }

  /** Writes the calls tallied since the last flush (a clean shutdown calls it too). */
  flush(): Promise<void> {
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    const batch = this.#pending;
    this.#pending = new Map();
    this.#flushing = this.#flushing.then(() => this.#write(batch));
    return this.#flushing;
  }

  #record(call: EndedCall): void {
    let tally = this.#pending.get(call.supplier);
    if (!tally) this.#pending.set(call.supplier, (tally = emptyTally()));
    tally.calls += 1;
    if (call.outcome === "error") tally.errors += 1;
    if (call.outcome === "timeout") tally.timeouts += 1;
    const bucket = SUPPLIER_LATENCY_BOUNDS_MS.findIndex((bound) => call.durationMs <= bound);
    tally.latencyCounts[bucket === -1 ? SUPPLIER_LATENCY_BOUNDS_MS.length : bucket]! += 1;
    this.#timer ??= setTimeout(() => void this.flush(), this.flushEveryMs).unref();
  }

  async #write(batch: Map<string, Tally>): Promise<void> {
    if (batch.size === 0) return;
    const recordedAt = clock.now();
    try {
      await this.db.prisma.supplierCallStat.createMany({
        data: [...batch].map(([supplier, tally]) => ({ id: newId("scs"), supplier, process: this.#process, recordedAt, ...tally })),
      });
    } catch (error) {
      this.log.error({ err: error }, "supplier call figures could not be written");
      // An outage loses no figures: they wait for the next flush.
      if (databaseFault(error)) for (const [supplier, tally] of batch) this.#merge(supplier, tally);
    }
  }

  #merge(supplier: string, tally: Tally): void {
    const pending = this.#pending.get(supplier) ?? emptyTally();
    pending.calls += tally.calls;
    pending.errors += tally.errors;
    pending.timeouts += tally.timeouts;
    tally.latencyCounts.forEach((count, index) => (pending.latencyCounts[index]! += count));
    this.#pending.set(supplier, pending);
    this.#timer ??= setTimeout(() => void this.flush(), this.flushEveryMs).unref();
  }
}

/** The upper bound of the bucket holding the `share` quantile (ms), the last bound for the unbounded one; null without calls. */
function percentile(tally: Tally, share: number): number | null {
  if (tally.calls === 0) return null;
  const rank = Math.ceil(share * tally.calls);
  let seen = 0;
  for (let index = 0; index < tally.latencyCounts.length; index++) {
    seen += tally.latencyCounts[index]!;
    if (seen >= rank) return SUPPLIER_LATENCY_BOUNDS_MS[Math.min(index, SUPPLIER_LATENCY_BOUNDS_MS.length - 1)]!;
  }
  return SUPPLIER_LATENCY_BOUNDS_MS[SUPPLIER_LATENCY_BOUNDS_MS.length - 1]!;
}

/** The figures' rows are removed an hour after they were written: readings look back five minutes. */
export function supplierStatRetention(db: Database): RetentionRule {
  return deleteRule(db, "SupplierCallStat", ["id"], "recordedAt", (now) => Sql.sql`"recordedAt" < ${sqlTimestamp(db.provider, new Date(now.getTime() - KEPT_MS))}`);
}
