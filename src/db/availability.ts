import { clock } from "../clock";
import { appError, type AppError } from "../errors/app-error";
import type { Logger } from "../logger";
import { DatabaseUnavailableError, databaseFault, type DatabaseFault } from "./errors";
import { RefusalSummary } from "./refusal-summary";

/** How long after each failed probe the next one runs: quick at first, then every quarter second. */
const PROBE_DELAYS_MS = [0, 50, 100, 200, 250];
/** How often a full disk is looked at again for room, where that can be seen. */
const ROOM_PROBE_EVERY_MS = 1000;
/** A deferred write (`defer`) is tried this often while the database refuses it, this many times at most. */
const DEFERRED_RETRY_MS = 1000;
const DEFERRED_ATTEMPTS = 120;
/** Deferred writes kept at most: past this, what they would tidy up is left to its lease or lifetime. */
const MAX_DEFERRED = 10_000;
/** Retry-After for a full disk: freeing space takes an operator. */
const STORAGE_FULL_RETRY_AFTER_SECONDS = 30;
/** A busy pool has the database probed at most this often (a pool full of connections lost to a silent network looks busy). */
const BUSY_CHECK_EVERY_MS = 1000;
/** Retry-After during an outage: 1 s at first, one more second per 10 s of outage, at most this. */
const MAX_OUTAGE_RETRY_AFTER_SECONDS = 10;

/** A fault that is going on: since when and why (the first failure's reason). */
interface Episode {
  sinceMs: number;
  reason: string;
  /** Requests refused since it began. */
  refused: number;
}

/** What /readyz and /metrics say about the database. */
export interface AvailabilityStatus {
  reachable: boolean;
  /** Set while the database is unreachable. */
  unreachable: { since: Date; reason: string } | null;
  /** Set while the database has no room to write. */
  storageFull: { since: Date; reason: string } | null;
}

/**
 * Whether the database can be reached, as this process last found out, and what follows from it.
 *
 * The first statement that fails because the database cannot be reached (errors.ts classifies)
 * makes it *unreachable*: that is logged once ("database unreachable"), new statements are
 * refused at once without waiting for the network (`assertReachable`, called by the driver
 * adapter: see watched-adapter.ts), and a probe (a new connection of its own) runs with
 * backoff (at once, then after 0.05, 0.1, 0.2 and every 0.25 s) until it gets an answer. Then
 * the database is reachable again: that is logged ("database reachable again", with how long
 * it was down), and whatever waited for it runs (background loops, deferred writes).
 *
 * A busy pool (no pooled connection came free in time) refuses that request alone and has the
 * probe run once (at most once a second) on a connection of its own: a database that does not
 * answer it is unreachable (pooled connections stuck on a silent network look busy); one that
 * answers is merely loaded, and nothing else happens.
 *
 * A full disk (storage_full) refuses only the writes that need room: reads go on. The episode
 * ends when `roomProbe` sees room again (SQLite: the file may grow and its disk has space; looked
 * at every second), or, where room cannot be seen (PostgreSQL's server), with the first write
 * that succeeds.
 *
 * Requests refused for either reason are counted, and the log sums them up at most once a
 * second ("N requests refused in the last second") instead of a line and a stack per request.
 */
