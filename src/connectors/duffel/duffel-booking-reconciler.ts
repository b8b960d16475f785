import type { DatabaseAvailability } from "../../db/availability";
import type { Logger } from "../../logger";
import { PollingLoop } from "../../polling-loop";

/** Intents settled per round; a full round runs another at once. */
const BATCH = 50;

/**
 * Settles Duffel bookings a crashed or stalled process left `requested` every `pollMs`, in every
 * process: `settle` (DuffelBookings.settleAbandoned, finishing each as its owner does) looks at up
 * to `limit` of them and says how many it looked at.
 */
export class DuffelBookingReconciler {
  readonly #loop: PollingLoop;

  constructor(settle: (limit: number) => Promise<number>, log: Logger, options: { pollMs: number; availability?: DatabaseAvailability }) {
    this.#loop = new PollingLoop(async () => (await settle(BATCH)) === BATCH, options.pollMs, (error) => log.error({ err: error }, "Duffel bookings could not be settled"), options.availability);
  }

  start(): void {
    this.#loop.start();
  }

  stop(): Promise<void> {
    return this.#loop.stop();
  }
}
