import type { DatabaseAvailability } from "../../db/availability";
import { databaseFault } from "../../db/errors";
import type { Logger } from "../../logger";
import { PollingLoop } from "../../polling-loop";
import type { HoldExpiry } from "../payment/hold-expiry";
import { AIRLINE_JOB_KINDS, type AirlineJobKind, type ClaimedJob, type OrderJobQueue } from "./order-job-queue";
import type { OrderJobRunner } from "./order-job-runner";
import { clock } from "../../clock";

/** Airline jobs claimed per round: enough to keep up with a burst, few enough to share the event loop. */
const BATCH = 50;
/**
 * Hold deadlines claimed per round, cancelled in one transaction (hold-expiry.ts): ten thousand
 * due in one minute take a hundred rounds, and one round's SQLite transaction stays a few
 * milliseconds of the event loop.
 */
const HOLD_BATCH = 100;

export interface JobWorkerOptions {
  /** How often the queue is read without being woken: picks up other processes' jobs and expired leases. */
  pollMs: number;
  /** No round runs while the database is unreachable; jobs a database fault cut short are given back. */
  availability: DatabaseAvailability;
}

/** How long a job cut short by a full disk waits before it is claimed again. */
const STORAGE_FULL_RETRY_MS = 5000;

export type ClaimListener = (job: ClaimedJob, claimedAt: Date) => void;

/**
 * Runs due order jobs. A process wakes its worker for the jobs it queues (at their due time),
 * and every worker also reads the queue every `pollMs` (PollingLoop), so jobs of a process that
 * died are run by whoever is left. A round runs the jobs it claims to the end: each airline job
 * on its own, renewing its lease meanwhile, however long the airline takes; the holds whose
 * deadlines came, together (hold-expiry.ts).
 */
export class JobWorker {
  readonly #loop: PollingLoop;
  readonly #claimListeners = new Set<ClaimListener>();

  constructor(
    private readonly queue: OrderJobQueue,
    private readonly runner: OrderJobRunner,
    private readonly holds: HoldExpiry,
    private readonly log: Logger,
    private readonly options: JobWorkerOptions,
  ) {
    this.#loop = new PollingLoop(() => this.#round(), options.pollMs, (error) => this.log.error({ err: error }, "order jobs could not be claimed"), options.availability);
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
    const [holds, airline] = await Promise.all([this.queue.claimDue(HOLD_BATCH, ["payment_deadline"]), this.queue.claimDue(BATCH, AIRLINE_JOB_KINDS)]);
    const claimedAt = clock.now();
    for (const job of [...holds, ...airline]) for (const listener of this.#claimListeners) listener(job, claimedAt);
    await Promise.all([this.#expire(holds), ...airline.map((job) => this.#run(job))]);
    return holds.length === HOLD_BATCH || airline.length === BATCH;
  }

  /** One airline job, its lease renewed while the airline is asked. */
  async #run(job: ClaimedJob<AirlineJobKind>): Promise<void> {
    const about = { jobId: job.id, orderId: job.orderId, kind: job.kind, attempts: job.attempts };
    const lease = this.queue.keepLeased(job, (error) => this.log.warn({ err: error, ...about }, "order job lease could not be renewed; trying again"));
    let faulted = false;
    try {
      const result = await this.runner.run(job, lease);
      if (result === "lease_lost") {
        this.log.warn(about, "order job lease was lost while it ran (it ran out and was taken over, or the job was queued again); its outcome was not written (the job's next run finishes it)");
      }
      if (result === "abandoned") this.log.error(about, "the supplier issued no tickets within the longest wait; the order stays PROCESSING for an operator");
    } catch (error) {
      // The job stays leased and runs again when the lease is over (sooner after a database fault).
      this.log.error({ err: error, ...about }, "order job failed; it will be retried");
      faulted = databaseFault(error) !== null;
    } finally {
      const held = await lease.end();
      if (faulted && held) this.#retryAfterFault([job.id], held);
    }
  }

  /** Jobs a database fault cut short are claimable again once the database can take it, their attempt returned. */
  #retryAfterFault(jobIds: string[], lease: Date): void {
    const { availability } = this.options;
    availability.defer(() => this.queue.retryLater(jobIds, lease, availability.status().storageFull ? new Date(clock.nowMs() + STORAGE_FULL_RETRY_MS) : null));
  }

  /** The round's hold deadlines, together (hold-expiry.ts). */
  async #expire(jobs: ClaimedJob[]): Promise<void> {
    if (jobs.length === 0) return;
    try {
      const results = await this.holds.expire(jobs);
      const lost = jobs.filter((_, index) => results[index] === "lease_lost").map((job) => job.id);
      if (lost.length > 0) this.log.warn({ jobIds: lost }, "payment deadline job leases were lost while they ran; their outcomes were not written (the jobs' next runs finish them)");
    } catch (error) {
      // The jobs stay leased and run again when the leases are over (sooner after a database fault).
      this.log.error({ err: error, jobIds: jobs.map((job) => job.id) }, "payment deadline jobs failed; they will be retried");
      if (databaseFault(error)) this.#retryAfterFault(jobs.map((job) => job.id), jobs[0]!.lease);
    }
  }
}
