import type { Logger } from "../logger";
import type { ClaimedJob, OrderJobQueue } from "./order-job-queue";
import type { OrderJobRunner } from "./order-job-runner";

/** Jobs claimed per round: enough to keep up with a burst, few enough to share the event loop. */
const BATCH = 50;

export interface JobWorkerOptions {
  /** How often the queue is read without being woken: picks up other processes' jobs and expired leases. */
  pollMs: number;
}

export type ClaimListener = (job: ClaimedJob, claimedAt: Date) => void;

/**
 * Runs due order jobs. A process wakes its worker for the jobs it queues (at their due time),
 * and every worker also reads the queue every `pollMs`, so jobs of a process that died are run
 * by whoever is left. Rounds never overlap within a process.
 */
export class JobWorker {
  #timer: NodeJS.Timeout | null = null;
  #wakeAt = Number.POSITIVE_INFINITY;
  /** Due times of jobs this process queued that no round has reached yet. */
  #pending: number[] = [];
  #round: Promise<void> | null = null;
  #again = false;
  #stopped = true;
  readonly #claimListeners = new Set<ClaimListener>();

  constructor(
    private readonly queue: OrderJobQueue,
    private readonly runner: OrderJobRunner,
    private readonly log: Logger,
    private readonly options: JobWorkerOptions,
  ) {}

  /** Calls `listener` with every job this worker claims (metrics: how late it ran); returns what unsubscribes. */
  onClaimed(listener: ClaimListener): () => void {
    this.#claimListeners.add(listener);
    return () => this.#claimListeners.delete(listener);
  }

  start(): void {
    this.#stopped = false;
    this.#schedule(0);
  }

  /** A job this process queued is due at `runAt`. */
  wake(runAt: Date): void {
    if (this.#stopped) return;
    this.#pending.push(runAt.getTime());
    if (runAt.getTime() < this.#wakeAt) this.#schedule(runAt.getTime() - Date.now());
  }

  /** Stops waking, and resolves once the round in progress (if any) has finished. */
  async stop(): Promise<void> {
    this.#stopped = true;
    if (this.#timer) clearTimeout(this.#timer);
    this.#timer = null;
    await this.#round;
  }

  #schedule(delayMs: number): void {
    if (this.#timer) clearTimeout(this.#timer);
    const delay = Math.max(0, delayMs);
    this.#wakeAt = Date.now() + delay;
    this.#timer = setTimeout(() => this.#tick(), delay);
    this.#timer.unref();
  }

  #tick(): void {
    this.#timer = null;
    this.#wakeAt = Number.POSITIVE_INFINITY;
    if (this.#round) {
      this.#again = true;
      return;
    }
    this.#round = this.#rounds().finally(() => {
      this.#round = null;
      if (!this.#stopped) this.#scheduleNext();
    });
  }

  async #rounds(): Promise<void> {
    do {
      this.#again = false;
      const startedAt = Date.now();
      this.#pending = this.#pending.filter((due) => due > startedAt);
      let claimed: ClaimedJob[] = [];
      try {
        claimed = await this.queue.claimDue(BATCH);
      } catch (error) {
        this.log.error({ err: error }, "order jobs could not be claimed");
        return;
      }
      const claimedAt = new Date();
      await Promise.all(
        claimed.map(async (job) => {
          for (const listener of this.#claimListeners) listener(job, claimedAt);
          try {
            await this.runner.run(job);
          } catch (error) {
            // The job stays leased and runs again when the lease is over.
            this.log.error({ err: error, jobId: job.id, orderId: job.orderId, kind: job.kind }, "order job failed; it will be retried");
          }
        }),
      );
      if (claimed.length === BATCH) this.#again = true;
    } while (this.#again && !this.#stopped);
  }

  #scheduleNext(): void {
    const nextPending = Math.min(...this.#pending);
    this.#schedule(Math.min(nextPending - Date.now(), this.options.pollMs));
  }
}
