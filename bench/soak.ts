import { loadavg } from "node:os";
import { benchDatabase, megabytes, type DatabaseSize } from "./bench-database";
import type { EventsBenchResult } from "./events";
import { median, percentile, Receiver, subscribe, subscriberClient } from "./events";
import { ApiClient, createFixtures } from "./fixtures";
import { fundTickets } from "./order-fixtures";
import { PostgresStats } from "./postgres-stats";
import { freePort, startServer, type ServerProcess } from "./processes";
import { CONNECTION_FAILED, NOTHING_TO_SEND, mixedTraffic, TIMED_OUT, type SoakStream, type StreamMinute } from "./soak-traffic";

/**
 * `BENCH_ONLY=soak`: the server under steady mixed traffic for BENCH_SOAK_MINUTES (30) with
 * retention shortened (OFFER_TTL_SECONDS=60, OFFER_RETENTION_SECONDS=120, RETENTION_SWEEP_SECONDS=5), on a database of its
 * own (SQLite, or BENCH_DATABASE_URL's PostgreSQL): searches at BENCH_SOAK_SEARCHES_PER_SECOND
 * (200); bookings of their offers at BENCH_SOAK_BOOKINGS_PER_SECOND (1), each ticketed and every
 * other one cancelled and refunded; the tenant's webhook pointed at a receiver here and one
 * `orderEvents` subscriber. Every minute it prints the database's size, the searches kept, the
 * server's RSS and the heap its last major GC left (heap used swings with the collector's phase),
 * its event-loop delay p99, the webhooks and subscription messages received, and each stream's
 * p50/p99; at the end whether the size plateaued (< 5 % growth over
 * the last 10 minutes), whether RSS and heap did (< 10 % over the last 15), and the 5xx count,
 * which must be zero. Traffic is a list of streams (soak-traffic.ts) and each minute's figures a
 * list of gauges, so other traffic or figures are one entry more.
 */

const PLATEAU_GROWTH = 0.05;
const PLATEAU_MINUTES = 10;
const MEMORY_PLATEAU_GROWTH = 0.1;
const MEMORY_PLATEAU_MINUTES = 15;
const ANSWER_GRACE_MS = 2_000;

/** A figure read at the end of every minute. */
interface Gauge {
  name: string;
  read(): Promise<string>;
}

export interface SoakOptions {
  ownerKey: string;
  dir: string;
  postgresUrl: string | undefined;
  appDir: string;
  startTimeoutMs: number;
  /** A file to copy the soak server's output to (BENCH_SERVER_LOG). */
  serverLog?: string;
  log: (line: string) => void;
}

const envNumber = (name: string, fallback: number) => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < 0) throw new Error(`${name}: expected a number ≥ 0`);
  return value;
};

