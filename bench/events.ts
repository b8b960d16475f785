/**
 * The events bench (bench/README.md): webhooks and subscriptions against the running bench server, for a
 * tenant of its own whose webhook points at a receiver in this process.
 *
 * 1. Latency: orders are booked and ticketed at a steady pace (TICKETING_DELAY_MS=0 on the bench
 *    server); for each `order.ticketed`, the time from the event's `created_at` (the commit of the
 *    airline's answer) to the webhook arriving, and to an `orderEvents` subscriber's message.
 * 2. Throughput: every delivery of phase 1 is redelivered while the receiver holds its answers,
 *    so they wait in the database; deliveries per second from its release to the last arrival.
 * 3. Fan-out: 1,000 WebSocket subscribers of one order's `orderStatusChanged`; the order is
 *    cancelled; the time from sending the cancel until the last subscriber has the change.
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { createFixtures, type ApiClient, type Fixtures } from "./fixtures";
import { bookAll, fundTickets, withFreshKey } from "./order-fixtures";

export interface EventsBenchResult {
  name: string;
  value: string;
  target: string;
  passed: boolean;
}

const ORDERS = Number(process.env.BENCH_EVENT_ORDERS ?? 600);
const TICKETS_PER_SECOND = 200;
const SUBSCRIBERS = 1000;

interface Arrival {
  event: string;
  createdAt: number;
  arrivedAt: number;
}

/**
 * A webhook receiver that answers 200 and notes when each delivery arrived. While held, it
 * answers nothing (so the server's deliveries pile up behind the ones in flight) until released.
 */
export class Receiver {
  readonly arrivals: Arrival[] = [];
  private waiters: Array<() => void> = [];
  private held: Array<() => void> | null = null;
  private readonly server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      const answer = () => {
        const body = JSON.parse(Buffer.concat(chunks).toString("utf8")) as { event: string; created_at: string };
        this.arrivals.push({ event: body.event, createdAt: Date.parse(body.created_at), arrivedAt: Date.now() });
        response.writeHead(200).end();
        for (const wake of this.waiters.splice(0)) wake();
      };
      if (this.held) this.held.push(answer);
      else answer();
    });
  });

  hold(): void {
    this.held = [];
  }

  release(): void {
    const held = this.held ?? [];
    this.held = null;
    for (const answer of held) answer();
  }

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/hooks`;
  }

  /** Resolves once `count` deliveries have arrived, or throws after `timeoutMs`. */
  async waitFor(count: number, timeoutMs: number): Promise<void> {
    const deadline = Date.now() + timeoutMs;
    while (this.arrivals.length < count) {
      if (Date.now() > deadline) throw new Error(`only ${this.arrivals.length} of ${count} webhooks arrived within ${timeoutMs} ms`);
      await new Promise<void>((resolve) => {
        this.waiters.push(resolve);
        setTimeout(resolve, 100);
      });
    }
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** The `p`-th percentile of `values` (nearest rank). */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

/** The middle value (the mean of the two middle ones for an even count). */
export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}

export function subscriberClient(wsUrl: string, key: string): Client {
  return createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams: { authorization: `Bearer ${key}` }, retryAttempts: 0, lazy: false });
}

/**
 * A client whose key the server has accepted. The server lets one address keep only 32
 * connections waiting for that at once (src/graphql/subscriptions.ts), and the bench is one
 * address, so many subscribers connect in waves of that size, as clients behind one NAT would.
 */
const WAITING_PER_ADDRESS = 32;
function connectedClient(wsUrl: string, key: string): Promise<Client> {
  return new Promise((resolve, reject) => {
    const client = createClient({
      url: wsUrl,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${key}` },
      retryAttempts: 0,
      lazy: false,
      on: { connected: () => resolve(client), closed: (event) => reject(new Error(`a subscriber's connection closed before it was accepted: ${(event as { code?: number }).code} ${(event as { reason?: string }).reason}`)) },
    });
  });
}

/** `count` accepted clients, connected in waves the server's limit on waiting connections admits. */
async function connectedClients(wsUrl: string, key: string, count: number): Promise<Client[]> {
  const clients: Client[] = [];
  while (clients.length < count) {
    const wave = Math.min(WAITING_PER_ADDRESS, count - clients.length);
    clients.push(...(await Promise.all(Array.from({ length: wave }, () => connectedClient(wsUrl, key)))));
  }
  return clients;
}

/** Subscribes and calls `onData` with each message's data. */
export function subscribe(client: Client, query: string, variables: Record<string, unknown>, onData: (data: any) => void): void {
  client.subscribe(
    { query, variables },
    {
      next: (message) => onData(message.data),
      error: (error) => console.error("subscription error", error),
      complete: () => undefined,
    },
  );
}

