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
 * How long one batch may take where a batch holds the database (SQLite's one connection): a
 * request waits at most about this long for it.
 */
const BATCH_TARGET_MS = 4;
/**
 * The rows of a batch on PostgreSQL, whatever it took. There a batch locks only rows past keeping
 * (SKIP LOCKED), so no request waits for it; and the time a process sees a statement take is
 * mostly its wait for a pooled connection and its event loop's turn, which grow with the load.
 * Sized on that time, batches shrank to 10 rows under load, and the sweep, running batch after
 * batch of every table, removed searches more slowly than they came (docs/retention.md#the-soak).
 */
export const POSTGRES_BATCH_ROWS = 500;

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
 * event loop free between batches, then rounds of the rules whose last batch was full until none
 * is. On SQLite a batch's size follows how long the last one held the connection (not how long
 * it waited for its turn: a busy process would shrink its batches and fall behind), so it stays
 * near BATCH_TARGET_MS; on PostgreSQL it is POSTGRES_BATCH_ROWS.
 * Rows dated on their tenant's clock are swept on the process clock, and, for each sandbox tenant
 * whose clock runs ahead, on that tenant's clock too: its rows expire on its time.
 */
export class RetentionSweeper {
  readonly #loop: PollingLoop;
  readonly #limits = new Map<RetentionRule, number>();
  readonly #listeners: Array<(batch: SweptBatch) => void> = [];
  /** The rules whose last batch was full: the next round, run at once, is theirs alone. */
  #behind: ReadonlySet<RetentionRule> | null = null;

  constructor(
    private readonly rules: readonly RetentionRule[],
    intervalMs: number,
    log: Logger,
    /** While it says the database cannot be reached, no sweep runs (none would succeed). */
    availability?: DatabaseAvailability,
    /** The tenants whose clocks run ahead, read at each round. */
    private readonly clocksAhead: () => Promise<readonly ClockAhead[]> = async () => [],
    /** Every batch this many rows (PostgreSQL: POSTGRES_BATCH_ROWS) instead of sized on its time. */
    private readonly fixedBatchRows?: number,
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

  /**
   * One batch of every rule (of those left behind by the last round, when it had any), and of
   * every tenant ahead for rules dated by tenant; true when one of them may have more. A table
   * still behind is not slowed by a statement per empty table each round.
   */
  private async round(): Promise<boolean> {
    const rules = this.#behind ? this.rules.filter((rule) => this.#behind!.has(rule)) : this.rules;
    const behind = new Set<RetentionRule>();
    const ahead = rules.some((rule) => rule.datedByTenant) ? await this.clocksAhead() : [];
    for (const rule of rules) {
      const now = clock.nowMs();
      if (await this.batch(rule, new Date(now))) behind.add(rule);
      if (!rule.datedByTenant) continue;
      for (const { tenantId, offsetMs } of ahead) if (await this.batch(rule, new Date(now + offsetMs), tenantId)) behind.add(rule);
    }
    this.#behind = behind.size > 0 ? behind : null;
    return behind.size > 0;
  }

  /** One batch of `rule` at `now` (of one tenant's rows alone, when given); true when it was full. */
  private async batch(rule: RetentionRule, now: Date, tenantId?: string): Promise<boolean> {
    const limit = this.fixedBatchRows ?? this.#limits.get(rule) ?? FIRST_BATCH;
    const { removed, heldMs } = await rule.removeBatch(now, limit, tenantId);
    for (const listener of this.#listeners) listener({ table: rule.table, removed, heldMs });
    if (!this.fixedBatchRows) this.#limits.set(rule, nextLimit(limit, removed, heldMs));
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