export class DatabaseAvailability {
  #log: Logger | null = null;
  #unreachable: Episode | null = null;
  #storageFull: Episode | null = null;
  #probeTimer: NodeJS.Timeout | null = null;
  #roomTimer: NodeJS.Timeout | null = null;
  #probeAttempt = 0;
  #probing = false;
  #checkingBusy = false;
  #lastBusyCheckMs = Number.NEGATIVE_INFINITY;
  #closed = false;
  #waiters: Array<() => void> = [];
  readonly #summary = new RefusalSummary(
    (refused, deferred) => this.#log?.warn({ database: this.description, refused, deferredBackgroundWork: deferred }, `${refused} request${refused === 1 ? "" : "s"} refused in the last second`),
    () => this.#unreachable !== null || this.#storageFull !== null,
  );
  /** Writes waiting in `defer`. */
  #deferred = 0;
  /** Totals since start, for /metrics. */
  readonly refusedTotal = { unreachable: 0, storage_full: 0, busy: 0 };

  constructor(
    /** Resolves when the database answers, rejects otherwise; never uses a connection that may be broken. */
    private readonly probe: () => Promise<void>,
    /** Names the database in log lines (no credentials). */
    readonly description: string,
    /** Whether the database has room to grow, where that can be seen. */
    private readonly roomProbe?: () => Promise<boolean>,
  ) {}

  /** Where the outage lines go; until then nothing is logged. */
  reportTo(log: Logger): void {
    this.#log = log;
  }

  /** False while the database is known to be unreachable. */
  get reachable(): boolean {
    return this.#unreachable === null;
  }

  /** Throws DatabaseUnavailableError, without touching the network, while the database is unreachable. */
  assertReachable(): void {
    if (this.#unreachable) throw new DatabaseUnavailableError(this.#unreachable.reason);
  }

  status(): AvailabilityStatus {
    const episode = (current: Episode | null) => current && { since: new Date(current.sinceMs), reason: current.reason };
    return { reachable: this.reachable, unreachable: episode(this.#unreachable), storageFull: episode(this.#storageFull) };
  }

  /**
   * Takes note of a failed statement: a database fault starts (or continues) its episode and is
   * returned; anything else returns null.
   */
  notice(error: unknown): DatabaseFault | null {
    const fault = databaseFault(error);
    if (!fault || this.#closed) return fault;
    if (fault.kind === "unreachable" && !this.#unreachable) {
      this.#unreachable = { sinceMs: clock.nowMs(), reason: fault.reason, refused: 0 };
      this.#log?.error({ database: this.description, reason: fault.reason }, "database unreachable");
      this.#probeAttempt = 0;
      this.#scheduleProbe();
      this.#summary.start();
    }
    if (fault.kind === "busy" && !this.#unreachable) this.#checkWhenBusy();
    if (fault.kind === "storage_full" && !this.#storageFull) {
      this.#storageFull = { sinceMs: clock.nowMs(), reason: fault.reason, refused: 0 };
      this.#log?.error({ database: this.description, reason: fault.reason }, "database storage full: writes are refused until there is room");
      this.#summary.start();
      this.#scheduleRoomProbe();
    }
    return fault;
  }

  /**
   * The answer to a request that failed with `error`, when that is a database fault: 503
   * `service_unavailable` (unreachable) or 507 `storage_full`, each with Retry-After, counted
   * for the log's summary. Null for any other error.
   */
  refusal(error: unknown): AppError | null {
    const fault = this.notice(error);
    if (!fault) return null;
    this.refusedTotal[fault.kind]++;
    this.#summary.refused();
    const episode = fault.kind === "unreachable" ? this.#unreachable : this.#storageFull;
    if (episode) episode.refused++;
    const retryAfterSeconds = this.#retryAfterSeconds(fault.kind);
    if (fault.kind === "busy") return appError("service_unavailable", { retryAfterSeconds, reason: `The database is too busy to take this change now. Retry in ${retryAfterSeconds} s.` });
    return fault.kind === "unreachable"
      ? appError("service_unavailable", { retryAfterSeconds, reason: `The database cannot be reached. Retry in ${retryAfterSeconds} s.` })
      : appError("storage_full", { retryAfterSeconds, reason: `The database has no room to store this change; nothing of it was kept. Reads still work. Retry in ${retryAfterSeconds} s.` });
  }

  /**
   * Takes note of background work that failed with `error` (a job, a delivery, a flush): true
   * when it is a database fault, which the summary counts instead of a log line of its own.
   */
  absorb(error: unknown): boolean {
    if (!this.notice(error)) return false;
    this.#summary.deferred();
    return true;
  }

  /** A write changed rows: where room cannot be seen, a full disk has room again. */
  noticeWrite(): void {
    if (this.#storageFull && !this.roomProbe) this.#roomAgain();
  }

  /** Asks the database directly whether it answers, after the pool had no connection free. */
  #checkWhenBusy(): void {
    const now = clock.nowMs();
    if (this.#checkingBusy || now - this.#lastBusyCheckMs < BUSY_CHECK_EVERY_MS) return;
    this.#lastBusyCheckMs = now;
    this.#checkingBusy = true;
    void this.probe()
      .then(
        () => undefined,
        (error: unknown) => error,
      )
      .then((failure) => {
        this.#checkingBusy = false;
        // Only an outage counts: a probe refused otherwise (a password) is no news about the load.
        if (databaseFault(failure)?.kind === "unreachable") this.notice(failure);
      });
  }

  #scheduleRoomProbe(): void {
    const probe = this.roomProbe;
    if (!probe || this.#closed) return;
    this.#roomTimer = setTimeout(() => {
      this.#roomTimer = null;
      void probe()
        .catch(() => false)
        .then((room) => {
          if (!this.#storageFull || this.#closed) return;
          if (room) this.#roomAgain();
          else this.#scheduleRoomProbe();
        });
    }, ROOM_PROBE_EVERY_MS);
    this.#roomTimer.unref();
  }

  #roomAgain(): void {
    const episode = this.#storageFull;
    if (!episode) return;
    this.#storageFull = null;
    this.#log?.warn({ database: this.description, fullSeconds: this.#secondsSince(episode), refused: episode.refused }, "database storage has room again");
  }

  /** Seconds a client should wait before retrying a request refused for `kind`. */
  #retryAfterSeconds(kind: DatabaseFault["kind"]): number {
    if (kind === "storage_full") return STORAGE_FULL_RETRY_AFTER_SECONDS;
    if (kind === "busy") return 1;
    const downSeconds = this.#unreachable ? this.#secondsSince(this.#unreachable) : 0;
    return Math.min(MAX_OUTAGE_RETRY_AFTER_SECONDS, 1 + Math.floor(downSeconds / 10));
  }

  /** Null while the database is reachable; otherwise resolves once it is again (or this closes). */
  whenReachable(): Promise<void> | null {
    if (!this.#unreachable || this.#closed) return null;
    return new Promise((resolve) => this.#waiters.push(resolve));
  }

  /**
   * Runs `write` (tidying up after work a fault cut short: a lease or claim to give back) once
   * the database can take it: at once, or when it is reachable again; while it fails with a
   * database fault, again every second, for two minutes at most. Other failures are dropped:
   * what it tidies up has a lease or lifetime of its own.
   */
  defer(write: () => Promise<unknown>): void {
    if (this.#deferred >= MAX_DEFERRED || this.#closed) return;
    this.#deferred++;
    const attempt = async (left: number): Promise<void> => {
      await this.whenReachable();
      if (this.#closed) return;
      try {
        await write();
      } catch (error) {
        if (databaseFault(error) && left > 1) {
          setTimeout(() => void attempt(left - 1), DEFERRED_RETRY_MS).unref();
          return;
        }
      }
      this.#deferred--;
    };
    void attempt(DEFERRED_ATTEMPTS);
  }

  /** Stops probing and summing up, and releases whatever waits. */
  close(): void {
    this.#closed = true;
    if (this.#probeTimer) clearTimeout(this.#probeTimer);
    if (this.#roomTimer) clearTimeout(this.#roomTimer);
    this.#probeTimer = this.#roomTimer = null;
    this.#summary.stop();
    this.#releaseWaiters();
  }

  #scheduleProbe(): void {
    if (this.#probing || this.#probeTimer || this.#closed) return;
    const delay = PROBE_DELAYS_MS[Math.min(this.#probeAttempt, PROBE_DELAYS_MS.length - 1)]!;
    this.#probeAttempt++;
    this.#probeTimer = setTimeout(() => void this.#runProbe(), delay);
    this.#probeTimer.unref();
  }

  async #runProbe(): Promise<void> {
    this.#probeTimer = null;
    this.#probing = true;
    let answered = false;
    try {
      await this.probe();
      answered = true;
    } catch {
      // Still unreachable: the next probe is scheduled below.
    }
    this.#probing = false;
    if (this.#closed || !this.#unreachable) return;
    if (!answered) return this.#scheduleProbe();
    const episode = this.#unreachable;
    this.#unreachable = null;
    // This second's refusals are in the episode's total, told now.
    this.#summary.reset();
    this.#log?.warn({ database: this.description, downSeconds: this.#secondsSince(episode), refused: episode.refused }, "database reachable again");
    this.#releaseWaiters();
  }

  #releaseWaiters(): void {
    const waiters = this.#waiters;
    this.#waiters = [];
    for (const resolve of waiters) resolve();
  }

  #secondsSince(episode: Episode): number {
    return Math.round((clock.nowMs() - episode.sinceMs) / 100) / 10;
  }
}
