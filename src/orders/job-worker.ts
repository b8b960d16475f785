import type { Logger } from "../logger";
import { PollingLoop } from "../polling-loop";
import type { ClaimedJob, OrderJobQueue } from "./order-job-queue";
import type { OrderJobRunner } from "./order-job-runner";
import { clock } from "../clock";

/** Jobs claimed per round: enough to keep up with a burst, few enough to share the event loop. */
const BATCH = 50;

export interface JobWorkerOptions {
  /** How often the queue is read without being woken: picks up other processes' jobs and expired leases. */
  pollMs: number;
}

export type ClaimListener = (job: ClaimedJob, claimedAt: Date) => void;

/**
 * Runs due order jobs. A process wakes its worker for the jobs it queues (at their due time),
 * and every worker also reads the queue every `pollMs` (PollingLoop), so jobs of a process that
 * died are run by whoever is left. A round runs the jobs it claims to the end, renewing each
 * one's lease meanwhile, however long the airline takes.
 */
export class JobWorker {
  readonly #loop: PollingLoop;
  readonly #claimListeners = new Set<ClaimListener>();

  constructor(
    private readonly queue: OrderJobQueue,
    private readonly runner: OrderJobRunner,
    private readonly log: Logger,
    options: JobWorkerOptions,
  ) {
    this.#loop = new PollingLoop(() => this.#round(), options.pollMs, (error) => this.log.error({ err: error }, "order jobs could not be claimed"));
  }

  /** Calls `listener` with every job this worker claims (metrics: how late it ran); returns what unsubscribes. */
  onClaimed(listener: ClaimListener): () => void {
    this.#claimListeners.add(listener);
    return () => this.#claimListeners.delete(listener);
  }

  start(): void {
    this.#loop.start();
  }

  /** A job this process queued is due at `runAt`. */
  wake(runAt: Date): void {
    this.#loop.wake(runAt);
  }

  /** Stops waking, and resolves once the round in progress (if any) has finished. */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  async #round(): Promise<boolean> {
    const claimed = await this.queue.claimDue(BATCH);
    const claimedAt = clock.now();
    await Promise.all(
      claimed.map(async (job) => {
        for (const listener of this.#claimListeners) listener(job, claimedAt);
        const about = { jobId: job.id, orderId: job.orderId, kind: job.kind, attempts: job.attempts };
        const lease = this.queue.keepLeased(job, (error) => this.log.warn({ err: error, ...about }, "order job lease could not be renewed; trying again"));
        try {
          if ((await this.runner.run(job, lease)) === "lease_lost") {
            this.log.warn(about, "order job lease ran out and was taken over while it ran; its outcome was not written (the lease holder finishes the job)");
          }
        } catch (error) {
          // The job stays leased and runs again when the lease is over.
          this.log.error({ err: error, ...about }, "order job failed; it will be retried");
        } finally {
          await lease.end();
        }
      }),
    );
    return claimed.length === BATCH;
  }
}
