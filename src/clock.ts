/**
 * The one reading of "now" in the product. Offers' expiry, hold deadlines, job leases, rate
 * limits, idempotency lifetimes, webhook schedules, cursors and the simulated airline's "days
 * before departure" all ask this module, so a test (or the calendar sweep) can run the whole
 * product on another day by moving one clock.
 *
 * The clock runs forward in real time; `setClock` only moves its starting point. Timers
 * (setTimeout) keep measuring real durations, which is what delays and timeouts mean.
 */
let offsetMs = 0;

export const clock = {
  /** Milliseconds since the epoch, as the product sees them. */
  nowMs(): number {
    return Date.now() + offsetMs;
  },
  now(): Date {
    return new Date(Date.now() + offsetMs);
  },
};

/** Runs the clock from `instant` onwards (tests and CLOCK_START; production leaves it alone). */
export function setClock(instant: Date): void {
  offsetMs = instant.getTime() - Date.now();
}
