import type { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import type { AirlineJobKind, OrderJobQueue } from "./order-job-queue";
import { clock } from "../../clock";

/**
 * Work that can grow while its job waits (the EMDs of services paid since, the e-tickets of a
 * change confirmed since): a job already queued is queued again (`requeue`), not a second time.
 */
const QUEUED_AGAIN: ReadonlySet<AirlineJobKind> = new Set(["emd", "reissue"]);

/** An airline job scheduled with an order's change: `statement` rides in the change's batch; `wake`, once it committed, tells this process's worker. */
export interface ScheduledJob {
  statement: Sql.Sql;
  runAt: Date;
  wake(): void;
}

/**
 * The airline work an order change asks for (ticketing, a refund, EMDs, a reissue), scheduled the
 * one way: queued in the change's own transaction, due after the airline's delay
 * (TICKETING_DELAY_MS), and this process's worker woken for it after the commit (any process's
 * worker finds it on its next poll all the same).
 */
export class AirlineJobs {
  constructor(
    private readonly queue: OrderJobQueue,
    /** Tells this process's worker when a job it queued is due. */
    private readonly wakeWorker: (runAt: Date) => void,
    /** How long the airline takes to answer (TICKETING_DELAY_MS). */
    private readonly delayMs: number,
  ) {}

  /**
   * The `kind` job for the order, due `delayMs` from now. The airline's delay is a real duration,
   * so it runs on the process clock whatever the tenant's (a sandbox clock moved ahead past it
   * makes the job due at once: sandbox-clock/sandbox-clock.service.ts).
   */
  schedule(order: { id: string; tenantId: string }, kind: AirlineJobKind): ScheduledJob {
    const at = clock.now();
    const runAt = new Date(at.getTime() + this.delayMs);
    const statement = QUEUED_AGAIN.has(kind) ? this.queue.requeue(order, kind, runAt, at) : this.queue.enqueue(order, kind, runAt, at);
    return { statement, runAt, wake: () => this.wakeWorker(runAt) };
  }
}
