import { readdirSync, readFileSync } from "node:fs";
import pg from "pg";
import { benchDatabase } from "./bench-database";
import type { EventsBenchResult } from "./events";
import { ApiClient, createFixtures } from "./fixtures";
import { runLoad, type LoadResult } from "./load";
import { fundTickets, orderBody, withFreshKey } from "./order-fixtures";
import { freePort, startServer, type ServerProcess } from "./processes";
import { uncachedSearches, type BenchRequest } from "./scenarios";

/**
 * `BENCH_ONLY=processes` (with BENCH_DATABASE_URL): one server process against two on one
 * PostgreSQL database, for searches (48-offer LON→NYC searches past the supplier's cache, one
 * stored row each) and bookings (each on an offer of its own). The same connections drive one
 * process, then are split between two. For each it reports the rate, p50 and p99, the CPU each
 * request cost the app processes and the PostgreSQL server (from /proc: run it on a server of its
 * own, on this machine), and how busy the machine's cores were. On a machine whose cores the processes, PostgreSQL and the load
 * generator already fill, a second process adds no core: what it shows is the cost of
 * coordinating two processes (docs/operations.md#one-process-against-two).
 */

export interface TwoProcessOptions {
  ownerKey: string;
  dir: string;
  postgresUrl: string | undefined;
  appDir: string;
  startTimeoutMs: number;
  seconds: number;
  connections: number;
  log: (line: string) => void;
}

/** What one phase (one process, or two) measured. */
interface Phase {
  rps: number;
  p50Ms: number;
  p99Ms: number;
  failed: number;
  appCpuMsPerRequest: number;
  databaseCpuMsPerRequest: number;
  /** Share of all cores busy meanwhile (every process on the machine). */
  machineBusy: number;
}

/** Bookings per phase: at ~400/s, a few seconds' worth. */
const BOOKINGS_PER_PHASE = 1600;

export async function runTwoProcesses(options: TwoProcessOptions, registerServer: (server: ServerProcess) => void): Promise<EventsBenchResult[]> {
  if (!options.postgresUrl) throw new Error("BENCH_ONLY=processes needs BENCH_DATABASE_URL: two processes share a database only on PostgreSQL");
  const database = await benchDatabase(options.dir, "processes", options.postgresUrl);
  const start = async (name: string) =>
    startServer(
      {
        name,
        entry: "src/main.ts",
        cwd: options.appDir,
        port: await freePort(),
        env: { DATABASE_URL: database.url, OWNER_API_KEY: options.ownerKey, RATE_LIMIT_RPS: "0", LOG_LEVEL: "warn", NODE_ENV: "production" },
        healthPath: "/healthz",
        startTimeoutMs: options.startTimeoutMs,
      },
      registerServer,
    );
  const servers: ServerProcess[] = [];
  try {
    servers.push(await start("aerogate server A"));
    const api = new ApiClient(servers[0]!.url);
    const fixtures = await createFixtures(api, options.ownerKey, "Bench Processes");
    await fundTickets(api, fixtures, 2 * BOOKINGS_PER_PHASE + 100);
    const offers = await fixtures.offers.take(2 * BOOKINGS_PER_PHASE);
    const searchBodies = uncachedSearches("LON", "NYC");
    const searches: BenchRequest = { method: "POST", path: "/v1/air/search", headers: { authorization: `Bearer ${fixtures.tenantKey}` }, body: searchBodies[0], bodies: searchBodies };
    const bookings = (from: number, count: number): BenchRequest => ({
      method: "POST",
      path: "/v1/air/orders",
      once: offers.slice(from, from + count).map((offer) => ({ path: "/v1/air/orders", headers: withFreshKey(fixtures), body: orderBody(offer) })),
    });
    const measure = (requests: (server: ServerProcess, index: number, of: number) => BenchRequest) => phase(servers, database.url, options, requests);

    options.log(`one process against two on one PostgreSQL database: ${options.connections} connections in all, ${options.seconds} s of searches, ${BOOKINGS_PER_PHASE} bookings each way`);
    // A warm-up of each kind on the first process, not measured.
    await runLoad(servers[0]!.url, searches, { connections: options.connections, pipelining: 1, duration: 2 });
    const oneSearching = await measure(() => searches);
    const oneBooking = await measure(() => bookings(0, BOOKINGS_PER_PHASE));
    servers.push(await start("aerogate server B"));
    await runLoad(servers[1]!.url, searches, { connections: options.connections, pipelining: 1, duration: 2 });
    const twoSearching = await measure(() => searches);
    const twoBooking = await measure((_server, index, of) => bookings(BOOKINGS_PER_PHASE + (index * BOOKINGS_PER_PHASE) / of, BOOKINGS_PER_PHASE / of));

    options.log("| | one process | two processes |");
    options.log("|---|---:|---:|");
    for (const [what, one, two] of [
      ["searches", oneSearching, twoSearching],
      ["bookings", oneBooking, twoBooking],
    ] as const) {
      options.log(`| ${what}/s | ${one.rps.toFixed(0)} | ${two.rps.toFixed(0)} |`);
      options.log(`| ${what}: p50 / p99 | ${one.p50Ms.toFixed(1)} / ${one.p99Ms.toFixed(1)} ms | ${two.p50Ms.toFixed(1)} / ${two.p99Ms.toFixed(1)} ms |`);
      options.log(`| ${what}: app CPU per request | ${one.appCpuMsPerRequest.toFixed(2)} ms | ${two.appCpuMsPerRequest.toFixed(2)} ms |`);
      options.log(`| ${what}: PostgreSQL CPU per request | ${one.databaseCpuMsPerRequest.toFixed(2)} ms | ${two.databaseCpuMsPerRequest.toFixed(2)} ms |`);
      options.log(`| ${what}: machine's cores busy | ${(one.machineBusy * 100).toFixed(0)} % | ${(two.machineBusy * 100).toFixed(0)} % |`);
    }
    const failed = oneSearching.failed + oneBooking.failed + twoSearching.failed + twoBooking.failed;
    return [
      { name: "two processes against one: searches/s", value: `${twoSearching.rps.toFixed(0)} against ${oneSearching.rps.toFixed(0)} (×${(twoSearching.rps / oneSearching.rps).toFixed(2)})`, target: "reported", passed: true },
      { name: "two processes against one: bookings/s", value: `${twoBooking.rps.toFixed(0)} against ${oneBooking.rps.toFixed(0)} (×${(twoBooking.rps / oneBooking.rps).toFixed(2)})`, target: "reported", passed: true },
      { name: "two processes: answers not 2xx", value: String(failed), target: "0", passed: failed === 0 },
    ];
  } finally {
    for (const server of servers) await server.stop();
    await database.drop();
  }
}

