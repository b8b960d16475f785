import type { Services } from "./services";

/**
 * Work a server process does besides answering requests: running due order jobs, undoing or
 * finishing the supplier calls a crashed process left (orders/recovery/intent-reconciler.ts), sending
 * webhook deliveries, connectors' polls of their suppliers, and removing what is past keeping (retention/retention-sweeper.ts). Returns
 * what stops it (finishing the job, intent and retention rounds in progress, interrupting webhook
 * attempts in flight: they are sent again).
 */
export async function startBackgroundWork(services: Services): Promise<() => Promise<void>> {
  const { db, jobQueue, jobWorker, callIntents, intentReconciler, webhookQueue, webhookDispatcher, retention, supplierPolls } = services;
  // One process serves a SQLite database: a lease found at start is a dead predecessor's.
  if (db.provider === "sqlite") await Promise.all([jobQueue.releaseAllLeases(), webhookQueue.releaseAllLeases(), callIntents.releaseAllLeases()]);
  jobWorker.start();
  intentReconciler.start();
  webhookDispatcher.start();
  retention.start();
  for (const poll of supplierPolls) poll.start();
  return async () => {
    await Promise.all([jobWorker.stop(), intentReconciler.stop(), webhookDispatcher.stop(), retention.stop(), ...supplierPolls.map((poll) => poll.stop())]);
  };
}
