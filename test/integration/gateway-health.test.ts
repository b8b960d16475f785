import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { script } from "../../src/connectors/scripted/script";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { daysAhead } from "../helpers/offers";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * The suppliers' health for the owner (docs/gateway.md#supplier-health): GET /v1/suppliers and its
 * GraphQL twin. The scripted test supplier (src/connectors/scripted/) fails for real when its
 * script says so; a sandbox search's forced outcome is no call of the supplier's and is not counted.
 */

describe("suppliers' health", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  let live: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ env: { SUPPLIER_LCC_LATENCY_MS: "40-60", AEROGATE_TEST_CONNECTORS: "scripted" } });
    tenant = await createTenant(server);
    live = await createTenant(server, { environment: "live" });
    expect((await call(server, "PATCH", "/v1/tenant", { key: live.key, body: { suppliers: ["simulated", "scripted"] } })).status).toBe(200);
  });
  afterEach(() => script.reset());
  afterAll(() => server.close());

  const health = async () => {
    const response = await call(server, "GET", "/v1/suppliers", { key: server.ownerKey });
    expect(response.status).toBe(200);
    return Object.fromEntries(response.body.data.map((entry: any) => [entry.id, entry]));
  };
  const search = (key: string, lowCost?: "ok" | "error") =>
    call(server, "POST", "/v1/air/search", {
      key,
      body: { slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(30) }], passengers: [{ type: "adult" }], ...(lowCost && { supplier_behaviour: { simulated_lcc: lowCost } }) },
    });
  const quiet = (id: string, name: string) => ({ id, name, status: "healthy", circuit: "closed", circuits: { sandbox: "closed", live: "closed" }, latency_ms: { p50: null, p99: null }, error_rate: 0, calls: 0 });

  it("lists every supplier (one that needs the tenant's own account too), healthy and closed, with no figures before any call", async () => {
    expect(await health()).toEqual({
      simulated: quiet("simulated", "Simulated airline network"),
      simulated_lcc: quiet("simulated_lcc", "Simulated low-cost carriers"),
      duffel: quiet("duffel", "Duffel"),
      scripted: quiet("scripted", "Scripted test supplier"),
    });
  });

  it("counts calls and their latency; a sandbox search's forced error is no call of the supplier's", async () => {
    for (let i = 0; i < 4; i++) expect((await search(tenant.key, "ok")).status).toBe(200);
    let figures = await health();
    expect(figures.simulated_lcc).toMatchObject({ status: "healthy", circuit: "closed", error_rate: 0 });
    // Every search asks each supplier (the first answer is given again from memory for a minute), and each is also asked which of its offers it can still sell.
    expect(figures.simulated_lcc.calls).toBeGreaterThanOrEqual(4);
    // The first search waits 40–60 ms before it works (the slowest of its calls); the latency buckets' bounds are what is shown.
    expect(figures.simulated_lcc.latency_ms.p99).toBeGreaterThanOrEqual(50);
    expect(figures.simulated_lcc.latency_ms.p99).toBeLessThanOrEqual(1000);
    expect(figures.simulated_lcc.latency_ms.p50).toBeLessThanOrEqual(figures.simulated_lcc.latency_ms.p99);

    const before = figures.simulated_lcc.calls;
    expect((await search(tenant.key, "error")).status).toBe(200);
    figures = await health();
    expect(figures.simulated_lcc).toMatchObject({ calls: before, error_rate: 0 });
  });

  it("counts failures, and shows a live circuit open as unavailable", async () => {
    script.next("search", "fail", 5);
    for (let i = 0; i < 5; i++) expect((await search(live.key)).body.data.supplier_results.find((result: any) => result.supplier === "scripted").status).toBe("error");
    const figures = await health();
    expect(figures.scripted).toMatchObject({ status: "unavailable", circuit: "open", circuits: { sandbox: "closed", live: "open" }, error_rate: 1, calls: 5 });
    expect(figures.simulated).toMatchObject({ status: "healthy", circuit: "closed", error_rate: 0 });
  });

  it("answers the owner only, in GraphQL too", async () => {
    expectError(await call(server, "GET", "/v1/suppliers", { key: tenant.key }), 403, "forbidden");
    const response = await graphql(server, `{ suppliers { id status circuit circuits { sandbox live } latencyMs { p50 p99 } errorRate calls } }`, {}, { key: server.ownerKey });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.suppliers.map((entry: any) => [entry.id, entry.circuit, entry.circuits.live])).toEqual([
      ["simulated", "CLOSED", "CLOSED"],
      ["simulated_lcc", "CLOSED", "CLOSED"],
      ["duffel", "CLOSED", "CLOSED"],
      ["scripted", "OPEN", "OPEN"],
    ]);
    const refused = await graphql(server, `{ suppliers { id } }`, {}, { key: tenant.key });
    expect(refused.body.errors![0]!.extensions.code).toBe("forbidden");
  });
});
