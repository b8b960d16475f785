/**
 * The calendar-stall bench (bench/README.md): does pricing destination ideas hold up the server?
 * Five clients ask for destination ideas one after another, each a month, origin and cabin not
 * asked before in the run (so none is answered from the remembered months: each is tens of
 * thousands of fare searches), while a sixth sends `GET /healthz` every 10 ms. The figure is the
 * p99 of /healthz's answers, beside its target, with the machine's load average: the ideas are
 * priced on the simulated airline's fare worker, so what they cost the event loop is the rest.
 */
import { loadavg } from "node:os";
import { createFixtures, type ApiClient } from "./fixtures";
import { median, percentile, type EventsBenchResult } from "./events";

const SECONDS = Number(process.env.BENCH_CALENDAR_SECONDS ?? 20);
const CLIENTS = 5;
const HEALTH_EVERY_MS = 10;
const TARGET_P99_MS = 50;

/** Big origins (many destinations each) first, so every request is a heavy one. */
const ORIGINS = ["LON", "NYC", "PAR", "FRA", "AMS", "MAD", "CHI", "LAX", "TYO", "DXB", "IST", "SIN", "HKG", "ROM", "MUC", "BCN", "ZRH", "YTO", "SYD", "DEL"];
const CABINS = ["economy", "premium_economy", "business", "first"];

/** The `YYYY-MM` `ahead` months from now. */
function monthAhead(ahead: number): string {
  const date = new Date();
  date.setUTCDate(1);
  date.setUTCMonth(date.getUTCMonth() + ahead);
  return date.toISOString().slice(0, 7);
}

/** The `n`-th destination-ideas request of the run: origin, then cabin, then month vary, none twice (800 of them). */
function ideasPath(n: number): string {
  const origin = ORIGINS[n % ORIGINS.length]!;
  const cabin = CABINS[Math.floor(n / ORIGINS.length) % CABINS.length]!;
  const month = monthAhead(1 + (Math.floor(n / (ORIGINS.length * CABINS.length)) % 10));
  return `/v1/air/destinations?origin=${origin}&month=${month}&cabin_class=${cabin}`;
}

export async function benchCalendarStall(api: ApiClient, ownerKey: string): Promise<EventsBenchResult[]> {
  const { tenantKey } = await createFixtures(api, ownerKey, "Calendar Bench");
  let next = 0;
  let running = true;
  const ideas = { answered: 0, refused: 0, times: [] as number[] };
  const client = async () => {
    while (running) {
      const started = performance.now();
      const response = await api.call("GET", ideasPath(next++), { key: tenantKey });
      if (response.status === 200) {
        ideas.answered++;
        ideas.times.push(performance.now() - started);
      } else ideas.refused++;
    }
  };
  const healthWaits: number[] = [];
  const prober = async () => {
    while (running) {
      const sent = performance.now();
      const response = await fetch(`${api.baseUrl}/healthz`);
      await response.arrayBuffer();
      if (response.status === 200) healthWaits.push(performance.now() - sent);
      await new Promise((resolve) => setTimeout(resolve, HEALTH_EVERY_MS));
    }
  };
  const loadBefore = loadavg()[0]!;
  const work = [...Array.from({ length: CLIENTS }, client), prober()];
  await new Promise((resolve) => setTimeout(resolve, SECONDS * 1000));
  running = false;
  await Promise.all(work);
  const loadAfter = loadavg()[0]!;
  const p99 = percentile(healthWaits, 99);
  return [
    {
      name: `GET /healthz p99 while ${CLIENTS} clients ask for destination ideas not asked before, ${SECONDS} s`,
      value:
        `${p99.toFixed(1)} ms (p50 ${median(healthWaits).toFixed(1)} ms, max ${Math.max(...healthWaits).toFixed(1)} ms, ${healthWaits.length} answers; ` +
        `${ideas.answered} ideas answered, p50 ${ideas.times.length > 0 ? median(ideas.times).toFixed(0) : "—"} ms, ${ideas.refused} refused; ` +
        `load average ${loadBefore.toFixed(2)} before, ${loadAfter.toFixed(2)} after)`,
      target: `≤ ${TARGET_P99_MS} ms`,
      passed: p99 <= TARGET_P99_MS && ideas.refused === 0 && ideas.answered > 0,
    },
  ];
}
