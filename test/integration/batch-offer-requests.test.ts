import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock, setClock } from "../../src/clock";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { daysAhead } from "../helpers/offers";
import { bookOffer } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Batch offer requests (docs/gateway.md#batch-offer-requests): a search started at once and read a
 * supplier's batch at a time by long-polled reads, the fast supplier's first. `simulated_lcc` is
 * held to 400 ms, so the network's batch always comes first.
 */

const LCC_LATENCY_MS = 400;

/** London–Barcelona: both the network and the low-cost carriers fly it. */
const searchBody = (days: number, extra: Record<string, unknown> = {}) => ({
  slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(days) }],
  passengers: [{ type: "adult", id: "p1" }],
  ...extra,
});

describe("batch offer requests", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ env: { SUPPLIER_LCC_LATENCY_MS: String(LCC_LATENCY_MS) } });
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  const create = (body: unknown, key = tenant.key) => call(server, "POST", "/v1/air/batch_offer_requests", { key, body });
  /** A read, and how long it took. */
  const read = async (id: string, key = tenant.key) => {
    const started = performance.now();
    const response = await call(server, "GET", `/v1/air/batch_offer_requests/${id}`, { key });
    return { response, data: response.body.data, tookMs: performance.now() - started };
  };
  const pending = async (id: string) => (await server.db.prisma.offerBatch.findMany({ where: { batchOfferRequestId: id, status: null } })).map((batch) => batch.supplier);

  it("answers 201 at once, then a batch per read with the fast supplier's first, remaining_batches counting down, then empty reads", async () => {
    const created = await create(searchBody(30));
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ total_batches: 2, remaining_batches: 2 });
    expect(created.body.data.id).toMatch(/^boq_/);
    // Answered while the low-cost supplier is still out.
    expect(await pending(created.body.data.id)).toContain("simulated_lcc");

    const first = await read(created.body.data.id);
    expect(first.response.status).toBe(200);
    expect(first.data).toMatchObject({ id: created.body.data.id, total_batches: 2, remaining_batches: 1, created_at: created.body.data.created_at });
    expect(first.data.supplier_results.map((result: any) => [result.supplier, result.status])).toEqual([["simulated", "ok"]]);
    expect(first.data.offers.length).toBe(first.data.supplier_results[0].offer_count);
    expect(first.data.offers.length).toBeGreaterThan(0);
    expect(first.data.offers.every((offer: any) => offer.supplier.id === "simulated")).toBe(true);

    const second = await read(created.body.data.id);
    expect(second.data.remaining_batches).toBe(0);
    expect(second.data.supplier_results.map((result: any) => [result.supplier, result.status])).toEqual([
      ["simulated", "ok"],
      ["simulated_lcc", "ok"],
    ]);
    expect(second.data.supplier_results[1].duration_ms).toBeGreaterThanOrEqual(LCC_LATENCY_MS);
    expect(second.data.offers.length).toBe(second.data.supplier_results[1].offer_count);
    expect(second.data.offers.length).toBeGreaterThan(0);
    expect(second.data.offers.every((offer: any) => offer.supplier.id === "simulated_lcc")).toBe(true);

    const after = await read(created.body.data.id);
    expect(after.data).toMatchObject({ remaining_batches: 0, offers: [] });
    expect(after.data.supplier_results).toHaveLength(2);
  });

  it("answers a waiting read when the batch arrives, not at the deadline", async () => {
    const created = await create(searchBody(31, { supplier_timeout: 20 }));
    await read(created.body.data.id);
    const started = Date.now();
    const slow = await read(created.body.data.id);
    expect(slow.data.supplier_results[1]).toMatchObject({ supplier: "simulated_lcc", status: "ok" });
    // The read waited for the low-cost batch (it was still out when the read began), and no longer than its arrival.
    expect(slow.data.supplier_results[1].duration_ms).toBeGreaterThanOrEqual(LCC_LATENCY_MS);
    expect(Date.now() - started, "answered long before the 20 s deadline").toBeLessThan(10_000);
  });

  it("ends a supplier forced to time out as a `timeout` batch at the deadline, written by the search itself", async () => {
    const created = await create(searchBody(32, { supplier_timeout: 2, supplier_behaviour: { simulated_lcc: "timeout" } }));
    const first = await read(created.body.data.id);
    expect(first.data.supplier_results.map((result: any) => result.supplier)).toEqual(["simulated"]);
    const last = await read(created.body.data.id);
    expect(last.data).toMatchObject({ remaining_batches: 0, offers: [] });
    const timedOut = last.data.supplier_results[1];
    expect(timedOut).toMatchObject({ supplier: "simulated_lcc", status: "timeout", offer_count: 0 });
    // At the deadline, by the search's own fan-out (a read gives a batch up only a second past it).
    expect(timedOut.duration_ms).toBeGreaterThanOrEqual(2000);
    expect(timedOut.duration_ms).toBeLessThan(3000);
  });

  it("stores each batch's offers as they arrive: one is booked before the slower supplier has answered", async () => {
    const created = await create(searchBody(33));
    const first = await read(created.body.data.id);
    const offer = first.data.offers[0];
    const order = await bookOffer(server, tenant.key, offer);
    expect(order.supplier.id).toBe("simulated");
    expect(order.offer_id).toBe(offer.id);
    const rest = await read(created.body.data.id);
    expect(rest.data.remaining_batches).toBe(0);
  });

  it("reads Variant B's body too, and searches only the tenant's suppliers", async () => {
    const solo = await createTenant(server);
    await call(server, "PATCH", "/v1/tenant", { key: solo.key, body: { suppliers: ["simulated_lcc"] } });
    const created = await create({ data: { ...searchBody(34), cabin_class: "economy" }, supplier_timeout: 5 }, solo.key);
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ total_batches: 1, remaining_batches: 1 });
    const only = await read(created.body.data.id, solo.key);
    expect(only.data).toMatchObject({ remaining_batches: 0 });
    expect(only.data.supplier_results.map((result: any) => result.supplier)).toEqual(["simulated_lcc"]);
  });

  it("answers 404 not_found for another tenant's id, as for an unknown one", async () => {
    const created = await create(searchBody(35));
    const other = await createTenant(server);
    const foreign = await read(created.body.data.id, other.key);
    expectError(foreign.response, 404, "not_found");
    const unknown = await read("boq_01jzzzzzzzzzzzzzzzzzzzzzzz");
    expectError(unknown.response, 404, "not_found");
    expect(foreign.response.body.errors).toEqual(unknown.response.body.errors);
    // The owner's batch is still whole: the other tenant's read took nothing.
    const own = await read(created.body.data.id);
    expect(own.data.supplier_results[0].supplier).toBe("simulated");
  });

  it("refuses bad input with 400 invalid_search_params naming the field, and stores nothing", async () => {
    const before = await server.db.prisma.batchOfferRequest.count({ where: { tenantId: tenant.tenantId } });
    const cases: Array<[unknown, string]> = [
      [searchBody(36, { slices: [{ origin: "LONDON", destination: "BCN", departure_date: daysAhead(36) }] }), "slices[0].origin"],
      [searchBody(36, { passengers: [] }), "passengers"],
      [searchBody(36, { supplier_timeout: 1 }), "supplier_timeout"],
      [searchBody(36, { supplier_behaviour: { nobody: "timeout" } }), "supplier_behaviour.nobody"],
      [{ data: searchBody(36) }, "data.cabin_class"],
    ];
    for (const [body, field] of cases) expectError(await create(body), 400, "invalid_search_params", field);
    expect(await server.db.prisma.batchOfferRequest.count({ where: { tenantId: tenant.tenantId } })).toBe(before);
  });

  it("gives up the batches a process that died left pending, as timeout, a second past the deadline", async () => {
    // As a process that stored the request and died before its suppliers answered leaves it.
    const createdAt = new Date(clock.nowMs() - 3000);
    const id = "boq_01jdeadprocess0000000000000";
    const expiresAt = new Date(clock.nowMs() + 600_000);
    await server.db.prisma.batchOfferRequest.create({ data: { id, tenantId: tenant.tenantId, totalBatches: 2, deadlineAt: new Date(createdAt.getTime() + 2000), expiresAt, createdAt } });
    await server.db.prisma.offerBatch.createMany({
      data: ["simulated", "simulated_lcc"].map((supplier, position) => ({ batchOfferRequestId: id, supplier, tenantId: tenant.tenantId, position, expiresAt })),
    });
    const given = await read(id);
    expect(given.data).toMatchObject({ remaining_batches: 0, offers: [] });
    expect(given.data.supplier_results.map((result: any) => [result.supplier, result.status])).toEqual([
      ["simulated", "timeout"],
      ["simulated_lcc", "timeout"],
    ]);
    expect(given.data.supplier_results[0].duration_ms).toBeGreaterThanOrEqual(3000);
  });

  it("dates a sandbox tenant's request on its clock moved ahead, and still reads it batch by batch within the search's real deadline", async () => {
    const ahead = await createTenant(server);
    const DAY_S = 86_400;
    expect((await call(server, "POST", "/v1/sandbox/clock/advance", { key: ahead.key, body: { seconds: 2 * DAY_S } })).status).toBe(200);
    const created = await create(searchBody(38, { supplier_timeout: 5 }), ahead.key);
    expect(created.status).toBe(201);
    expect(Date.parse(created.body.data.created_at) - Date.now()).toBeGreaterThan(2 * DAY_S * 1000 - 60_000);
    const first = await read(created.body.data.id, ahead.key);
    expect(first.data.supplier_results.map((result: any) => [result.supplier, result.status])).toEqual([["simulated", "ok"]]);
    const second = await read(created.body.data.id, ahead.key);
    expect(second.data.supplier_results[1]).toMatchObject({ supplier: "simulated_lcc", status: "ok" });
    expect(second.data.offers.length).toBeGreaterThan(0);
  });

  it("refuses supplier_behaviour from a live tenant, naming the field", async () => {
    const live = await createTenant(server, { environment: "live" });
    expectError(await create(searchBody(37, { supplier_behaviour: { simulated_lcc: "timeout" } }), live.key), 400, "invalid_search_params", "supplier_behaviour");
  });
});

describe("batch offer requests past keeping", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ env: { OFFER_TTL_SECONDS: "60", OFFER_RETENTION_SECONDS: "60", RETENTION_SWEEP_SECONDS: "0.2" } });
    tenant = await createTenant(server);
  });
  afterAll(async () => {
    setClock(new Date());
    await server.close();
  });

  it("reads 404 once its offers are no longer kept, and the sweep removes it with its batches", async () => {
    const created = await call(server, "POST", "/v1/air/batch_offer_requests", { key: tenant.key, body: searchBody(40) });
    const id = created.body.data.id;
    await eventually(async () => ((await server.db.prisma.offerBatch.count({ where: { batchOfferRequestId: id, status: null } })) === 0 ? true : undefined), () => "both batches arrived");
    setClock(new Date(clock.nowMs() + 121_000));
    expectError(await call(server, "GET", `/v1/air/batch_offer_requests/${id}`, { key: tenant.key }), 404, "not_found");
    await eventually(
      async () => ((await server.db.prisma.batchOfferRequest.count({ where: { id } })) + (await server.db.prisma.offerBatch.count({ where: { batchOfferRequestId: id } })) === 0 ? true : undefined),
      () => "the request and its batches removed by the sweep",
    );
  });
});
