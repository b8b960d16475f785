/**
 * `npm run bench`: load-tests the real server against a bare Fastify route, on this machine.
 *
 * Starts two child processes (the real server on a fresh temporary SQLite database, and
 * bench/bare-server.ts), creates fixtures through the API, then drives each scenario in
 * bench/scenarios.ts from this process with autocannon, one after another: a discarded warm-up,
 * then the measured run. Prints one table, writes bench/results/latest.json, and exits 1 when a
 * scenario fails (errors, non-2xx answers, a failed check or a missed target). Both children are
 * stopped at the end, on error, and on SIGINT/SIGTERM.
 *
 * Environment (all optional):
 *   BENCH_SECONDS=10          measured seconds per scenario
 *   BENCH_WARMUP_SECONDS=2    discarded warm-up seconds per scenario (0 to skip)
 *   BENCH_CONNECTIONS=50      concurrent connections
 *   BENCH_PIPELINING=1        requests in flight per connection
 *   BENCH_ONLY=tenant,graphql run only scenarios whose name contains one of these (baseline always runs);
 *                             `guard` runs the plain reads the CPU guard watches (bench/cpu-record.json), nothing else;
 *                             `events` runs the events bench (bench/events.ts), `gateway` the gateway bench
 *                             (bench/gateway.ts), `calendar` the calendar-stall bench (bench/calendar-stall.ts), `holds` the hold-deadline
 *                             bench (bench/holds.ts), `tarpit` the hanging-receivers bench (bench/tarpit.ts) and
 *                             `storage` the bytes a search stores (bench/search-bytes.ts), which otherwise run last;
 *                             `soak` runs only the soak (bench/soak.ts), never run otherwise;
 *                             `processes` only one process against two on PostgreSQL (bench/two-processes.ts), never run otherwise
 *   BENCH_DATABASE_URL=postgresql://…  run the servers on PostgreSQL: a fresh database each on that server, dropped after
 *   BENCH_SOAK_MINUTES=30, BENCH_SOAK_SEARCHES_PER_SECOND=200, BENCH_SOAK_BOOKINGS_PER_SECOND=1  the soak's length and traffic
 *   BENCH_CALENDAR_SECONDS=20 how long the calendar-stall bench asks for destination ideas
 *   BENCH_HOLDS=10000         the hold-deadline bench's holds
 *   BENCH_HOLDS_DATABASE_URL=postgresql://…  run the hold-deadline bench's server on PostgreSQL (a fresh database there)
 *   BENCH_CPU_PROF=1          start the real server with --cpu-prof; profiles go to bench/results/profiles/
 *   BENCH_START_TIMEOUT_MS=60000  how long a server may take to become healthy
 *   BENCH_APP_DIR=<dir>       start the server from another checkout (A/B comparisons); default this one
 *   BENCH_SERVER_NODE_ARGS="--trace-gc"  extra node flags for the real server
 *   BENCH_SERVER_LOG=<file>   copy everything the real server writes to this file
 *   BENCH_ROUNDS=1            measure every scenario this many times, baseline first in each round;
 *                             the table shows medians, each ratio against its own round's baseline
 *   BENCH_RECHECK_BASELINE=1  with one round, run the baseline again at the end and warn when it drifted
 *
 * The machine has 2 cores: the server under test, this process (the load generator) and anything
 * else running share them, so raw req/s move with whatever else runs. Compare the ratio to the
 * bare route (measured in the same round) and the server's CPU µs per request (Linux /proc), the
 * least noisy figure. On a busy machine use BENCH_ROUNDS=3.
 *
 * Profiling: BENCH_ONLY=graphql BENCH_CPU_PROF=1 npm run bench, then
 *   npx tsx bench/profile-summary.ts bench/results/profiles/<file>.cpuprofile 40 <seconds to skip>
 */