export async function runSoak(options: SoakOptions, registerServer: (server: ServerProcess) => void): Promise<EventsBenchResult[]> {
  const minutes = envNumber("BENCH_SOAK_MINUTES", 30);
  const searchesPerSecond = envNumber("BENCH_SOAK_SEARCHES_PER_SECOND", 200);
  const bookingsPerSecond = envNumber("BENCH_SOAK_BOOKINGS_PER_SECOND", 1);
  const database = await benchDatabase(options.dir, "soak", options.postgresUrl);
  let server: ServerProcess | undefined;
  let receiver: Receiver | undefined;
  let subscriber: ReturnType<typeof subscriberClient> | undefined;
  let postgresStats: PostgresStats | undefined;
  try {
    server = await startServer(
      {
        name: "aerogate server, soak",
        entry: "src/main.ts",
        cwd: options.appDir,
        port: await freePort(),
        env: {
          DATABASE_URL: database.url,
          OWNER_API_KEY: options.ownerKey,
          RATE_LIMIT_RPS: "0",
          LOG_LEVEL: "warn",
          OFFER_TTL_SECONDS: "60",
          OFFER_RETENTION_SECONDS: "120",
          // Swept every 5 s, the table's sawtooth is ~3 % of the window; every 60 s (the default) it is a third,
          // and a reading once a minute shows whichever side of a sweep it happens to fall on.
          RETENTION_SWEEP_SECONDS: "5",
          NODE_ENV: "production",
          WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
        },
        logFile: options.serverLog,
        healthPath: "/healthz",
        startTimeoutMs: options.startTimeoutMs,
      },
      registerServer,
    );
    const api = new ApiClient(server.url);
    const fixtures = await createFixtures(api, options.ownerKey, "Bench Soak");
    await fundTickets(api, fixtures, Math.ceil(minutes * 60 * bookingsPerSecond) + 100);
    receiver = new Receiver();
    await api.expectOk("PATCH", "/v1/tenant", { key: fixtures.tenantKey, body: { webhook_url: await receiver.start(), webhook_enabled: true } });
    subscriber = subscriberClient(server.url.replace(/^http/, "ws") + "/graphql", fixtures.tenantKey);
    let messages = 0;
    subscribe(subscriber, "subscription { orderEvents { type createdAt } }", {}, () => void messages++);
    const streams = mixedTraffic(server.url, fixtures, searchesPerSecond, bookingsPerSecond);
    const sizes: DatabaseSize[] = [];
    const memory: Array<{ rss: number; heap: number }> = [];
    const loopDelaysMs: number[] = [];
    const running = server;
    let sweeps = { removed: 0, batches: 0, slow: 0 };
    const webhooks = receiver;
    const gauges: Gauge[] = [
      {
        name: "database",
        read: async () => {
          const size = await database.size();
          sizes.push(size);
          return database.provider === "sqlite" ? `${megabytes(size.totalBytes)} (${megabytes(size.usedBytes)} used)` : megabytes(size.totalBytes);
        },
      },
      { name: "searches kept", read: async () => `${sizes.at(-1)!.searches} in ${megabytes(sizes.at(-1)!.searchBytes)}` },
      {
        // One read: each read of /metrics starts the event-loop delay histogram afresh.
        name: "server RSS, heap after major GC; event-loop delay p99",
        read: async () => {
          const text = await metricsOf(running);
          memory.push({ rss: metric(text, "process_resident_memory_bytes"), heap: metric(text, "aerogate_heap_used_after_major_gc_bytes") });
          loopDelaysMs.push(metric(text, "nodejs_eventloop_lag_p99_seconds") * 1000);
          return `${megabytes(memory.at(-1)!.rss)}, ${megabytes(memory.at(-1)!.heap)}; ${loopDelaysMs.at(-1)!.toFixed(1)} ms`;
        },
      },
      // The machine is shared: a minute's figures mean little without the load they were taken under.
      { name: "load (1 min)", read: async () => loadavg()[0]!.toFixed(2) },
      { name: "webhooks, subscription messages", read: async () => `${webhooks.arrivals.length}, ${messages}` },
      {
        name: "sweep: searches removed, batches (over 8 ms) in the minute",
        read: async () => {
          const text = await metricsOf(running);
          const now = {
            removed: metric(text, 'aerogate_retention_removed_total{table="OfferRequest"}') || 0,
            batches: metric(text, "aerogate_retention_batch_seconds_count"),
            slow: metric(text, "aerogate_retention_batch_seconds_count") - metric(text, 'aerogate_retention_batch_seconds_bucket{le="0.008"}'),
          };
          const before = sweeps;
          sweeps = now;
          return `${now.removed - before.removed}, ${now.batches - before.batches} (${now.slow - before.slow})`;
        },
      },
    ];
    options.log(
      `soak on ${database.provider}: ${minutes} min, ${searchesPerSecond} searches/s (LON→NYC, ~48 offers), ${bookingsPerSecond} bookings/s (each ticketed, every other one cancelled), a webhook receiver and a subscriber; OFFER_TTL_SECONDS=60, OFFER_RETENTION_SECONDS=120`,
    );
    options.log(`| minute | ${gauges.map((gauge) => gauge.name).join(" | ")} | ${streams.map((stream) => `${stream.name}: sent, p50 / p99 ms, not 2xx`).join(" | ")} |`);
    options.log(`|---:|${gauges.map(() => "---:").join("|")}|${streams.map(() => "---:").join("|")}|`);
    // PostgreSQL's own account of each minute (waits, locks, dead tuples, autovacuum), printed under its row.
    postgresStats = database.provider === "postgresql" ? await PostgresStats.connect(database.url) : undefined;
    const started = Date.now();
    const lastMinutes = new Map<SoakStream, StreamMinute>();
    for (const stream of streams) stream.start();
    postgresStats?.start();
    for (let minute = 1; minute <= minutes; minute++) {
      const from = started + (minute - 1) * 60_000;
      // The minute is read 2 s after it ends, so that the answers to its last requests are in.
      await new Promise((resolve) => setTimeout(resolve, from + 60_000 + ANSWER_GRACE_MS - Date.now()));
      const figures: string[] = [];
      for (const gauge of gauges) figures.push(await gauge.read().catch((error: Error) => `(${error.message})`));
      for (const stream of streams) {
        lastMinutes.set(stream, stream.minute(from, from + 60_000));
        stream.forget(from + 60_000);
      }
      options.log(`| ${minute} | ${figures.join(" | ")} | ${streams.map((stream) => describe(lastMinutes.get(stream)!)).join(" | ")} |`);
      for (const line of (await postgresStats?.minute().catch((error: Error) => [`(${error.message})`])) ?? []) options.log(`    pg ${minute}: ${line}`);
    }
    for (const stream of streams) stream.stop();
    const serverErrors = streams.reduce((sum, stream) => sum + stream.serverErrors, 0);
    return [
      plateau(sizes, database.provider),
      memoryPlateau("RSS", memory.map((sample) => sample.rss), database.provider),
      // Heap used swings with the collector's phase; what a major GC left is what the server keeps.
      memoryPlateau("heap after major GC", memory.map((sample) => sample.heap), database.provider),
      { name: `soak 5xx answers (${database.provider})`, value: String(serverErrors), target: "0", passed: serverErrors === 0 },
      {
        name: `soak event-loop delay p99 (${database.provider}), the minutes' median and worst`,
        value: `${percentile(loopDelaysMs, 50).toFixed(1)} ms, ${Math.max(...loopDelaysMs).toFixed(1)} ms`,
        target: "reported",
        passed: true,
      },
      ...streams.map((stream) => overall(stream, lastMinutes.get(stream)!, minutes)),
    ];
  } finally {
    await postgresStats?.stop();
    await subscriber?.dispose();
    await receiver?.close();
    await server?.stop();
    await database.drop();
  }
}

