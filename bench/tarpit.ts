/**
 * The tarpit bench: how long webhook deliveries to a receiver that answers at once
 * take, with no other receivers, and then while 100 receivers hang every attempt sent to them
 * (half never answer, half trickle a byte a second), each attempt cut at WEBHOOK_TIMEOUT_MS.
 *
 * It runs against a server of its own (`start`), whose hanging deliveries are retried at once
 * (WEBHOOK_RETRY_SCHEDULE of zeros), so each of the 100 receivers always has an attempt hanging:
 * the bench checks that they do, at the start and the end of the measured phase. The prompt
 * tenant books and tickets orders at a steady pace; each delivery's latency is its arrival less
 * its event's `created_at` (the commit).
 */
import { startTarpit, type Tarpit } from "../test/helpers/webhook-receiver";
import { percentile, Receiver, type EventsBenchResult } from "./events";
import { createFixtures, type ApiClient, type Fixtures } from "./fixtures";
import { BookableOffers, bookAll, FlightRegistry, fundTickets, withFreshKey } from "./order-fixtures";

/** Receivers that hang. */
export const HANGING_RECEIVERS = 100;
/** Orders the prompt tenant books and tickets per phase, and how fast. */
const ORDERS_PER_PHASE = Number(process.env.BENCH_TARPIT_ORDERS ?? 150);
const ORDERS_PER_SECOND = 15;
/** The target: the prompt receiver's deliveries with 100 receivers hanging. */
const TARGET_P99_MS = 200;

/** The environment of the tarpit bench's server, besides its database and owner key. */
export const TARPIT_SERVER_ENV = {
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
  // Every attempt to a hanging receiver is followed by another at once: they hang all along.
  WEBHOOK_RETRY_SCHEDULE: Array.from({ length: 40 }, () => "0").join(","),
  TICKETING_DELAY_MS: "0",
};

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms)));

/** Books and tickets `count` orders of `fixtures` at ORDERS_PER_SECOND, from offers taken beforehand. */
async function bookAndTicketPaced(api: ApiClient, fixtures: Fixtures, offers: BookableOffers, count: number): Promise<void> {
  const taken = await offers.take(count);
  const started = Date.now();
  await Promise.all(
    taken.map(async (offer, index) => {
      await sleep(started + (index * 1000) / ORDERS_PER_SECOND - Date.now());
      const [id] = await bookAll(api, fixtures, [offer], 1);
      await api.expectOk("POST", `/v1/air/orders/${id}/actions/ticket`, { headers: withFreshKey(fixtures) });
    }),
  );
}

/** The prompt receiver's latencies of the deliveries that arrived after `from` (its arrivals' index). */
function latenciesSince(receiver: Receiver, from: number): number[] {
  return receiver.arrivals.slice(from).map((arrival) => arrival.arrivedAt - arrival.createdAt);
}

function describeLatencies(latencies: number[]): string {
  return `p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms (${latencies.length} deliveries)`;
}

export async function benchTarpit(api: ApiClient, ownerKey: string, cpuSeconds: () => number | null, log: (line: string) => void): Promise<EventsBenchResult[]> {
  const receiver = new Receiver();
  const tarpits: Tarpit[] = [];
  // The server has a database of its own: its flights' seats are its own.
  const flights = new FlightRegistry();
  try {
    const prompt = await createFixtures(api, ownerKey, "Bench Prompt Receiver");
    const promptOffers = new BookableOffers(api, prompt, flights);
    await api.expectOk("PATCH", "/v1/tenant", { key: prompt.tenantKey, body: { webhook_url: await receiver.start(), webhook_enabled: true } });
    await fundTickets(api, prompt, 2 * ORDERS_PER_PHASE + 1);
    // Its first delivery shows the receiver prompt (a new destination has one attempt at a time).
    await bookAll(api, prompt, await promptOffers.take(1));
    await receiver.waitFor(1, 10_000);

    const phase = async () => {
      const from = receiver.arrivals.length;
      const cpuBefore = cpuSeconds();
      await bookAndTicketPaced(api, prompt, promptOffers, ORDERS_PER_PHASE);
      await receiver.waitFor(from + 2 * ORDERS_PER_PHASE, 60_000);
      const cpuAfter = cpuSeconds();
      const cpuMsPerOrder = cpuBefore !== null && cpuAfter !== null ? ((cpuAfter - cpuBefore) * 1000) / ORDERS_PER_PHASE : null;
      return { latencies: latenciesSince(receiver, from), cpuMsPerOrder };
    };

    log(`no hanging receiver: ${ORDERS_PER_PHASE} orders booked and ticketed at ${ORDERS_PER_SECOND}/s`);
    const alone = await phase();
    log(`  ${describeLatencies(alone.latencies)}`);

    // 100 tenants whose receivers hang: half never answer, half trickle a byte a second.
    const silent = await startTarpit("silent");
    const trickling = await startTarpit("trickle", { everyMs: 1000 });
    tarpits.push(silent, trickling);
    for (let index = 0; index < HANGING_RECEIVERS; index++) {
      const hanging = await createFixtures(api, ownerKey, `Bench Hanging ${index}`);
      const url = (index % 2 === 0 ? silent : trickling).url(`/hanging/${index}`);
      await api.expectOk("PATCH", "/v1/tenant", { key: hanging.tenantKey, body: { webhook_url: url, webhook_enabled: true } });
      await bookAll(api, hanging, await new BookableOffers(api, hanging, flights).take(1));
    }
    const hangingNow = () => silent.openNow() + trickling.openNow();
    const deadline = Date.now() + 30_000;
    while (hangingNow() < HANGING_RECEIVERS && Date.now() < deadline) await sleep(50);
    const hangingAtStart = hangingNow();
    log(`${hangingAtStart} receivers hanging; the same orders again`);
    const beside = await phase();
    const hangingAtEnd = hangingNow();
    log(`  ${describeLatencies(beside.latencies)}; ${hangingAtEnd} receivers still hanging`);

    const cpu = (figure: number | null) => (figure === null ? "" : `; server ${figure.toFixed(1)} ms CPU per order (search, booking, ticketing, its two deliveries and the hanging attempts meanwhile)`);
    const p99 = percentile(beside.latencies, 99);
    return [
      { name: "prompt receiver's deliveries, no receiver hanging", value: describeLatencies(alone.latencies) + cpu(alone.cpuMsPerOrder), target: "(reference)", passed: alone.latencies.length === 2 * ORDERS_PER_PHASE },
      {
        name: `prompt receiver's deliveries, ${HANGING_RECEIVERS} receivers hanging (${hangingAtStart} at the start, ${hangingAtEnd} at the end)`,
        value: describeLatencies(beside.latencies) + cpu(beside.cpuMsPerOrder),
        target: `p99 ≤ ${TARGET_P99_MS} ms`,
        passed: p99 <= TARGET_P99_MS && hangingAtStart >= HANGING_RECEIVERS && hangingAtEnd >= HANGING_RECEIVERS,
      },
    ];
  } finally {
    await receiver.close();
    await Promise.all(tarpits.map((tarpit) => tarpit.close()));
  }
}
