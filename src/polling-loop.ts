import { clock } from "./clock";
import type { DatabaseAvailability } from "./db/availability";

/**
 * What a round of background work reports: `true` when it left due work behind (a full batch),
 * so another round runs at once.
 */
export type Round = () => Promise<boolean>;

/**
 * Runs rounds of durable background work (order jobs, webhook deliveries): when woken for work
 * due at a given time, and at least every `pollMs` besides (work of other processes, expired
 * leases, retries). Rounds never overlap within a process; a wake during a round runs another
 * right after it. While `availability` says the database cannot be reached, no round runs: the
 * loop waits for the database's return (its probe backs off) and runs a round at once then.
 */
export class PollingLoop {
  #timer: NodeJS.Timeout | null = null;
  #wakeAt = Number.POSITIVE_INFINITY;
  /** Due times this process was woken for that no round has reached yet. */
  #pending: number[] = [];
  #running: Promise<void> | null = null;
  #again = false;
  #stopped = true;
  #waitingForDatabase = false;

  constructor(
    private readonly round: Round,
    private readonly pollMs: number,
    /** Called when a round throws; the loop carries on at its next wake or poll. */
    private readonly onError: (error: unknown) => void,
    private readonly availability?: DatabaseAvailability,
  ) {}

  start(): void {
    this.#stopped = false;
    this.#schedule(0);
  }

  /** Work is due at `at` (now by default). */
  wake(at: Date = clock.now()): void {
    if (this.#stopped) return;
    this.#pending.push(at.getTime());
    if (at.getTime() < this.#wakeAt) this.#schedule(at.getTime() - clock.nowMs());
  }

  /** Stops waking, and resolves once the round in progress (if any) has finished. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#running;
  }

  #schedule(delayMs: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    const delay = Math.max(0, delayMs);
    this.#wakeAt = clock.nowMs() + delay;
    this.#timer = setTimeout(() => this.#tick(), delay);
    this.#timer.unref();
  }

  #tick(): void {
    this.#timer = null;
    this.#wakeAt = Number.POSITIVE_INFINITY;
    const databaseBack = this.availability?.whenReachable();
    if (databaseBack) {
      if (!this.#waitingForDatabase) {
        this.#waitingForDatabase = true;
        void databaseBack.then(() => {
          this.#waitingForDatabase = false;
          if (!this.#stopped) this.#schedule(0);
        });
      }
      return;
    }
    if (this.#running) {
      this.#again = true;
      return;
    }
    this.#running = this.#rounds().finally(() => {
      this.#running = null;
      if (!this.#stopped) this.#scheduleNext();
    });
  }

  async #rounds(): Promise<void> {
    do {
      this.#again = false;
      const startedAt = clock.nowMs();
      this.#pending = this.#pending.filter((due) => due > startedAt);
      try {
        if (await this.round()) this.#again = true;
      } catch (error) {
        this.onError(error);
        return;
      }
    } while (this.#again && !this.#stopped);
  }

  #scheduleNext(): void {
    const nextPending = Math.min(...this.#pending);
    this.#schedule(Math.min(nextPending - clock.nowMs(), this.pollMs));
  }
}
