import { randomUUID } from "node:crypto";
import { percentile } from "./events";
import type { Fixtures } from "./fixtures";
import { orderBody } from "./order-fixtures";

/** A request's status when it got no answer: it timed out (REQUEST_TIMEOUT_MS), or the connection failed. */
export const TIMED_OUT = -1;
export const CONNECTION_FAILED = 0;
/** A request a stream had nothing to send for (a booking before any search answered). */
export const NOTHING_TO_SEND = -2;

/** One request's outcome: when it was sent, how long it took, what it answered (or why not). */
interface Sent {
  at: number;
  ms: number;
  status: number;
}

/** What a stream's requests of one minute came to. */
export interface StreamMinute {
  sent: number;
  p50Ms: number;
  p99Ms: number;
  /** Answers by status (TIMED_OUT, CONNECTION_FAILED: none). */
  statuses: Record<string, number>;
  /** Due requests not sent because as many as MAX_IN_FLIGHT were unanswered: the server fell behind. */
  skipped: number;
}

/** Requests a stream may have unanswered at once before it skips the due ones (open loop, bounded). */
const MAX_IN_FLIGHT = 256;
const REQUEST_TIMEOUT_MS = 30_000;

/**
 * Requests sent at a fixed rate whatever the answers' latency (open loop), as traffic arrives:
 * a slow server shows in the latencies, not in a lower rate. A soak runs several side by side
 * (bench/soak.ts); a new kind of traffic is one more stream.
 */
export class SoakStream {
  private readonly sent: Sent[] = [];
  private skipped: Array<number> = [];
  private inFlight = 0;
  private count = 0;
  /** Answers with a 5xx status since the stream started (never forgotten). */
  serverErrors = 0;
  private timer: NodeJS.Timeout | null = null;

  constructor(
    readonly name: string,
    readonly perSecond: number,
    /** Sends request number `n`, resolving with its HTTP status. */
    private readonly request: (n: number) => Promise<number>,
  ) {}

