import type { Services } from "./services";

/**
 * Work a server process does besides answering requests: running due order jobs, giving back
 * seats a crashed process left held (orders/recovery/seat-recovery.ts), settling Duffel bookings a
 * crashed process left unfinished (duffel/duffel-booking-reconciler.ts), sending webhook deliveries,
 * and removing what is past keeping (retention/retention-sweeper.ts). Returns what stops it
 * (finishing the job, seat and retention rounds in progress, interrupting webhook attempts in
 * flight: they are sent again).
 */
export async function startBackgroundWork(services: Services): Promise<() => Promise<void>> {
  const { db, jobQueue, jobWorker, seatIntents, seatReconciler, webhookQueue, webhookDispatcher, retention, duffelBookingReconciler } = services;
  // One process serves a SQLite database: a lease found at start is a dead predecessor's.
  if (db.provider === "sqlite") await Promise.all([jobQueue.releaseAllLeases(), webhookQueue.releaseAllLeases(), seatIntents.releaseAllLeases()]);
  jobWorker.start();
  seatReconciler.start();
  webhookDispatcher.start();
  retention.start();
  duffelBookingReconciler.start();
  return async () => {
    await Promise.all([jobWorker.stop(), seatReconciler.stop(), webhookDispatcher.stop(), retention.stop(), duffelBookingReconciler.stop()]);
  };
}
