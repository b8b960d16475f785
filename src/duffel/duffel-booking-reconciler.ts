import type { DatabaseAvailability } from "../db/availability";
import type { Logger } from "../logger";
import { PollingLoop } from "../polling-loop";
import type { DuffelBookings } from "./duffel-bookings";

/** Intents settled per round; a full round runs another at once. */
const BATCH = 50;

/**
 * Settles Duffel bookings a crashed or stalled process left `requested` (DuffelBookings.settleAbandoned),
 * every `pollMs`, in every process: each is booked when Duffel has its order, failed when not.
 */
export class DuffelBookingReconciler {
  readonly #loop: PollingLoop;

  constructor(bookings: DuffelBookings, log: Logger, options: { pollMs: number; availability?: DatabaseAvailability }) {
    this.#loop = new PollingLoop(async () => (await bookings.settleAbandoned(BATCH)) === BATCH, options.pollMs, (error) => log.error({ err: error }, "Duffel bookings could not be settled"), options.availability);
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }
}