function describe(minute: StreamMinute): string {
  const failed = Object.entries(minute.statuses).filter(([status]) => !status.startsWith("2"));
  const reasons: Record<number, string> = { [TIMED_OUT]: "timed out", [CONNECTION_FAILED]: "no connection", [NOTHING_TO_SEND]: "nothing to send" };
  const reason = (status: string) => reasons[Number(status)] ?? status;
  const notOk = failed.length === 0 ? "0" : failed.map(([status, count]) => `${count}×${reason(status)}`).join(", ");
  return `${minute.sent}, ${minute.p50Ms.toFixed(1)} / ${minute.p99Ms.toFixed(1)}, ${notOk}${minute.skipped > 0 ? `, ${minute.skipped} skipped` : ""}`;
}

/**
 * Growth over the last 10 minutes (the last half of a shorter soak) of what searches store (the
 * searches' table), which retention must hold level: the target. The whole database's growth is
 * printed beside it: the soak's bookings add orders, whose record and history are kept for good.
 */
function plateau(sizes: DatabaseSize[], provider: string): EventsBenchResult {
  const window = Math.min(PLATEAU_MINUTES, Math.floor(sizes.length / 2));
  const [first, last] = [sizes.at(-1 - window), sizes.at(-1)];
  const target = `< ${PLATEAU_GROWTH * 100} % growth of the searches' table`;
  if (!first || !last || window === 0) return { name: `soak plateau (${provider})`, value: "too short to tell", target, passed: false };
  const growth = last.searchBytes / first.searchBytes - 1;
  const whole = last.totalBytes / first.totalBytes - 1;
  return {
    name: `soak plateau (${provider}) over the last ${window} minutes`,
    value:
      `searches' table ${megabytes(first.searchBytes)} → ${megabytes(last.searchBytes)}: ${(growth * 100).toFixed(1)} % (searches kept ${first.searches} → ${last.searches}); ` +
      `whole database ${megabytes(first.totalBytes)} → ${megabytes(last.totalBytes)}: ${(whole * 100).toFixed(1)} %, the orders booked meanwhile (kept for good)`,
    target,
    passed: growth < PLATEAU_GROWTH,
  };
}