import { execFileSync } from "node:child_process";
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { benchEvents, median, type EventsBenchResult } from "./events";
import { benchHoldDeadlines, holdsDatabase } from "./holds";
import { benchGateway } from "./gateway";
import { benchCalendarStall } from "./calendar-stall";
import { benchTarpit, HANGING_RECEIVERS, TARPIT_SERVER_ENV } from "./tarpit";
import { benchDatabase, type BenchDatabase } from "./bench-database";
import { measureSearchBytes } from "./search-bytes";
import { runSoak } from "./soak";
import { runTwoProcesses } from "./two-processes";
import { measureAirportIndexHeap } from "./memory";
import { cpus, loadavg, tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { ApiClient, createFixtures } from "./fixtures";
import { runLoad, stopRunningLoad, type LoadOptions, type LoadResult } from "./load";
import { processesAlive, startServer, freePort, type ServerProcess } from "./processes";
import { describeTarget, formatTable, judge, type ScenarioOutcome } from "./report";
import { cpuCreep, cpuRecord, expectedUs, guardedScenario } from "./cpu-guard";
import { requestFor, scenarios, type BenchRequest, type Scenario, type ScenarioContext } from "./scenarios";

const benchDir = dirname(fileURLToPath(import.meta.url));
const rootDir = resolve(benchDir, "..");
const resultsDir = join(benchDir, "results");

function envNumber(name: string, fallback: number, min: number): number {
  const raw = process.env[name];
  if (raw === undefined || raw === "") return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name}=${raw}: expected a number ≥ ${min}`);
  return value;
}

const settings = {
  seconds: envNumber("BENCH_SECONDS", 10, 1),
  warmupSeconds: envNumber("BENCH_WARMUP_SECONDS", 2, 0),
  connections: envNumber("BENCH_CONNECTIONS", 50, 1),
  pipelining: envNumber("BENCH_PIPELINING", 1, 1),
  only: (process.env.BENCH_ONLY ?? "").split(",").map((s) => s.trim().toLowerCase()).filter(Boolean),
  cpuProfile: ["1", "true"].includes(process.env.BENCH_CPU_PROF ?? ""),
  startTimeoutMs: envNumber("BENCH_START_TIMEOUT_MS", 60_000, 1000),
  recheckBaseline: !["0", "false"].includes(process.env.BENCH_RECHECK_BASELINE ?? ""),
  rounds: envNumber("BENCH_ROUNDS", 1, 1),
  appDir: resolve(process.env.BENCH_APP_DIR || rootDir),
  serverNodeArgs: (process.env.BENCH_SERVER_NODE_ARGS ?? "").split(/\s+/).filter(Boolean),
  serverLog: process.env.BENCH_SERVER_LOG ? resolve(process.env.BENCH_SERVER_LOG) : null,
  databaseUrl: process.env.BENCH_DATABASE_URL || undefined,
};

/** Largest relative change of the baseline between start and end before the run is flagged noisy. */
const BASELINE_DRIFT_WARNING = 0.1;

interface MeasuredLoad {
  load: LoadResult;
  serverCpu: { usPerRequest: number; coreShare: number } | null;
  clientCoreShare: number;
}

/**
 * One measured run, with the CPU the server and this process used during it. With `settle`, the
 * run lasts until the work it started is done, and req/s counts over that whole time.
 */
async function measure(server: ServerProcess, request: BenchRequest, options: LoadOptions, settle?: () => Promise<void>): Promise<MeasuredLoad> {
  const serverBefore = server.cpuSeconds();
  const clientBefore = process.cpuUsage();
  const started = performance.now();
  const run = await runLoad(server.url, request, options);
  if (settle) await settle();
  const elapsedS = (performance.now() - started) / 1000;
  const load = settle ? { ...run, rps: run.completed / elapsedS } : run;
  const serverAfter = server.cpuSeconds();
  const client = process.cpuUsage(clientBefore);
  const serverCpu =
    serverBefore !== null && serverAfter !== null && load.completed > 0
      ? { usPerRequest: ((serverAfter - serverBefore) * 1e6) / load.completed, coreShare: (serverAfter - serverBefore) / elapsedS }
      : null;
  return { load, serverCpu, clientCoreShare: (client.user + client.system) / 1e6 / elapsedS };
}

/** A random owner key of the shape config.ts accepts: sk_owner_ and 32 base62 characters. */
function randomOwnerKey(): string {
  const alphabet = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";
  let body = "";
  while (body.length < 32) for (const byte of randomBytes(48)) if (byte < 248 && body.length < 32) body += alphabet[byte % 62];
  return `sk_owner_${body}`;
}

function gitCommit(): string | null {
  try {
    return execFileSync("git", ["rev-parse", "--short", "HEAD"], { cwd: rootDir, encoding: "utf8", stdio: ["ignore", "pipe", "ignore"] }).trim();
  } catch {
    return null;
  }
}

interface Prepared {
  scenario: Scenario;
  server: ServerProcess;
  outcome: ScenarioOutcome;
  /** Null when setup or the first check failed: the scenario is not load-tested. */
  request: BenchRequest | null;
  measured: MeasuredLoad[];
  /** Per round: req/s over that round's baseline req/s. */
  ratios: number[];
}

/** Sends the scenario's request once and checks the answer (2xx, then the scenario's own check). */
async function checkOnce(entry: Prepared, ctx: ScenarioContext, when: string): Promise<string | undefined> {
  const request = entry.request!;
  const response = await new ApiClient(entry.server.url).call(request.method, request.path, { headers: request.headers, body: request.body });
  if (response.status < 200 || response.status > 299) return `${when}: answered ${response.status} ${JSON.stringify(response.body)}`;
  const problem = entry.scenario.check?.(response, ctx);
  return problem ? `${when}: ${problem}` : undefined;
}

/** The requests of one run: a `once` scenario gets fresh ones for `seconds` of load; others reuse theirs. */
async function requestForRun(entry: Prepared, ctx: ScenarioContext, seconds: number): Promise<BenchRequest> {
  const { once } = entry.scenario;
  return once ? requestFor(entry.scenario, ctx, Math.ceil(once.perSecond * seconds)) : entry.request!;
}

/** Several runs of one scenario as one: medians of the figures, sums of the failures. */
function combine(runs: LoadResult[]): LoadResult {
  if (runs.length === 1) return runs[0]!;
  const statusCodes: Record<string, number> = {};
  for (const run of runs) for (const [code, count] of Object.entries(run.statusCodes)) statusCodes[code] = (statusCodes[code] ?? 0) + count;
  const sum = (pick: (run: LoadResult) => number) => runs.reduce((total, run) => total + pick(run), 0);
  const byRps = [...runs].sort((a, b) => a.rps - b.rps);
  return {
    rps: median(runs.map((r) => r.rps)),
    completed: sum((r) => r.completed),
    p50Ms: median(runs.map((r) => r.p50Ms)),
    p90Ms: median(runs.map((r) => r.p90Ms)),
    p99Ms: median(runs.map((r) => r.p99Ms)),
    maxMs: Math.max(...runs.map((r) => r.maxMs)),
    non2xx: sum((r) => r.non2xx),
    errors: sum((r) => r.errors),
    timeouts: sum((r) => r.timeouts),
    statusCodes,
    autocannon: byRps[Math.floor(byRps.length / 2)]!.autocannon,
  };
}

// ─── cleanup: both children die with us, whatever happens ─────────────────────────────────
const servers: ServerProcess[] = [];
const databases: BenchDatabase[] = [];
let tempDir: string | null = null;
let cleaning: Promise<void> | null = null;

function cleanup(): Promise<void> {
  cleaning ??= (async () => {
    stopRunningLoad();
    await Promise.allSettled(servers.map((server) => server.stop()));
    await Promise.allSettled(databases.map((database) => database.drop()));
    if (tempDir) rmSync(tempDir, { recursive: true, force: true });
  })();
  return cleaning;
}

for (const signal of ["SIGINT", "SIGTERM"] as const) {
  process.once(signal, () => {
    console.error(`\n${signal}: stopping the servers…`);
    void cleanup().finally(() => process.exit(130));
  });
}
process.on("exit", () => {
  for (const server of servers) server.killNow();
  if (tempDir) rmSync(tempDir, { recursive: true, force: true });
});

// ─── the run ───────────────────────────────────────────────────────────────────────────────
function selected(list: Scenario[]): Scenario[] {
  if (settings.only.length === 0) return list;
  return list.filter((s) => s.baseline || (settings.only.includes("guard") && guardedScenario(s.name)) || settings.only.some((word) => s.name.toLowerCase().includes(word)));
}

async function main(): Promise<number> {
  const list = selected(scenarios);
  if (list.filter((s) => s.baseline).length !== 1) throw new Error("scenarios.ts must mark exactly one scenario as the baseline");

  tempDir = mkdtempSync(join(tmpdir(), "aerogate-bench-"));
  const ownerKey = randomOwnerKey();
  if (settings.only.includes("soak")) return soak(ownerKey);
  if (settings.only.includes("processes")) return twoProcesses(ownerKey);
  const [appDatabase, limitedDatabase] = [await benchDatabase(tempDir, "bench", settings.databaseUrl), await benchDatabase(tempDir, "limited", settings.databaseUrl)];
  databases.push(appDatabase, limitedDatabase);
  const [appPort, barePort, apolloPort, limitedPort] = [await freePort(), await freePort(), await freePort(), await freePort()];
  const profileDir = join(resultsDir, "profiles");
  if (settings.cpuProfile) mkdirSync(profileDir, { recursive: true });

  console.log(
    `Aerogate bench: ${settings.connections} connections, pipelining ${settings.pipelining}, ` +
      `${settings.warmupSeconds} s warm-up + ${settings.seconds} s per scenario` +
      (settings.rounds > 1 ? ` × ${settings.rounds} rounds` : "") +
      `; node ${process.version}, ${cpus().length} CPUs; ${appDatabase.provider}`,
  );
  const appEnv = (database: BenchDatabase, rateLimitRps: string) => ({
    DATABASE_URL: database.url,
    OWNER_API_KEY: ownerKey,
    RATE_LIMIT_RPS: rateLimitRps,
    LOG_LEVEL: "warn",
    // The ticketing scenario measures our side of ticketing, not the simulated airline's wait.
    TICKETING_DELAY_MS: "0",
    // The events scenario's webhook receiver listens on loopback.
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
    // The gateway bench holds the low-cost supplier to 300 ms (the other scenarios search the network alone).
    SUPPLIER_LCC_LATENCY_MS: "300",
    // As `npm start` runs it.
    NODE_ENV: "production",
  });
  const [app, bare, apolloOnly, limited] = await Promise.all([
    startServer({
      name: "aerogate server",
      entry: "src/main.ts",
      cwd: settings.appDir,
      port: appPort,
      env: appEnv(appDatabase, "0"),
      nodeArgs: [...settings.serverNodeArgs, ...(settings.cpuProfile ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [])],
      logFile: settings.serverLog ?? undefined,
      healthPath: "/healthz",
      startTimeoutMs: settings.startTimeoutMs,
    }, (server) => servers.push(server)),
    startServer({
      name: "bare Fastify server",
      entry: "bench/bare-server.ts",
      cwd: rootDir,
      port: barePort,
      env: { NODE_ENV: "production" },
      healthPath: "/bare",
      startTimeoutMs: settings.startTimeoutMs,
    }, (server) => servers.push(server)),
    startServer({
      name: "Apollo-only server",
      entry: "bench/apollo-server.ts",
      cwd: rootDir,
      port: apolloPort,
      env: { NODE_ENV: "production" },
      healthPath: "/ready",
      startTimeoutMs: settings.startTimeoutMs,
    }, (server) => servers.push(server)),
    startServer({
      name: "aerogate server, rate limited",
      entry: "src/main.ts",
      cwd: settings.appDir,
      port: limitedPort,
      // Limiting on, at a rate the bench never reaches: what counting costs, not refusals.
      env: appEnv(limitedDatabase, "1000000000"),
      healthPath: "/healthz",
      startTimeoutMs: settings.startTimeoutMs,
    }, (server) => servers.push(server)),
  ]);
  console.log(`servers up: aerogate pid ${app.pid} at ${app.url}${settings.appDir === rootDir ? "" : ` (from ${settings.appDir})`}, bare pid ${bare.pid} at ${bare.url}`);

  const api = new ApiClient(app.url);
  const fixtures = await createFixtures(api, ownerKey);
  const ctx: ScenarioContext = { api, fixtures, apiFor: () => new ApiClient(limited.url) };
  console.log(`fixtures: tenant ${fixtures.tenant.id}, one sandbox key\n`);

  const loadOptions: LoadOptions = { connections: settings.connections, pipelining: settings.pipelining, duration: settings.seconds };
  const loadOptionsFor = (scenario: Scenario): LoadOptions => ({ ...loadOptions, connections: scenario.connections ?? loadOptions.connections });
  const loadBefore = loadavg();
  // The baseline first in every round, so each ratio has a denominator measured minutes, not ages, before.
  const ordered = [...list.filter((s) => s.baseline), ...list.filter((s) => !s.baseline)];
  const prepared: Prepared[] = [];

  for (const scenario of ordered) {
    const server = { app, bare, apollo: apolloOnly, limited }[scenario.server ?? "app"];
    const target = scenario.baseline ? null : (scenario.target ?? null);
    const outcome: ScenarioOutcome = {
      name: scenario.name,
      method: scenario.method ?? "?",
      path: scenario.path ?? "?",
      server: scenario.server ?? "app",
      baseline: scenario.baseline ?? false,
      target,
      load: null,
      ratio: null,
      serverCpu: null,
      clientCoreShare: null,
      runs: [],
      passed: false,
      problems: [],
    };
    const entry: Prepared = { scenario, server, outcome, request: null, measured: [], ratios: [] };
    prepared.push(entry);
    try {
      entry.request = await requestFor(scenario, ctx);
      outcome.method = entry.request.method;
      outcome.path = entry.request.path;
      const problem = await checkOnce(entry, ctx, "check before run");
      if (problem) throw new Error(problem);
    } catch (error) {
      outcome.problems.push((error as Error).message);
      entry.request = null;
      console.log(`✗ ${scenario.name}: ${(error as Error).message}`);
    }
  }

  const baseline = prepared.find((p) => p.scenario.baseline)!;
  if (!baseline.request) throw new Error(`the baseline failed its check: ${baseline.outcome.problems.join("; ")}`);

  for (let round = 1; round <= settings.rounds; round++) {
    let baselineRps: number | null = null;
    for (const entry of prepared) {
      if (!entry.request) continue;
      const label = settings.rounds > 1 ? `[${round}/${settings.rounds}] ` : "";
      process.stdout.write(`▶ ${label}${entry.scenario.name} (${describeTarget(entry.outcome.target, entry.outcome.baseline)}) … `);
      try {
        if (round === 1 && settings.warmupSeconds > 0) {
          await runLoad(entry.server.url, await requestForRun(entry, ctx, settings.warmupSeconds), { ...loadOptionsFor(entry.scenario), duration: settings.warmupSeconds });
          await entry.scenario.settle?.(ctx);
        }
        const { settle } = entry.scenario;
        const measured = await measure(entry.server, await requestForRun(entry, ctx, settings.seconds), loadOptionsFor(entry.scenario), settle && (() => settle(ctx)));
        entry.measured.push(measured);
        if (entry.scenario.baseline) baselineRps = measured.load.rps;
        if (baselineRps) entry.ratios.push(measured.load.rps / baselineRps);
        const { load, serverCpu } = measured;
        console.log(
          `${Math.round(load.rps)} req/s, p50 ${load.p50Ms.toFixed(2)} ms, p99 ${load.p99Ms.toFixed(2)} ms` +
            (serverCpu ? `, server ${Math.round(serverCpu.usPerRequest)} µs CPU/req` : "") +
            (load.non2xx + load.errors + load.timeouts > 0 ? ` — ${load.non2xx} non-2xx, ${load.errors} errors, ${load.timeouts} timeouts` : ""),
        );
      } catch (error) {
        entry.outcome.problems.push(`round ${round}: ${(error as Error).message}`);
        console.log(`FAIL: ${(error as Error).message}`);
      }
      if (!processesAlive(servers)) throw new Error(`a server process died during "${entry.scenario.name}":\n${servers.map((s) => s.output()).join("\n")}`);
    }
  }

  // With one round the machine may have changed meanwhile: measure the baseline again to see.
  let baselineAgainRps: number | null = null;
  const firstBaselineRps = baseline.measured[0]?.load.rps ?? null;
  if (settings.recheckBaseline && settings.rounds === 1 && firstBaselineRps && prepared.length > 1) {
    process.stdout.write("▶ baseline again (drift check) … ");
    baselineAgainRps = (await runLoad(bare.url, baseline.request, loadOptions)).rps;
    console.log(`${Math.round(baselineAgainRps)} req/s`);
  }
  const baselineRuns = [...baseline.measured.map((m) => m.load.rps), ...(baselineAgainRps ? [baselineAgainRps] : [])];
  const drift = baselineRuns.length > 1 ? Math.max(...baselineRuns) / Math.min(...baselineRuns) - 1 : null;
  const loadAfter = loadavg();
  // The guard scales its recorded figures by the host's speed now, which the bare route shows.
  const bareCpuFigures = baseline.measured.map((m) => m.serverCpu?.usPerRequest).filter((us): us is number => us !== undefined);
  const bareCpuUs = () => (bareCpuFigures.length > 0 ? median(bareCpuFigures) : null);

  for (const entry of prepared) {
    const { outcome } = entry;
    if (entry.measured.length > 0) {
      outcome.load = combine(entry.measured.map((m) => m.load));
      outcome.ratio = entry.scenario.baseline ? 1 : entry.ratios.length > 0 ? median(entry.ratios) : null;
      const cpu = entry.measured.map((m) => m.serverCpu).filter((c): c is NonNullable<typeof c> => c !== null);
      outcome.serverCpu = cpu.length > 0 ? { usPerRequest: median(cpu.map((c) => c.usPerRequest)), coreShare: median(cpu.map((c) => c.coreShare)) } : null;
      outcome.clientCoreShare = median(entry.measured.map((m) => m.clientCoreShare));
      outcome.runs = entry.measured.map((m, i) => ({
        rps: m.load.rps,
        p50Ms: m.load.p50Ms,
        p99Ms: m.load.p99Ms,
        ratio: entry.scenario.baseline ? 1 : (entry.ratios[i] ?? null),
        serverCpuUsPerRequest: m.serverCpu?.usPerRequest ?? null,
      }));
      outcome.problems.push(...judge(outcome.load, outcome.ratio, outcome.target, (name) => prepared.find((p) => p.outcome.name === name)?.outcome.ratio ?? null));
      const creep = cpuCreep(outcome.name, outcome.serverCpu?.usPerRequest ?? null, bareCpuUs());
      if (creep) outcome.problems.push(creep);
      const after = entry.request ? await checkOnce(entry, ctx, "check after run").catch((error: Error) => error.message) : undefined;
      if (after) outcome.problems.push(after);
    } else if (outcome.problems.length === 0) {
      outcome.problems.push("not measured");
    }
    outcome.passed = outcome.problems.length === 0;
  }
  const outcomes = prepared.map((p) => p.outcome);

  let events: EventsBenchResult[] = [];
  if (settings.only.length === 0 || settings.only.includes("events")) {
    process.stdout.write("▶ events: webhooks and subscriptions … ");
    try {
      events = await benchEvents(api, ownerKey);
      console.log("done");
    } catch (error) {
      events = [{ name: "events bench", value: (error as Error).message, target: "runs", passed: false }];
      console.log(`FAIL: ${(error as Error).message}`);
    }
  }

  let gateway: EventsBenchResult[] = [];
  if (settings.only.length === 0 || settings.only.includes("gateway")) {
    process.stdout.write("▶ gateway: searches across both simulated suppliers … ");
    try {
      gateway = await benchGateway(api, ownerKey, app);
      console.log("done");
    } catch (error) {
      gateway = [{ name: "gateway bench", value: (error as Error).message, target: "runs", passed: false }];
      console.log(`FAIL: ${(error as Error).message}`);
    }
  }

  let calendar: EventsBenchResult[] = [];
  if (settings.only.length === 0 || settings.only.includes("calendar")) {
    process.stdout.write("▶ calendar: /healthz while destination ideas are priced … ");
    try {
      calendar = await benchCalendarStall(api, ownerKey);
      console.log("done");
    } catch (error) {
      calendar = [{ name: "calendar-stall bench", value: (error as Error).message, target: "runs", passed: false }];
      console.log(`FAIL: ${(error as Error).message}`);
    }
  }

  let holds: EventsBenchResult[] = [];
  if (settings.only.length === 0 || settings.only.includes("holds")) {
    console.log("▶ holds: deadlines of many unpaid holds at once …");
    try {
      holds = await benchHolds(ownerKey, profileDir);
    } catch (error) {
      holds = [{ name: "holds bench", value: (error as Error).message, target: "runs", passed: false }];
      console.log(`FAIL: ${(error as Error).message}`);
    }
  }

  let tarpit: EventsBenchResult[] = [];
  if (settings.only.length === 0 || settings.only.includes("tarpit")) {
    console.log(`▶ tarpit: a prompt webhook receiver beside ${HANGING_RECEIVERS} hanging ones …`);
    try {
      tarpit = await benchTarpitServer(ownerKey);
    } catch (error) {
      tarpit = [{ name: "tarpit bench", value: (error as Error).message, target: "runs", passed: false }];
      console.log(`FAIL: ${(error as Error).message}`);
    }
  }

  let storage: EventsBenchResult[] = [];
  if (settings.only.length === 0 || settings.only.includes("storage")) {
    process.stdout.write("▶ storage: bytes a 48-offer search adds to the database … ");
    try {
      storage = await measureSearchBytes(api, fixtures.tenantKey, appDatabase);
      console.log("done");
    } catch (error) {
      storage = [{ name: "storage bench", value: (error as Error).message, target: "runs", passed: false }];
      console.log(`FAIL: ${(error as Error).message}`);
    }
  }

  const airportHeap = measureAirportIndexHeap(rootDir);
  const passed = outcomes.every((o) => o.passed) && airportHeap.passed && [...events, ...gateway, ...calendar, ...holds, ...tarpit, ...storage].every((e) => e.passed);
  console.log(`\n${formatTable(outcomes)}\n`);
  for (const event of events) console.log(`events: ${event.name}: ${event.value} (target ${event.target}): ${event.passed ? "pass" : "FAIL"}`);
  for (const figure of gateway) console.log(`gateway: ${figure.name}: ${figure.value} (target ${figure.target}): ${figure.passed ? "pass" : "FAIL"}`);
  for (const figure of calendar) console.log(`calendar: ${figure.name}: ${figure.value} (target ${figure.target}): ${figure.passed ? "pass" : "FAIL"}`);
  for (const hold of holds) console.log(`holds: ${hold.name}: ${hold.value} (target ${hold.target}): ${hold.passed ? "pass" : "FAIL"}`);
  for (const figure of tarpit) console.log(`tarpit: ${figure.name}: ${figure.value} (target ${figure.target}): ${figure.passed ? "pass" : "FAIL"}`);
  for (const line of storage) console.log(`storage: ${line.name}: ${line.value} (target ${line.target}): ${line.passed ? "pass" : "FAIL"}`);
  const bareUs = bareCpuUs();
  for (const outcome of outcomes.filter((o) => guardedScenario(o.name) && o.serverCpu && bareUs !== null)) {
    const expected = expectedUs(outcome.name, bareUs!)!;
    const growth = Math.round((outcome.serverCpu!.usPerRequest / expected - 1) * 100);
    console.log(
      `cpu guard: ${outcome.name}: ${Math.round(outcome.serverCpu!.usPerRequest)} µs/req, ${growth >= 0 ? "+" : ""}${growth} % of the ${Math.round(expected)} µs expected on this host ` +
        `(${cpuRecord.usPerRequest[outcome.name]} µs recorded with the bare route at ${cpuRecord.bareUsPerRequest} µs, now ${Math.round(bareUs!)} µs; at most +${Math.round(cpuRecord.allowedGrowth * 100)} %)`,
    );
  }
  console.log(`airport index: ${airportHeap.airports} airports in ${airportHeap.heapMb} MB of heap (target < ${airportHeap.limitMb} MB): ${airportHeap.passed ? "pass" : "FAIL"}`);
  if (settings.rounds > 1) console.log(`medians of ${settings.rounds} rounds; each ratio is against the baseline of its own round`);
  const clientShares = outcomes.map((o) => o.clientCoreShare).filter((v): v is number => v !== null);
  console.log(
    `load average ${loadBefore[0]!.toFixed(2)} before, ${loadAfter[0]!.toFixed(2)} after (${cpus().length} CPUs); ` +
      `load generator used up to ${Math.round(Math.max(0, ...clientShares) * 100)} % of a core` +
      (drift === null ? "" : `; baseline spread ${(drift * 100).toFixed(1)} % (${baselineRuns.map((r) => Math.round(r)).join(", ")} req/s)`),
  );
  if (drift !== null && drift > BASELINE_DRIFT_WARNING) {
    console.log(`⚠ the baseline moved by more than ${BASELINE_DRIFT_WARNING * 100} % during the run: other load on the machine; ratios are approximate` +
      (settings.rounds === 1 ? " (BENCH_ROUNDS=3 gives medians)" : ""));
  }
  if (loadBefore[0]! > cpus().length) console.log(`⚠ the machine was busy before the run started (load average ${loadBefore[0]!.toFixed(2)})`);

  mkdirSync(resultsDir, { recursive: true });
  const report = {
    finishedAt: new Date().toISOString(),
    commit: gitCommit(),
    machine: { node: process.version, platform: `${process.platform}-${process.arch}`, cpus: cpus().length, cpuModel: cpus()[0]?.model ?? null },
    settings,
    baselineRps: median(baseline.measured.map((m) => m.load.rps)),
    baselineRuns,
    baselineSpread: drift,
    loadAverage: { before: loadBefore, after: loadAfter },
    passed,
    scenarios: outcomes,
    events,
    gateway,
    calendar,
    holds,
    tarpit,
    storage,
    airportHeap,
  };
  const file = join(resultsDir, "latest.json");
  writeFileSync(file, JSON.stringify(report, null, 2) + "\n");
  console.log(`${passed ? "All scenarios passed" : "Some scenarios FAILED"}; results in ${file.replace(rootDir + "/", "")}`);
  return passed ? 0 : 1;
}

/** BENCH_ONLY=soak: the soak alone (bench/soak.ts), its figures printed as it goes and written to bench/results/soak.json. */
async function soak(ownerKey: string): Promise<number> {
  const loadBefore = loadavg();
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(line);
    console.log(line);
  };
  const results = await runSoak(
    { ownerKey, dir: tempDir!, postgresUrl: settings.databaseUrl, appDir: settings.appDir, startTimeoutMs: settings.startTimeoutMs, serverLog: settings.serverLog ?? undefined, log },
    (server) => servers.push(server),
  );
  for (const result of results) console.log(`${result.name}: ${result.value} (target ${result.target}): ${result.passed ? "pass" : "FAIL"}`);
  console.log(`load average ${loadBefore[0]!.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after (${cpus().length} CPUs)`);
  mkdirSync(resultsDir, { recursive: true });
  const passed = results.every((result) => result.passed);
  writeFileSync(join(resultsDir, "soak.json"), JSON.stringify({ finishedAt: new Date().toISOString(), commit: gitCommit(), settings, loadAverage: { before: loadBefore, after: loadavg() }, passed, results, lines }, null, 2) + "\n");
  return passed ? 0 : 1;
}

/** BENCH_ONLY=processes: one process against two on one PostgreSQL (bench/two-processes.ts), written to bench/results/processes.json. */
async function twoProcesses(ownerKey: string): Promise<number> {
  const loadBefore = loadavg();
  const lines: string[] = [];
  const log = (line: string) => {
    lines.push(line);
    console.log(line);
  };
  const results = await runTwoProcesses(
    { ownerKey, dir: tempDir!, postgresUrl: settings.databaseUrl, appDir: settings.appDir, startTimeoutMs: settings.startTimeoutMs, seconds: settings.seconds, connections: settings.connections, log },
    (server) => servers.push(server),
  );
  for (const result of results) console.log(`${result.name}: ${result.value} (target ${result.target}): ${result.passed ? "pass" : "FAIL"}`);
  console.log(`load average ${loadBefore[0]!.toFixed(2)} before, ${loadavg()[0]!.toFixed(2)} after (${cpus().length} CPUs)`);
  mkdirSync(resultsDir, { recursive: true });
  const passed = results.every((result) => result.passed);
  writeFileSync(join(resultsDir, "processes.json"), JSON.stringify({ finishedAt: new Date().toISOString(), commit: gitCommit(), settings, loadAverage: { before: loadBefore, after: loadavg() }, passed, results, lines }, null, 2) + "\n");
  return passed ? 0 : 1;
}

/**
 * The hold-deadline bench (bench/holds.ts) on a server of its own, started for it (and restarted
 * by it, with other ORDER_HOLD_SECONDS) and stopped after: its own database, SQLite or PostgreSQL
 * (BENCH_HOLDS_DATABASE_URL), so the deadlines come in real time.
 */
async function benchHolds(ownerKey: string, profileDir: string): Promise<EventsBenchResult[]> {
  const database = await holdsDatabase(tempDir!);
  const port = await freePort();
  let server: ServerProcess | undefined;
  const start = async (holdSeconds: number) => {
    await server?.stop();
    server = await startServer({
      name: "aerogate server, holds",
      entry: "src/main.ts",
      cwd: settings.appDir,
      port,
      env: {
        DATABASE_URL: database.url,
        OWNER_API_KEY: ownerKey,
        RATE_LIMIT_RPS: "0",
        LOG_LEVEL: "warn",
        ORDER_HOLD_SECONDS: String(holdSeconds),
        NODE_ENV: "production",
      },
      nodeArgs: [...settings.serverNodeArgs, ...(settings.cpuProfile ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [])],
      healthPath: "/healthz",
      startTimeoutMs: settings.startTimeoutMs,
    }, (started) => servers.push(started));
  };
  try {
    const holdsServer = { api: new ApiClient(`http://127.0.0.1:${port}`), start, cpuSeconds: () => server?.cpuSeconds() ?? null };
    return await benchHoldDeadlines(holdsServer, ownerKey, (line) => console.log(`  ${line}`));
  } finally {
    await server?.stop();
    await database.drop();
  }
}

