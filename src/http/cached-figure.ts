import { clock } from "../clock";
import type { Logger } from "../logger";

/** How old a database figure on /metrics may be before a scrape has it read again. */
export const METRICS_FIGURE_MAX_AGE_MS = 5_000;

/**
 * A figure read from the database for /metrics, served from memory: a scrape that finds it older
 * than `maxAgeMs` starts one read in the background and answers with the figure it has, so
 * scrapes, however many, cause one read per `maxAgeMs` at most. Only the first scrape waits for
 * a read; if that fails (the database is unreachable) the figure is left out of that scrape, so
 * /metrics keeps answering, with the database's own gauges, through an outage. (Each scrape
 * once ran cross-tenant counts on a public endpoint.)
 */
export class CachedFigure<T> {
  #value: T | undefined;
  #readAtMs = Number.NEGATIVE_INFINITY;
  #reading: Promise<T> | null = null;

  constructor(
    private readonly read: () => Promise<T>,
    private readonly maxAgeMs: number,
    /** Called when a background read fails; the figure it had is kept. */
    private readonly onError: (error: unknown) => void,
  ) {}

  /** The figure, or undefined when it was never read successfully. */
  async get(): Promise<T | undefined> {
    if (this.#value === undefined) {
      return this.#refresh().catch((error: unknown) => {
        this.onError(error);
        return undefined;
      });
    }
    if (clock.nowMs() - this.#readAtMs > this.maxAgeMs) this.#refresh().catch(this.onError);
    return this.#value;
  }

  #refresh(): Promise<T> {
    this.#reading ??= this.read()
      .then((value) => {
        this.#value = value;
        this.#readAtMs = clock.nowMs();
        return value;
      })
      .finally(() => {
        this.#reading = null;
      });
    return this.#reading;
  }
}

/** A /metrics figure read from the database at most every METRICS_FIGURE_MAX_AGE_MS; a failed read is logged. */
export function metricsFigure<T>(read: () => Promise<T>, log: Logger): CachedFigure<T> {
  return new CachedFigure(read, METRICS_FIGURE_MAX_AGE_MS, (error) => log.warn({ err: error }, "reading a /metrics figure failed"));
}
