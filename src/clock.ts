/**
 * The one reading of "now" in the product. Offers' expiry, hold deadlines, job leases, rate
 * limits, idempotency lifetimes, webhook schedules, cursors and the simulated airline's "days
 * before departure" all ask a clock, so a test (or the calendar sweep) can run the whole product
 * on another day by moving one clock.
 *
 * `clock` is the process's: real time, the time of leases, timers, caches, schedules and anything
 * no tenant sees. What a tenant sees and the rules it trips over run on its own clock
 * (tenancy/tenant-clock.ts), which a sandbox tenant may move ahead of this one
 * (docs/sandbox-clock.md).
 *
 * The clock runs forward in real time; `setClock` only moves its starting point. Timers
 * (setTimeout) keep measuring real durations, which is what delays and timeouts mean.
 */
export interface Clock {
  /** Milliseconds since the epoch, as this clock reads them. */
  nowMs(): number;
  now(): Date;
}

let offsetMs = 0;

export const clock: Clock = {
  nowMs(): number {
    return Date.now() + offsetMs;
  },
  now(): Date {
    return new Date(Date.now() + offsetMs);
  },
};

/** Runs the clock from `instant` onwards (tests that share the server's process; production leaves it alone). */
export function setClock(instant: Date): void {
  offsetMs = instant.getTime() - Date.now();
}