/**
 * The tarpit bench (bench/tarpit.ts) on a server of its own (a fresh SQLite file, webhook
 * attempts retried at once, WEBHOOK_TIMEOUT_MS as the product's default), stopped after.
 */
async function benchTarpitServer(ownerKey: string): Promise<EventsBenchResult[]> {
  const server = await startServer({
    name: "aerogate server, tarpit",
    entry: "src/main.ts",
    cwd: settings.appDir,
    port: await freePort(),
    env: { DATABASE_URL: `file:${join(tempDir!, "tarpit.db")}`, OWNER_API_KEY: ownerKey, RATE_LIMIT_RPS: "0", LOG_LEVEL: "warn", NODE_ENV: "production", ...TARPIT_SERVER_ENV },
    nodeArgs: settings.serverNodeArgs,
    healthPath: "/healthz",
    startTimeoutMs: settings.startTimeoutMs,
  }, (started) => servers.push(started));
  try {
    return await benchTarpit(new ApiClient(server.url), ownerKey, () => server.cpuSeconds(), (line) => console.log(`  ${line}`));
  } finally {
    await server.stop();
  }
}

let exitCode = 1;
try {
  exitCode = await main();
} catch (error) {
  console.error(`\nbench failed: ${(error as Error).stack ?? error}`);
} finally {
  await cleanup();
}
if (settings.cpuProfile) console.log("CPU profile of the server written to bench/results/profiles/");
process.exit(exitCode);
