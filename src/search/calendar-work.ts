import { appError } from "../errors/app-error";

/**
 * Indicative prices cost work in proportion to the fare searches they stand for (days × places
 * priced): a fare calendar of 90 days is 90, destination ideas from London for a month over
 * 1,000. That work is what a caller is charged (a cost point per CALENDAR_SEARCHES_PER_POINT
 * searches: the GraphQL cost, and the rate-limit tokens a point buys, graphql/query-cost.ts), and
 * what one tenant may have under way at once is bounded (`CalendarWork`).
 */
export const CALENDAR_SEARCHES_PER_POINT = 10;

/** The cost points of `searches` fare searches: at least one, as any field. */
export function calendarCost(searches: number): number {
  return Math.max(1, Math.ceil(searches / CALENDAR_SEARCHES_PER_POINT));
}

/** Calendars and destination ideas one tenant may have computed at once… */
const RUNNING_PER_TENANT = 2;
/** …and waiting for their turn behind them; one more is 429 `rate_limit_exceeded`. */
const WAITING_PER_TENANT = 8;

interface TenantQueue {
  running: number;
  waiting: Array<() => void>;
}

/**
 * What each tenant has under way of indicative-price work: at most RUNNING_PER_TENANT at once,
 * the next ones waiting in turn, so one tenant's burst neither takes every turn of the shared
 * fare worker nor grows without end (past WAITING_PER_TENANT waiting, 429 with Retry-After).
 */
export class CalendarWork {
  readonly #tenants = new Map<string, TenantQueue>();

  async run<T>(tenantId: string, work: () => Promise<T>): Promise<T> {
    let queue = this.#tenants.get(tenantId);
    if (!queue) this.#tenants.set(tenantId, (queue = { running: 0, waiting: [] }));
    if (queue.running >= RUNNING_PER_TENANT) {
      if (queue.waiting.length >= WAITING_PER_TENANT) {
        throw appError("rate_limit_exceeded", { retryAfterSeconds: 1, reason: `The tenant has ${RUNNING_PER_TENANT + WAITING_PER_TENANT} fare calendars or destination ideas under way; retry once they are answered.` });
      }
      await new Promise<void>((resolve) => queue.waiting.push(resolve));
    } else {
      queue.running += 1;
    }
    try {
      return await work();
    } finally {
      // The turn passes to the next waiting (it keeps the running count), or is given back.
      const next = queue.waiting.shift();
      if (next) next();
      else if (--queue.running === 0) this.#tenants.delete(tenantId);
    }
  }
}
