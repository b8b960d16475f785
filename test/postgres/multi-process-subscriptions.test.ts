import type { Client } from "graphql-ws";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { bookOffer, passengersOf, searchForBooking, ticketOrder } from "../helpers/orders";
import { ORDER_EVENTS, ORDER_STATUS_CHANGED, subscribe, waitForOpenSubscriptions, wsClient } from "../helpers/subscriptions";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Two server processes on one PostgreSQL database (docs/operations.md#scaling-on-postgresql): a GraphQL subscriber on one
 * hears what happens through the other, order changes and key revocations alike, because both
 * fan out through LISTEN/NOTIFY. Only meaningful on PostgreSQL: SQLite serves one process.
 */
describe("subscriptions across two servers on one PostgreSQL database", () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  let tenant: TenantFixture;
  let clients: Client[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    const ownerKey = generateSecret("owner");
    const env = { TICKETING_DELAY_MS: "300" };
    a = await startTestServer({ database, ownerKey, env });
    b = await startTestServer({ database, ownerKey, env });
    expect(a.provider).toBe("postgresql");
    tenant = await createTenant(b);
  });
  afterEach(async () => {
    await Promise.all(clients.map((client) => client.dispose()));
    clients = [];
    await waitForOpenSubscriptions(a, 0);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  /** A graphql-ws client connected to server A. */
  function connectToA(key: string): Client {
    const client = wsClient(a.wsUrl, { authorization: `Bearer ${key}` });
    clients.push(client);
    return client;
  }

  async function bookThroughB(familyName = "Lovelace"): Promise<any> {
    const [offer] = await searchForBooking(b, tenant.key);
    return bookOffer(b, tenant.key, offer, { passengers: passengersOf(offer, { family_name: familyName }) });
  }

  it("a subscriber on A follows an order booked and ticketed through B to TICKETED", async () => {
    const order = await bookThroughB();
    const states = subscribe(connectToA(tenant.key), ORDER_STATUS_CHANGED, { orderId: order.id });
    await states.waitForResults(1);
    expect((await ticketOrder(b, tenant.key, order.id)).status).toBe(200);

    const results = await states.waitForResults(3);
    expect(results.map((result) => result.errors ?? result.data.orderStatusChanged.status)).toEqual(["PENDING", "PROCESSING", "TICKETED"]);
    expect(results[2]!.data.orderStatusChanged.documents).toHaveLength(1);
  });

  it("orderEvents on A receives the events of orders booked and ticketed through B, failures included", async () => {
    const events = subscribe(connectToA(tenant.key), ORDER_EVENTS);
    await waitForOpenSubscriptions(a, 1);
    const ticketed = await bookThroughB();
    const rejected = await bookThroughB("Rejected");
    for (const order of [ticketed, rejected]) expect((await ticketOrder(b, tenant.key, order.id)).status).toBe(200);

    await events.waitForResults(4);
    expect(events.results.map(({ data }) => [data.orderEvents.type, data.orderEvents.order.id, data.orderEvents.order.status])).toEqual(
      expect.arrayContaining([
        ["order.created", ticketed.id, expect.any(String)],
        ["order.created", rejected.id, expect.any(String)],
        ["order.ticketed", ticketed.id, "TICKETED"],
        ["order.failed", rejected.id, "FAILED"],
      ]),
    );
    expect(events.results).toHaveLength(4);
  });

  it("a key revoked through B closes its subscriptions on A with 4403", async () => {
    const created = await call(b, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: b.ownerKey, body: { label: "revoked soon" } });
    expect(created.status).toBe(201);
    const events = subscribe(connectToA(created.body.data.apiKey), ORDER_EVENTS);
    await waitForOpenSubscriptions(a, 1);

    expect((await call(b, "DELETE", `/v1/tenants/${tenant.tenantId}/keys/${created.body.data.keyId}`, { key: b.ownerKey })).status).toBe(200);
    await events.waitForEnd();
    expect(events.closeCode).toBe(4403);
  });
});
