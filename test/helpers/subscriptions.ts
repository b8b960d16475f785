import { createClient, type Client } from "graphql-ws";
import WebSocket from "ws";
import { call, type Endpoint } from "./client";
import { eventually } from "./eventually";

/** What one subscription has received so far, as a real graphql-ws client sees it. */
export interface Subscription {
  /** Every `next` payload, in order, each stamped with when it arrived (performance.now()). */
  results: Array<{ data?: any; errors?: any[]; receivedAt: number }>;
  completed: boolean;
  /** The socket's close code, when the server closed it under the subscription. */
  closeCode: number | null;
  /** Waits until at least `count` results arrived, and returns them. */
  waitForResults(count: number, deadlineMs?: number): Promise<Subscription["results"]>;
  /** Waits until the subscription has ended (completed or its socket closed). */
  waitForEnd(deadlineMs?: number): Promise<void>;
}

export const ORDER_FIELDS = "id status bookingReference failureReason documents { uniqueIdentifier passengerId } passengers { id familyName }";
export const ORDER_STATUS_CHANGED = `subscription ($orderId: ID!) { orderStatusChanged(orderId: $orderId) { ${ORDER_FIELDS} } }`;
export const ORDER_EVENTS = `subscription { orderEvents { id type createdAt order { ${ORDER_FIELDS} } } }`;

/**
 * A graphql-ws client over the `ws` package on `wsUrl`, with these connection params; it never
 * retries, so a close by the server ends its subscriptions with the close event.
 */
export function wsClient(wsUrl: string, connectionParams: Record<string, unknown>): Client {
  return createClient({ url: wsUrl, webSocketImpl: WebSocket, connectionParams, retryAttempts: 0, lazy: true });
}

/** Starts one subscription on `client` and records what it receives. */
export function subscribe(client: Client, query: string, variables: Record<string, unknown> = {}): Subscription {
  const subscription: Subscription = {
    results: [],
    completed: false,
    closeCode: null,
    waitForResults: (count, deadlineMs = 10_000) =>
      eventually(
        async () => (subscription.results.length >= count ? subscription.results : undefined),
        () => `${subscription.results.length} of ${count} results (${JSON.stringify(subscription.results.map((result) => result.data ?? result.errors))})`,
        deadlineMs,
        5,
      ),
    waitForEnd: async (deadlineMs = 10_000) => {
      await eventually(async () => (subscription.completed || subscription.closeCode !== null ? true : undefined), () => "the subscription is still open", deadlineMs, 5);
    },
  };
  client.subscribe(
    { query, variables },
    {
      next: (value) => subscription.results.push({ ...(value as { data?: any; errors?: any[] }), receivedAt: performance.now() }),
      error: (error) => {
        subscription.closeCode = (error as { code?: number }).code ?? -1;
      },
      complete: () => {
        subscription.completed = true;
      },
    },
  );
  return subscription;
}

/** The server's count of open order subscriptions (its /metrics gauge). */
export async function openOrderSubscriptions(server: Endpoint): Promise<number> {
  const metrics = await call<string>(server, "GET", "/metrics");
  const line = /^aerogate_order_subscriptions (\d+)$/m.exec(metrics.body);
  if (!line) throw new Error("aerogate_order_subscriptions missing from /metrics");
  return Number(line[1]);
}

/** The server's count of open wallet subscriptions (its /metrics gauge). */
export async function openWalletSubscriptions(server: Endpoint): Promise<number> {
  const metrics = await call<string>(server, "GET", "/metrics");
  const line = /^aerogate_wallet_subscriptions (\d+)$/m.exec(metrics.body);
  if (!line) throw new Error("aerogate_wallet_subscriptions missing from /metrics");
  return Number(line[1]);
}

/** Waits until the server has exactly `count` order and wallet subscriptions open: the ones a test started are listening. */
export async function waitForOpenSubscriptions(server: Endpoint, count: number, deadlineMs = 10_000): Promise<void> {
  let last = -1;
  await eventually(
    async () => {
      last = (await openOrderSubscriptions(server)) + (await openWalletSubscriptions(server));
      return last === count ? true : undefined;
    },
    () => `${last} order and wallet subscriptions open (waiting for ${count})`,
    deadlineMs,
  );
}