/**
 * Drives every server at once, the connections shared out between them, each with its own
 * request list; the rate is their sum, the latencies the slower server's.
 */
async function phase(servers: ServerProcess[], databaseUrl: string, options: TwoProcessOptions, requests: (server: ServerProcess, index: number, of: number) => BenchRequest): Promise<Phase> {
  const postmaster = await postmasterOf(databaseUrl);
  const cpuBefore = { app: sum(servers.map((server) => server.cpuSeconds() ?? 0)), database: clusterCpuSeconds(postmaster), machine: machineTicks() };
  const started = performance.now();
  const results: LoadResult[] = await Promise.all(
    servers.map((server, index) =>
      runLoad(server.url, requests(server, index, servers.length), { connections: Math.ceil(options.connections / servers.length), pipelining: 1, duration: options.seconds }),
    ),
  );
  const seconds = (performance.now() - started) / 1000;
  const machine = machineTicks();
  const completed = sum(results.map((result) => result.completed));
  const appCpu = sum(servers.map((server) => server.cpuSeconds() ?? 0)) - cpuBefore.app;
  const databaseCpu = clusterCpuSeconds(postmaster) - cpuBefore.database;
  return {
    rps: completed / seconds,
    p50Ms: Math.max(...results.map((result) => result.p50Ms)),
    p99Ms: Math.max(...results.map((result) => result.p99Ms)),
    failed: sum(results.map((result) => result.non2xx + result.errors + result.timeouts)),
    appCpuMsPerRequest: (appCpu * 1000) / Math.max(1, completed),
    databaseCpuMsPerRequest: (databaseCpu * 1000) / Math.max(1, completed),
    machineBusy: 1 - (machine.idle - cpuBefore.machine.idle) / Math.max(1, machine.total - cpuBefore.machine.total),
  };
}

/** The pid of the PostgreSQL server (its postmaster) the bench's database is on: the parent of a session's process. */
async function postmasterOf(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ pid: number }>("SELECT pg_backend_pid() AS pid");
    return statFields(rows[0]!.pid)[1]!;
  } finally {
    await client.end();
  }
}

/**
 * CPU seconds of the whole PostgreSQL server so far (it runs on this machine): the postmaster's
 * own and its ended children's (sessions come and go with the pools' idle timeouts), and every
 * child still running. Run it on a server of its own: another database's sessions count too.
 */
function clusterCpuSeconds(postmaster: number): number {
  const own = statFields(postmaster);
  let ticks = own[11]! + own[12]! + own[13]! + own[14]!;
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    const fields = statFields(Number(entry));
    if (fields[1] === postmaster) ticks += fields[11]! + fields[12]!;
  }
  return ticks / 100;
}

/** /proc/<pid>/stat's fields after the command name, as numbers (state is NaN): [state, ppid, …, utime at 11, stime, cutime, cstime]. */
function statFields(pid: number): number[] {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2).split(" ").map(Number);
  } catch {
    return [];
  }
}

/** All cores' ticks so far, and the idle ones among them (/proc/stat). */
function machineTicks(): { total: number; idle: number } {
  const [cpu] = readFileSync("/proc/stat", "utf8").split("\n");
  const ticks = cpu!.split(/\s+/).slice(1).map(Number);
  return { total: sum(ticks), idle: (ticks[3] ?? 0) + (ticks[4] ?? 0) };
}

const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);