/** Resolves once the server counts `count` open subscriptions (its /metrics), or throws after 10 s. */
async function subscriptionsOpen(api: ApiClient, count: number): Promise<void> {
  const deadline = Date.now() + 10_000;
  for (;;) {
    const metrics = await api.call<string>("GET", "/metrics");
    const open = Number(/^aerogate_order_subscriptions (\d+)$/m.exec(metrics.body)?.[1] ?? 0);
    if (open >= count) return;
    if (Date.now() > deadline) throw new Error(`${open} of ${count} subscriptions open after 10 s`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

async function ticketPaced(api: ApiClient, fixtures: Fixtures, orderIds: string[]): Promise<void> {
  const started = Date.now();
  await Promise.all(
    orderIds.map(async (id, index) => {
      const due = started + (index * 1000) / TICKETS_PER_SECOND;
      await new Promise((resolve) => setTimeout(resolve, Math.max(0, due - Date.now())));
      await api.expectOk("POST", `/v1/air/orders/${id}/actions/ticket`, { headers: withFreshKey(fixtures) });
    }),
  );
}

async function deliveryIds(api: ApiClient, fixtures: Fixtures): Promise<string[]> {
  const ids: string[] = [];
  let cursor: string | null = null;
  do {
    const page: any = await api.expectOk("GET", `/v1/webhooks/deliveries?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: fixtures.tenantKey });
    ids.push(...page.data.items.map((item: { id: string }) => item.id));
    cursor = page.data.pagination.nextCursor;
  } while (cursor);
  return ids;
}

export async function benchEvents(api: ApiClient, ownerKey: string): Promise<EventsBenchResult[]> {
  const wsUrl = api.baseUrl.replace(/^http/, "ws") + "/graphql";
  const fixtures = await createFixtures(api, ownerKey, "Bench Events");
  const receiver = new Receiver();
  const clients: Client[] = [];
  try {
    await api.expectOk("PATCH", "/v1/tenant", { key: fixtures.tenantKey, body: { webhook_url: await receiver.start(), webhook_enabled: true } });
    await fundTickets(api, fixtures, ORDERS);
    const orderIds = await bookAll(api, fixtures, await fixtures.offers.take(ORDERS));
    await receiver.waitFor(ORDERS, 60_000);

    // 1. Latency of order.ticketed, to the webhook and to a subscriber.
    const subscriberLatencies: number[] = [];
    const listener = subscriberClient(wsUrl, fixtures.tenantKey);
    clients.push(listener);
    subscribe(listener, "subscription { orderEvents { type createdAt } }", {}, (data) => {
      const event = data?.orderEvents;
      if (event?.type === "order.ticketed") subscriberLatencies.push(Date.now() - Date.parse(event.createdAt));
    });
    await subscriptionsOpen(api, 1); // listening before the first ticket
    await ticketPaced(api, fixtures, orderIds);
    await receiver.waitFor(ORDERS * 2, 60_000);
    const webhookLatencies = receiver.arrivals.filter((arrival) => arrival.event === "order.ticketed").map((arrival) => arrival.arrivedAt - arrival.createdAt);

    // 2. Throughput: everything delivered so far is redelivered while the receiver holds its
    // answers (only the attempts in flight reach it), then drained once it answers again.
    const ids = await deliveryIds(api, fixtures);
    const before = receiver.arrivals.length;
    receiver.hold();
    for (let i = 0; i < ids.length; i += 50) {
      await Promise.all(ids.slice(i, i + 50).map((id) => api.expectOk("POST", `/v1/webhooks/deliveries/${id}/redeliver`, { key: fixtures.tenantKey })));
    }
    const released = Date.now();
    receiver.release();
    await receiver.waitFor(before + ids.length, 60_000);
    const lastArrival = Math.max(...receiver.arrivals.slice(before).map((arrival) => arrival.arrivedAt));
    const deliveriesPerSecond = ids.length / ((lastArrival - released) / 1000);

    // 3. Fan-out to 1,000 subscribers of one order.
    const [fanOutOrder] = await bookAll(api, fixtures, await fixtures.offers.take(1));
    let ready = 0;
    const receivedAt: number[] = [];
    const subscribers = await connectedClients(wsUrl, fixtures.tenantKey, SUBSCRIBERS);
    clients.push(...subscribers);
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`only ${ready} of ${SUBSCRIBERS} subscribers got the current state`)), 60_000);
      for (const client of subscribers) {
        subscribe(client, "subscription ($id: ID!) { orderStatusChanged(orderId: $id) { status } }", { id: fanOutOrder }, (data) => {
          const status = data?.orderStatusChanged?.status;
          if (status === "PENDING" && ++ready === SUBSCRIBERS) {
            clearTimeout(timer);
            resolve();
          }
          if (status === "CANCELED") receivedAt.push(Date.now());
        });
      }
    });
    const cancelSent = Date.now();
    await api.expectOk("POST", `/v1/air/orders/${fanOutOrder}/actions/cancel`, { key: fixtures.tenantKey });
    const deadline = Date.now() + 10_000;
    while (receivedAt.length < SUBSCRIBERS && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 5));
    const fanOutMs = receivedAt.length === SUBSCRIBERS ? Math.max(...receivedAt) - cancelSent : Number.POSITIVE_INFINITY;

    const webhookP99 = percentile(webhookLatencies, 99);
    const subscriptionP99 = percentile(subscriberLatencies, 99);
    return [
      { name: `webhook deliveries to a local receiver (a backlog of ${ids.length})`, value: `${Math.round(deliveriesPerSecond)}/s`, target: "≥ 1,000/s", passed: deliveriesPerSecond >= 1000 },
      {
        name: `airline answer → webhook, ${webhookLatencies.length} tickets at ${TICKETS_PER_SECOND}/s`,
        value: `p50 ${percentile(webhookLatencies, 50)} ms, p99 ${webhookP99} ms`,
        target: "p99 ≤ 100 ms",
        passed: webhookP99 <= 100,
      },
      {
        name: `airline answer → subscription message (orderEvents), ${subscriberLatencies.length} tickets`,
        value: `p50 ${percentile(subscriberLatencies, 50)} ms, p99 ${subscriptionP99} ms`,
        target: "p99 ≤ 50 ms",
        passed: subscriberLatencies.length === ORDERS && subscriptionP99 <= 50,
      },
      {
        name: `${SUBSCRIBERS} subscribers of one order, cancel sent → last one has it`,
        value: receivedAt.length === SUBSCRIBERS ? `${fanOutMs} ms` : `${receivedAt.length} of ${SUBSCRIBERS} received`,
        target: "≤ 200 ms",
        passed: fanOutMs <= 200,
      },
    ];
  } finally {
    await Promise.all(clients.map((client) => client.dispose()));
    await receiver.close();
  }
}
