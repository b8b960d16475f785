/** How often refusals are summed up while there are any. */
const SUMMARY_EVERY_MS = 1000;

/**
 * Requests refused and background work put off because of the database, counted per second and
 * told in one line a second (`write`) while there are any, instead of a line each. It keeps
 * ticking while `goingOn()` says a fault lasts, and stops once a quiet second finds none.
 */
export class RefusalSummary {
  #refused = 0;
  #deferred = 0;
  #timer: NodeJS.Timeout | null = null;

  constructor(
    private readonly write: (refused: number, deferred: number) => void,
    private readonly goingOn: () => boolean,
  ) {}

  refused(): void {
    this.#refused++;
    this.start();
  }

  deferred(): void {
    this.#deferred++;
    this.start();
  }

  /** Ticks from now on (a fault began), if not already. */
  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.#tick(), SUMMARY_EVERY_MS);
    this.#timer.unref();
  }

  /** Forgets this second's counts: they were told otherwise (the fault's end gives its total). */
  reset(): void {
    this.#refused = this.#deferred = 0;
  }

  stop(): void {
    if (this.#timer) clearInterval(this.#timer);
    this.#timer = null;
  }

  #tick(): void {
    const refused = this.#refused;
    const deferred = this.#deferred;
    this.reset();
    if (refused > 0 || deferred > 0) this.write(refused, deferred);
    else if (!this.goingOn()) this.stop();
  }
}
