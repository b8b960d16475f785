/**
 * The hold-deadline bench (bench/README.md): 10,000 unpaid holds whose payment deadlines fall within one
 * minute are cancelled by their payment_deadline jobs, while searches and bookings keep coming.
 *
 * It runs against a server of its own (its own database, SQLite or PostgreSQL), in real time:
 * 1. Deadlines are a booking's time plus ORDER_HOLD_SECONDS, so booking 10,000 holds one after
 *    another would spread them over the booking's whole duration (minutes on PostgreSQL). So the
 *    holds are booked in chunks of about CHUNK_SECONDS of booking each, and before each chunk the
 *    server is restarted with ORDER_HOLD_SECONDS set to reach one instant, the same for all: every
 *    deadline falls within a chunk's duration after it. (The booking rate and a restart's cost are
 *    measured first, on holds of another tenant whose deadlines are an hour away.) The jobs queued
 *    by the earlier processes are durable: the last process cancels them all.
 * 2. From LEAD_MS before the first deadline until the last hold is cancelled, a second tenant
 *    searches and books at a steady pace, and each answer's latency is recorded.
 * 3. Each hold's lateness is its cancellation's commit (`updated_at` of the CANCELED order) less
 *    its `payment_required_by`.
 */
import { benchDatabase, type BenchDatabase } from "./bench-database";
import type { ApiClient } from "./fixtures";
import { createFixtures, type Fixtures } from "./fixtures";
import { percentile, type EventsBenchResult } from "./events";
import { BookableOffers, bookAll, fundTickets, FlightRegistry, orderBody, withFreshKey } from "./order-fixtures";

const HOLDS = Number(process.env.BENCH_HOLDS ?? 10_000);
/** A PostgreSQL server (any database on it) to run the holds server on instead of SQLite: a fresh database is made there, and dropped after. */
const POSTGRES_URL = process.env.BENCH_HOLDS_DATABASE_URL;
/** The target: every hold cancelled within this long of its deadline. */
const TARGET_LATENESS_MS = 60_000;
/** Booking per chunk, as measured: the deadlines' spread. */
const CHUNK_SECONDS = 10;
/** Holds booked to measure the booking rate, by a tenant of their own, with deadlines an hour away. */
const CALIBRATION_HOLDS = 300;
const CALIBRATION_HOLD_SECONDS = 3600;
/** Room left between the last booking and the deadlines: listing the holds, and slack for a slower chunk. */
const MARGIN_MS = 20_000;
const SEARCHES_PER_SECOND = 50;
const BOOKINGS_PER_SECOND = 10;
/** The background load starts this long before the first deadline, to see it before and during. */
const LEAD_MS = 5_000;
/** Gives up waiting this long after the last deadline (the target is missed by then). */
const GIVE_UP_MS = TARGET_LATENESS_MS + 30_000;

/** The holds server, started (or restarted, on the same database and port) with an ORDER_HOLD_SECONDS. */
export interface HoldsServer {
  api: ApiClient;
  start(holdSeconds: number): Promise<void>;
  /** CPU seconds the running process has used; null where /proc is unavailable. */
  cpuSeconds(): number | null;
}

