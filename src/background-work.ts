import type { Services } from "./services";

/** How often keys past their 24 hours are deleted. */
const IDEMPOTENCY_SWEEP_MS = 10 * 60 * 1000;

/**
 * Work a server process does besides answering requests: running due order jobs, giving back
 * seats a crashed process left held (orders/recovery/seat-recovery.ts), sending webhook deliveries, and
 * deleting expired idempotency keys. Returns what stops it (finishing the job and seat rounds
 * in progress, interrupting webhook attempts in flight: they are sent again).
 */
export async function startBackgroundWork(services: Services): Promise<() => Promise<void>> {
  const { db, jobQueue, jobWorker, seatIntents, seatReconciler, webhookQueue, webhookDispatcher, idempotency, log } = services;
  // One process serves a SQLite database: a lease found at start is a dead predecessor's.
  if (db.provider === "sqlite") await Promise.all([jobQueue.releaseAllLeases(), webhookQueue.releaseAllLeases(), seatIntents.releaseAllLeases()]);
  jobWorker.start();
  seatReconciler.start();
  webhookDispatcher.start();
  const sweep = () => idempotency.sweepExpired().catch((error: unknown) => log.error({ err: error }, "expired idempotency keys could not be deleted"));
  const sweeper = setInterval(sweep, IDEMPOTENCY_SWEEP_MS).unref();
  void sweep();
  return async () => {
    clearInterval(sweeper);
    await Promise.all([jobWorker.stop(), seatReconciler.stop(), webhookDispatcher.stop()]);
  };
}
