/** Renews a lease: the lease now held, or null when it was lost (see `renewLease`). */
export type LeaseRenewal = (lease: Date) => Promise<Date | null>;

/**
 * Keeps a claimed row's lease while its work runs, however long that takes: renews it every
 * `intervalMs` (a third of the lease, so one late renewal still leaves time), so that no other
 * process claims the row while this one is alive. `end()` stops renewing and returns the lease
 * held, the token the finishing write must name, or null if a renewal found it taken: the work's
 * outcome must then not be committed.
 */
export class LeaseHeartbeat {
  #lease: Date | null;
  /** The renewal in flight (renewals run one after another), so `end()` can wait for it. */
  #renewing: Promise<void> = Promise.resolve();
  readonly #timer: NodeJS.Timeout;

  constructor(
    lease: Date,
    private readonly renew: LeaseRenewal,
    intervalMs: number,
    /** A renewal that could not be written (the database did not answer): the next one tries again. */
    private readonly onError: (error: unknown) => void,
  ) {
    this.#lease = lease;
    this.#timer = setInterval(() => {
      this.#renewing = this.#renewing.then(() => this.#beat());
    }, intervalMs).unref();
  }

  /** Stops renewing; the lease still held once any renewal in flight has ended, or null. */
  async end(): Promise<Date | null> {
    clearInterval(this.#timer);
    await this.#renewing;
    return this.#lease;
  }

  async #beat(): Promise<void> {
    if (!this.#lease) return;
    try {
      this.#lease = await this.renew(this.#lease);
    } catch (error) {
      this.onError(error);
    }
    if (!this.#lease) clearInterval(this.#timer);
  }
}
