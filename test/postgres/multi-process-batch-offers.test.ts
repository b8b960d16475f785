import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { daysAhead } from "../helpers/offers";
import { bookOffer } from "../helpers/orders";
import { startTwoServers, type TwoServers } from "../helpers/two-servers";

/**
 * Two processes on one PostgreSQL database (docs/gateway.md#batch-offer-requests): a batch offer
 * request made through one is read through the other, batch by batch as the first process's search
 * stores them; a read waiting in the other process answers when the batch arrives.
 */

const LCC_LATENCY_MS = 600;

describe("batch offer requests across processes", () => {
  let servers: TwoServers;
  let tenant: TenantFixture;
  beforeAll(async () => {
    servers = await startTwoServers({ SUPPLIER_LCC_LATENCY_MS: String(LCC_LATENCY_MS) });
    tenant = await createTenant(servers.a);
  });
  afterAll(() => servers?.close());

  const body = (days: number, extra: Record<string, unknown> = {}) => ({ slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(days) }], passengers: [{ type: "adult", id: "p1" }], ...extra });
  const read = async (server: TwoServers["a"], id: string) => {
    const started = performance.now();
    const response = await call(server, "GET", `/v1/air/batch_offer_requests/${id}`, { key: tenant.key });
    expect(response.status).toBe(200);
    return { data: response.body.data, tookMs: performance.now() - started };
  };

  it("made through A, read through B a batch at a time, the fast supplier's first; B's read waits for A's search to store the slow batch", async () => {
    const created = await call(servers.a, "POST", "/v1/air/batch_offer_requests", { key: tenant.key, body: body(30, { supplier_timeout: 20 }) });
    expect(created.status).toBe(201);
    const id = created.body.data.id;

    const first = await read(servers.b, id);
    expect(first.data).toMatchObject({ total_batches: 2, remaining_batches: 1 });
    expect(first.data.supplier_results.map((result: any) => result.supplier)).toEqual(["simulated"]);
    // An offer of the first batch is booked through B while A's search still waits for the slow supplier.
    const order = await bookOffer(servers.b, tenant.key, first.data.offers[0]);
    expect(order.supplier.id).toBe("simulated");

    const second = await read(servers.b, id);
    expect(second.data).toMatchObject({ remaining_batches: 0 });
    expect(second.data.supplier_results[1]).toMatchObject({ supplier: "simulated_lcc", status: "ok" });
    expect(second.data.offers.length).toBe(second.data.supplier_results[1].offer_count);
    expect(second.data.offers.length).toBeGreaterThan(0);
    expect(second.tookMs, "answered when the batch arrived, not at the 20 s deadline").toBeLessThan(10_000);

    // Either process now answers an empty read.
    expect((await read(servers.a, id)).data).toMatchObject({ remaining_batches: 0, offers: [] });
  });

  it("gives each batch to one read when both processes read at once", async () => {
    const created = await call(servers.a, "POST", "/v1/air/batch_offer_requests", { key: tenant.key, body: body(31) });
    const id = created.body.data.id;
    const reads = await Promise.all([read(servers.a, id), read(servers.b, id), read(servers.a, id), read(servers.b, id)]);
    const suppliers = reads.flatMap((each) => [...new Set(each.data.offers.map((offer: any) => offer.supplier.id))]);
    expect(suppliers.sort()).toEqual(["simulated", "simulated_lcc"]);
    const offerIds = reads.flatMap((each) => each.data.offers.map((offer: any) => offer.id));
    expect(new Set(offerIds).size).toBe(offerIds.length);
  });
});