/** Minutes whose readings are taken together at each end of the memory window (their median). */
const MEMORY_ENDS = 5;

/**
 * RSS or heap growth over the last 15 minutes (the last half of a shorter soak): the median of
 * the window's last five readings against the median of its first five. RSS swings by a fifth
 * from one minute to the next (buffers of answers freed at the collector's pace), so two single
 * readings would measure that swing; a leak moves the medians.
 */
function memoryPlateau(name: string, samples: number[], provider: string): EventsBenchResult {
  const window = Math.min(MEMORY_PLATEAU_MINUTES, Math.floor(samples.length / 2));
  const inWindow = samples.slice(-1 - window);
  const ends = Math.max(1, Math.min(MEMORY_ENDS, Math.floor(inWindow.length / 3)));
  const target = `< ${MEMORY_PLATEAU_GROWTH * 100} % growth (median of the window's last ${ends} minutes against its first ${ends})`;
  if (window === 0) return { name: `soak ${name} plateau (${provider})`, value: "too short to tell", target, passed: false };
  const [first, last] = [median(inWindow.slice(0, ends)), median(inWindow.slice(-ends))];
  const growth = last / first - 1;
  return {
    name: `soak ${name} plateau (${provider}): over the last ${window} minutes`,
    value: `${megabytes(first)} → ${megabytes(last)}: ${(growth * 100).toFixed(1)} % (readings ${megabytes(Math.min(...inWindow))}–${megabytes(Math.max(...inWindow))})`,
    target,
    passed: growth < MEMORY_PLATEAU_GROWTH,
  };
}

/** A stream's last minute, as a result line (every minute is printed above). */
function overall(stream: SoakStream, last: StreamMinute, minutes: number): EventsBenchResult {
  const failed = Object.entries(last.statuses).filter(([status]) => !status.startsWith("2")).reduce((sum, [, count]) => sum + count, 0);
  return {
    name: `soak ${stream.name}, minute ${minutes}`,
    value: `${last.sent} sent at ${stream.perSecond}/s, p50 ${last.p50Ms.toFixed(1)} ms, p99 ${last.p99Ms.toFixed(1)} ms, ${failed} not 2xx`,
    target: "reported",
    passed: true,
  };
}

/** The server's /metrics (Prometheus text). */
async function metricsOf(server: ServerProcess): Promise<string> {
  return (await fetch(`${server.url}/metrics`)).text();
}

/** One sample's value of Prometheus text (`name` with its labels, as written), or NaN. */
function metric(text: string, name: string): number {
  const line = text.split("\n").find((candidate) => candidate.startsWith(`${name} `));
  return line ? Number(line.slice(name.length + 1)) : Number.NaN;
}
