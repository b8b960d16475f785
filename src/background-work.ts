import type { Services } from "./services";

/** How often keys past their 24 hours are deleted. */
const IDEMPOTENCY_SWEEP_MS = 10 * 60 * 1000;

/**
 * Work a server process does besides answering requests: running due order jobs, and deleting
 * expired idempotency keys. Returns what stops it (finishing the job round in progress).
 */
export async function startBackgroundWork(services: Services): Promise<() => Promise<void>> {
  const { db, jobQueue, jobWorker, idempotency, log } = services;
  // One process serves a SQLite database: a lease found at start is a dead predecessor's.
  if (db.provider === "sqlite") await jobQueue.releaseAllLeases();
  jobWorker.start();
  const sweep = () => idempotency.sweepExpired().catch((error: unknown) => log.error({ err: error }, "expired idempotency keys could not be deleted"));
  const sweeper = setInterval(sweep, IDEMPOTENCY_SWEEP_MS).unref();
  void sweep();
  return async () => {
    clearInterval(sweeper);
    await jobWorker.stop();
  };
}