  start(): void {
    const startedAt = performance.now();
    this.timer = setInterval(() => {
      const due = Math.floor(((performance.now() - startedAt) / 1000) * this.perSecond);
      while (this.count < due) this.send(this.count++);
    }, 5);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  /** The requests sent from `from` to `to` (epoch ms), as answered so far. */
  minute(from: number, to: number): StreamMinute {
    const within = this.sent.filter((request) => request.at >= from && request.at < to);
    const statuses: Record<string, number> = {};
    for (const request of within) statuses[request.status] = (statuses[request.status] ?? 0) + 1;
    const ms = within.filter((request) => request.status > CONNECTION_FAILED).map((request) => request.ms);
    return { sent: within.length, p50Ms: percentile(ms, 50), p99Ms: percentile(ms, 99), statuses, skipped: this.skipped.filter((at) => at >= from && at < to).length };
  }

  /** Forgets what was sent before `before` (epoch ms): a 20-minute soak at 200/s keeps only minutes still to report. */
  forget(before: number): void {
    const keep = this.sent.filter((request) => request.at >= before);
    this.sent.length = 0;
    this.sent.push(...keep);
    this.skipped = this.skipped.filter((at) => at >= before);
  }

  private send(n: number): void {
    const at = Date.now();
    if (this.inFlight >= MAX_IN_FLIGHT) {
      this.skipped.push(at);
      return;
    }
    this.inFlight += 1;
    const started = performance.now();
    void this.request(n)
      .catch((error: Error) => (error.name === "TimeoutError" ? TIMED_OUT : CONNECTION_FAILED))
      .then((status) => {
        this.inFlight -= 1;
        if (status >= 500) this.serverErrors += 1;
        this.sent.push({ at, ms: performance.now() - started, status });
      });
  }
}

/** A one-way LON→NYC search for one adult (`p1`, as orderBody books) with ~48 offers, on one of 60 dates. */
function searchBody(n: number) {
  const date = new Date(Date.now() + (20 + (n % 60)) * 86_400_000).toISOString().slice(0, 10);
  return { slices: [{ origin: "LON", destination: "NYC", departure_date: date }], passengers: [{ type: "adult", id: "p1" }], cabin_class: "economy", max_connections: 1 };
}

/** JSON POST with the tenant's key; resolves with the status and the body's text. */
async function post(baseUrl: string, path: string, key: string, body: unknown, headers: Record<string, string> = {}): Promise<{ status: number; text: string }> {
  const response = await fetch(baseUrl + path, {
    method: "POST",
    headers: { authorization: `Bearer ${key}`, "content-type": "application/json", ...headers },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  return { status: response.status, text: await response.text() };
}

/** How long after its ticketing was asked an order is cancelled: past TICKETING_DELAY_MS (2 s), so it is TICKETED by then. */
const CANCEL_AFTER_MS = 10_000;

/**
 * The soak's traffic: searches at `searchesPerSecond`; bookings at `bookingsPerSecond` of offers
 * those searches answered (the newest answer's cheapest offer not booked yet, one per search: a
 * search's offers share flights); the ticketing of every order booked; and the cancellation (a
 * quote, then its confirmation and the refund) of every other order, once ticketed. Each
 * booking, ticket and refund is an event the tenant's webhook and subscribers receive.
 */
export function mixedTraffic(baseUrl: string, fixtures: Fixtures, searchesPerSecond: number, bookingsPerSecond: number): SoakStream[] {
  const bookable: Array<{ id: string; total_amount: string; total_currency: string }> = [];
  const toTicket: string[] = [];
  const toCancel: Array<{ id: string; after: number }> = [];
  const everyNth = Math.max(1, Math.floor(searchesPerSecond / Math.max(bookingsPerSecond, 0.001) / 2));
  const searches = new SoakStream("searches", searchesPerSecond, async (n) => {
    const { status, text } = await post(baseUrl, "/v1/air/search", fixtures.tenantKey, searchBody(n));
    if (status === 200 && n % everyNth === 0) {
      const [offer] = (JSON.parse(text) as { data: { offers: Array<{ id: string; total_amount: string; total_currency: string }> } }).data.offers;
      if (offer) bookable.push(offer);
      if (bookable.length > 100) bookable.shift();
    }
    return status;
  });
  const bookings = new SoakStream("bookings", bookingsPerSecond, async () => {
    const offer = bookable.pop();
    if (!offer) return NOTHING_TO_SEND;
    const { status, text } = await post(baseUrl, "/v1/air/orders", fixtures.tenantKey, orderBody(offer), { "idempotency-key": randomUUID() });
    if (status === 201) toTicket.push((JSON.parse(text) as { data: { id: string } }).data.id);
    return status;
  });
  const ticketing = new SoakStream("ticketing", bookingsPerSecond, async (n) => {
    const id = toTicket.shift();
    if (!id) return NOTHING_TO_SEND;
    const { status } = await post(baseUrl, `/v1/air/orders/${id}/actions/ticket`, fixtures.tenantKey, {}, { "idempotency-key": randomUUID() });
    if (status < 300 && n % 2 === 0) toCancel.push({ id, after: Date.now() + CANCEL_AFTER_MS });
    return status;
  });
  const cancellations = new SoakStream("cancellations", bookingsPerSecond / 2, async () => {
    if (!toCancel[0] || toCancel[0].after > Date.now()) return NOTHING_TO_SEND;
    const { id } = toCancel.shift()!;
    const quote = await post(baseUrl, "/v1/air/order_cancellations", fixtures.tenantKey, { order_id: id }, { "idempotency-key": randomUUID() });
    if (quote.status >= 300) return quote.status;
    const quoteId = (JSON.parse(quote.text) as { data: { id: string } }).data.id;
    return (await post(baseUrl, `/v1/air/order_cancellations/${quoteId}/actions/confirm`, fixtures.tenantKey, {})).status;
  });
  return bookingsPerSecond > 0 ? [searches, bookings, ticketing, cancellations] : [searches];
}
