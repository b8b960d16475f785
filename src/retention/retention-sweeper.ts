import { setImmediate as nextTurn } from "node:timers/promises";
import type { DatabaseAvailability } from "../db/availability";
import type { Logger } from "../logger";
import { PollingLoop } from "../polling-loop";
import { clock } from "../clock";
import type { RemovedBatch, RetentionRule } from "./retention-rule";

/** Rows a batch starts with; then as many as fit in BATCH_TARGET_MS. */
const FIRST_BATCH = 100;
const MIN_BATCH = 10;
const MAX_BATCH = 2000;
/**
 * How long one batch may take. On SQLite a batch holds the one connection, so a request waits at
 * most about this long for it; on PostgreSQL it locks only rows past keeping.
 */
const BATCH_TARGET_MS = 4;

/** One batch of one table: how many rows it removed, and how long it held the database. */
export interface SweptBatch extends RemovedBatch {
  table: string;
}

/** A tenant whose clock runs ahead of the process's, and by how much (tenancy/tenant-clock.ts). */
export interface ClockAhead {
  tenantId: string;
  offsetMs: number;
}

/**
 * Removes what every retention rule says is past keeping (docs/retention.md), in the background
 * of every process: every RETENTION_SWEEP_SECONDS, rounds of one bounded batch per rule, the
 * event loop free between batches, until no rule has more. A batch's size follows how long the
 * last one held the database (not how long it waited for its turn: a busy process would shrink
 * its batches and fall behind), so it stays near BATCH_TARGET_MS whatever the database.
 * Rows dated on their tenant's clock are swept on the process clock, and, for each sandbox tenant
 * whose clock runs ahead, on that tenant's clock too: its rows expire on its time.
 */
export class RetentionSweeper {
  readonly #loop: PollingLoop;
  readonly #limits = new Map<RetentionRule, number>();
  readonly #listeners: Array<(batch: SweptBatch) => void> = [];

  constructor(
    private readonly rules: readonly RetentionRule[],
    intervalMs: number,
    log: Logger,
    /** While it says the database cannot be reached, no sweep runs (none would succeed). */
    availability?: DatabaseAvailability,
    /** The tenants whose clocks run ahead, read at each round. */
    private readonly clocksAhead: () => Promise<readonly ClockAhead[]> = async () => [],
  ) {
    this.#loop = new PollingLoop(() => this.round(), intervalMs, (error) => log.error({ err: error }, "retention sweep failed; it runs again at the next interval"), availability);
  }

  start(): void {
    this.#loop.start();
  }

  /** Stops sweeping, once the batch in progress is done. */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** Called after each batch (metrics). */
  onBatch(listener: (batch: SweptBatch) => void): void {
    this.#listeners.push(listener);
  }

  /** One batch of every rule (and of every tenant ahead, for rules dated by tenant); true when one of them may have more. */
  private async round(): Promise<boolean> {
    let more = false;
    const ahead = this.rules.some((rule) => rule.datedByTenant) ? await this.clocksAhead() : [];
    for (const rule of this.rules) {
      const now = clock.nowMs();
      more = (await this.batch(rule, new Date(now))) || more;
      if (!rule.datedByTenant) continue;
      for (const { tenantId, offsetMs } of ahead) more = (await this.batch(rule, new Date(now + offsetMs), tenantId)) || more;
    }
    return more;
  }

  /** One batch of `rule` at `now` (of one tenant's rows alone, when given); true when it was full. */
  private async batch(rule: RetentionRule, now: Date, tenantId?: string): Promise<boolean> {
    const limit = this.#limits.get(rule) ?? FIRST_BATCH;
    const { removed, heldMs } = await rule.removeBatch(now, limit, tenantId);
    for (const listener of this.#listeners) listener({ table: rule.table, removed, heldMs });
    this.#limits.set(rule, nextLimit(limit, removed, heldMs));
    // After a batch that removed rows, the next one waits its turn behind the requests that came meanwhile.
    if (removed > 0) await nextTurn();
    return removed === limit;
  }
}

/** The next batch's size: halved after a slow batch, doubled after a quick full one. */
function nextLimit(limit: number, removed: number, heldMs: number): number {
  if (heldMs > BATCH_TARGET_MS) return Math.max(MIN_BATCH, Math.floor(limit / 2));
  if (removed === limit && heldMs < BATCH_TARGET_MS / 2) return Math.min(MAX_BATCH, limit * 2);
  return limit;
}