interface Timed {
  ms: number;
  ok: boolean;
  /** When it was sent (Date.now()). */
  at: number;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

/** Sends `send(i)` `perSecond` times a second, whether or not earlier ones have answered, until `stopped()`; each answer's time. */
async function paced(perSecond: number, stopped: () => boolean, send: (index: number) => Promise<boolean> | null): Promise<Timed[]> {
  const timings: Timed[] = [];
  const inFlight: Array<Promise<void>> = [];
  const started = performance.now();
  for (let index = 0; !stopped(); index++) {
    await sleep(started + (index * 1000) / perSecond - performance.now());
    const sentAt = performance.now();
    const at = Date.now();
    const answer = send(index);
    if (!answer) break;
    inFlight.push(answer.then((ok) => void timings.push({ ms: performance.now() - sentAt, ok, at }), () => void timings.push({ ms: performance.now() - sentAt, ok: false, at })));
  }
  await Promise.all(inFlight);
  return timings;
}

/** Every order of the tenant in `status`, through the API's pages. */
async function ordersIn(api: ApiClient, fixtures: Fixtures, status: string): Promise<any[]> {
  const orders: any[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await api.expectOk("GET", `/v1/air/orders?status=${status}&limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: fixtures.tenantKey });
    orders.push(...page.data.items);
    cursor = page.data.pagination.nextCursor;
  } while (cursor);
  return orders;
}

async function pendingCount(api: ApiClient, fixtures: Fixtures): Promise<number> {
  const page = await api.expectOk<{ data: { pagination: { total: number } } }>("GET", "/v1/air/orders?status=PENDING&limit=1", { key: fixtures.tenantKey });
  return page.data.pagination.total;
}

/** The answers' count and percentiles, and when the slowest was sent, from the first deadline. */
function describeTimings(timings: Timed[], firstDeadline: number): string {
  const ms = timings.map((timing) => timing.ms);
  const failed = timings.filter((timing) => !timing.ok).length;
  const slowest = timings.reduce((worst, timing) => (timing.ms > worst.ms ? timing : worst), timings[0]!);
  return (
    `${timings.length} answered, p50 ${percentile(ms, 50).toFixed(0)} ms, p99 ${percentile(ms, 99).toFixed(0)} ms, ` +
    `slowest ${slowest.ms.toFixed(0)} ms sent ${seconds(slowest.at - firstDeadline)} after the first deadline` +
    (failed > 0 ? `, ${failed} not 2xx` : "")
  );
}

/** The holds server's own database: a SQLite file in `dir`, or a new database on BENCH_HOLDS_DATABASE_URL's PostgreSQL server. */
export function holdsDatabase(dir: string): Promise<BenchDatabase> {
  return benchDatabase(dir, "holds", POSTGRES_URL);
}

/**
 * Books `offers` as holds of `holder` whose deadlines all fall within about CHUNK_SECONDS of one
 * instant (see the top of this file), on a server running with CALIBRATION_HOLD_SECONDS; returns
 * when the last is booked.
 */
async function bookHoldsDueTogether(server: HoldsServer, holder: Fixtures, offers: Awaited<ReturnType<BookableOffers["take"]>>, calibration: { fixtures: Fixtures; offers: typeof offers }, log: (line: string) => void): Promise<void> {
  let started = Date.now();
  await bookAll(server.api, calibration.fixtures, calibration.offers);
  const perSecond = (calibration.offers.length * 1000) / (Date.now() - started);
  started = Date.now();
  await server.start(CALIBRATION_HOLD_SECONDS);
  const restartMs = Date.now() - started;
  const chunk = Math.max(100, Math.round(perSecond * CHUNK_SECONDS));
  const chunks = Math.ceil(offers.length / chunk);
  // A chunk may book slower than the calibration did: half as much again.
  const deadline = Date.now() + chunks * (CHUNK_SECONDS * 1500 + restartMs) + MARGIN_MS;
  log(`booking ${offers.length} holds at ~${Math.round(perSecond)}/s in ${chunks} chunks of ${chunk} (a restart takes ${seconds(restartMs)}), all due from ${new Date(deadline).toISOString()}`);
  for (let i = 0; i < offers.length; i += chunk) {
    const holdSeconds = Math.ceil((deadline - Date.now()) / 1000);
    if (holdSeconds * 1000 < MARGIN_MS / 2) throw new Error(`booking ran late: ${offers.length - i} holds left ${seconds(deadline - Date.now())} before their deadline`);
    await server.start(holdSeconds);
    await bookAll(server.api, holder, offers.slice(i, i + chunk));
  }
}

export async function benchHoldDeadlines(server: HoldsServer, ownerKey: string, log: (line: string) => void): Promise<EventsBenchResult[]> {
  const { api } = server;
  await server.start(CALIBRATION_HOLD_SECONDS);
  const flights = new FlightRegistry();
  const [holder, shopper, calibrating] = [await createFixtures(api, ownerKey, "Bench Holds"), await createFixtures(api, ownerKey, "Bench Shopper"), await createFixtures(api, ownerKey, "Bench Calibration")];
  // Booking checks the balance covers each order (nothing is debited until paid).
  for (const fixtures of [holder, shopper, calibrating]) await fundTickets(api, fixtures, 10);
  const offers = await new BookableOffers(api, holder, flights).take(HOLDS);
  const calibration = { fixtures: calibrating, offers: await new BookableOffers(api, calibrating, flights).take(CALIBRATION_HOLDS) };
  const backgroundOffers = await new BookableOffers(api, shopper, flights).take(BOOKINGS_PER_SECOND * 150);

  const bookingStarted = Date.now();
  await bookHoldsDueTogether(server, holder, offers, calibration, log);
  const bookingMs = Date.now() - bookingStarted;
  const deadlines = new Map((await ordersIn(api, holder, "PENDING")).map((order) => [order.id as string, Date.parse(order.payment_status.payment_required_by)]));
  const firstDeadline = Math.min(...deadlines.values());
  const lastDeadline = Math.max(...deadlines.values());
  const spread = lastDeadline - firstDeadline;
  log(`${deadlines.size} holds booked in ${seconds(bookingMs)}, deadlines within ${seconds(spread)}; waiting for the first`);

  await sleep(firstDeadline - LEAD_MS - Date.now());
  const cpuBefore = server.cpuSeconds();
  let done = false;
  let allCancelledAt: number | null = null;
  const watch = (async () => {
    while (Date.now() < lastDeadline + GIVE_UP_MS) {
      // A count that does not answer in time (a server swamped by the deadlines) is asked again.
      if ((await pendingCount(api, holder).catch(() => null)) === 0) {
        allCancelledAt = Date.now();
        break;
      }
      await sleep(250);
    }
    done = true;
  })();
  const searchBody = (index: number) => ({
    slices: [{ origin: "LHR", destination: "JFK", departure_date: new Date(Date.now() + (20 + (index % 60)) * 86_400_000).toISOString().slice(0, 10) }],
    passengers: [{ type: "adult" }],
    cabin_class: "economy",
    max_connections: 1,
  });
  const ok = (response: { status: number }) => response.status >= 200 && response.status < 300;
  const [searches, bookings] = await Promise.all([
    paced(SEARCHES_PER_SECOND, () => done, (index) => api.call("POST", "/v1/air/search", { key: shopper.tenantKey, body: searchBody(index) }).then(ok)),
    paced(BOOKINGS_PER_SECOND, () => done, (index) => {
      const offer = backgroundOffers[index];
      return offer ? api.call("POST", "/v1/air/orders", { headers: withFreshKey(shopper), body: orderBody(offer) }).then(ok) : null;
    }),
    watch,
  ]);
  const cpuAfter = server.cpuSeconds();
  if (cpuBefore !== null && cpuAfter !== null) {
    log(`server CPU from ${LEAD_MS / 1000} s before the first deadline to the last cancellation: ${(cpuAfter - cpuBefore).toFixed(1)} s (holds, searches and bookings together)`);
  }

  const cancelled = (await ordersIn(api, holder, "CANCELED")).filter((order) => deadlines.has(order.id));
  const lateness = cancelled.map((order) => Date.parse(order.updated_at) - deadlines.get(order.id)!);
  const byDeadline = cancelled.every((order) => order.cancellation_reason === "payment_deadline_passed");
  const allCancelled = cancelled.length === HOLDS && deadlines.size === HOLDS && byDeadline && allCancelledAt !== null;
  const worst = lateness.length > 0 ? Math.max(...lateness) : Number.POSITIVE_INFINITY;
  const lastCancellation = Math.max(...cancelled.map((order) => Date.parse(order.updated_at)));
  return [
    {
      name: `${HOLDS} holds due within ${seconds(spread)}: deadline → cancellation`,
      value: allCancelled
        ? `all cancelled; lateness p50 ${seconds(percentile(lateness, 50))}, max ${seconds(worst)}; first deadline → last cancellation ${seconds(lastCancellation - firstDeadline)}`
        : `${cancelled.length} of ${HOLDS} cancelled${byDeadline ? "" : " (some not by their deadline)"} within ${seconds(GIVE_UP_MS)} of the last deadline`,
      target: `due within a minute, each cancelled ≤ ${TARGET_LATENESS_MS / 1000} s after its deadline`,
      passed: allCancelled && spread <= 60_000 && worst <= TARGET_LATENESS_MS,
    },
    { name: `searches meanwhile, ${SEARCHES_PER_SECOND}/s (LHR→JFK, 60 dates)`, value: describeTimings(searches, firstDeadline), target: "answering (p99 reported)", passed: searches.every((timing) => timing.ok) },
    { name: `bookings meanwhile, ${BOOKINGS_PER_SECOND}/s`, value: describeTimings(bookings, firstDeadline), target: "answering (p99 reported)", passed: bookings.every((timing) => timing.ok) },
  ];
}
