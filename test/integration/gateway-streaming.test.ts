import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TenantFixture } from "../helpers/client";
import { bookOffer } from "../helpers/orders";
import { daysAhead } from "../helpers/offers";
import { subscribe, wsClient } from "../helpers/subscriptions";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** The streamed search (docs/gateway.md#streaming-search): one message per supplier as it answers, then complete. */

const SEARCH_OFFERS = `subscription ($input: SearchFlightsInput!) {
  searchOffers(input: $input) { supplier status durationMs answeredAt remainingSuppliers offers { id supplier { id } totalAmount passengers { id } } }
}`;

describe("searchOffers over graphql-ws", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    // The low-cost supplier takes 300 ms: the network's batch comes first.
    server = await startTestServer({ env: { SUPPLIER_LCC_LATENCY_MS: "300" } });
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  const input = (days: number, extra: Record<string, unknown> = {}) => ({
    slices: [{ origin: "LON", destination: "BCN", departureDate: daysAhead(days) }],
    passengers: [{ type: "ADULT", id: "p1" }],
    ...extra,
  });

  it("sends the fast supplier's offers first, the slow one's after, then completes; each batch's offers can be booked at once", async () => {
    const client = wsClient(server.wsUrl, { authorization: `Bearer ${tenant.key}` });
    try {
      const subscribedAt = Date.now();
      const subscription = subscribe(client, SEARCH_OFFERS, { input: input(30) });
      const [first] = await subscription.waitForResults(1);
      const receivedAt = Date.now();
      expect(first!.errors).toBeUndefined();
      // When the fast supplier's answer reached the gateway: after the subscribe, before the message.
      const answeredAt = Date.parse(first!.data.searchOffers.answeredAt);
      expect(answeredAt).toBeGreaterThanOrEqual(subscribedAt);
      expect(answeredAt).toBeLessThanOrEqual(receivedAt);
      expect(first!.data.searchOffers).toMatchObject({ supplier: "simulated", status: "OK", remainingSuppliers: 1 });
      expect(first!.data.searchOffers.offers.length).toBeGreaterThan(0);
      // Booked before the slow supplier has answered.
      const offer = first!.data.searchOffers.offers[0];
      const order = await bookOffer(server, tenant.key, { id: offer.id, total_amount: offer.totalAmount, total_currency: "USD", passengers: [{ id: "p1", type: "adult" }] });
      expect(order.supplier.id).toBe("simulated");

      await subscription.waitForEnd();
      expect(subscription.completed).toBe(true);
      expect(subscription.results).toHaveLength(2);
      const second = subscription.results[1]!.data.searchOffers;
      expect(second).toMatchObject({ supplier: "simulated_lcc", status: "OK", remainingSuppliers: 0 });
      expect(second.durationMs).toBeGreaterThanOrEqual(300);
      expect(second.offers.every((each: any) => each.supplier.id === "simulated_lcc")).toBe(true);
    } finally {
      await client.dispose();
    }
  });

  it("reports a supplier that misses the deadline as its last message, with no offers", async () => {
    const client = wsClient(server.wsUrl, { authorization: `Bearer ${tenant.key}` });
    try {
      const subscription = subscribe(client, SEARCH_OFFERS, { input: input(31, { supplierTimeout: 2, supplierBehaviour: { simulated_lcc: "timeout" } }) });
      await subscription.waitForEnd(5_000);
      expect(subscription.results.map((result) => [result.data.searchOffers.supplier, result.data.searchOffers.status, result.data.searchOffers.offers.length > 0])).toEqual([
        ["simulated", "OK", true],
        ["simulated_lcc", "TIMEOUT", false],
      ]);
    } finally {
      await client.dispose();
    }
  });

  it("refuses a search the rules refuse before any batch", async () => {
    const client = wsClient(server.wsUrl, { authorization: `Bearer ${tenant.key}` });
    try {
      const subscription = subscribe(client, SEARCH_OFFERS, { input: { ...input(32), slices: [{ origin: "LON", destination: "LON", departureDate: daysAhead(32) }] } });
      const [result] = await subscription.waitForResults(1);
      expect(result!.errors?.[0]?.extensions?.code).toBe("invalid_search_params");
    } finally {
      await client.dispose();
    }
  });
});
