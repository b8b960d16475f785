import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { daysAhead } from "../helpers/offers";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** The suppliers' health for the owner (docs/gateway.md#supplier-health): GET /v1/suppliers and its GraphQL twin. */

describe("suppliers' health", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ env: { SUPPLIER_LCC_LATENCY_MS: "40-60" } });
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  const health = async () => {
    const response = await call(server, "GET", "/v1/suppliers", { key: server.ownerKey });
    expect(response.status).toBe(200);
    return Object.fromEntries(response.body.data.map((entry: any) => [entry.id, entry]));
  };
  const search = (lowCost: "ok" | "error") =>
    call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: { slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(30) }], passengers: [{ type: "adult" }], supplier_behaviour: { simulated_lcc: lowCost } },
    });

  it("lists every supplier (Duffel too, searched only for tenants connected to it), healthy and closed, with no figures before any call", async () => {
    expect(await health()).toEqual({
      simulated: { id: "simulated", name: "Simulated airline network", status: "healthy", circuit: "closed", latency_ms: { p50: null, p99: null }, error_rate: 0, calls: 0 },
      simulated_lcc: { id: "simulated_lcc", name: "Simulated low-cost carriers", status: "healthy", circuit: "closed", latency_ms: { p50: null, p99: null }, error_rate: 0, calls: 0 },
      duffel: { id: "duffel", name: "Duffel", status: "healthy", circuit: "closed", latency_ms: { p50: null, p99: null }, error_rate: 0, calls: 0 },
    });
  });

  it("counts calls, their latency and failures, and shows an open circuit as unavailable", async () => {
    for (let i = 0; i < 4; i++) expect((await search("ok")).status).toBe(200);
    let figures = await health();
    expect(figures.simulated_lcc).toMatchObject({ status: "healthy", circuit: "closed", error_rate: 0 });
    // Every search asks each supplier, and the network is also asked which seats its flights hold.
    expect(figures.simulated_lcc.calls).toBeGreaterThanOrEqual(4);
    // Its searches wait 40–60 ms before they work (the slowest of its calls); the latency buckets' bounds are what is shown.
    expect(figures.simulated_lcc.latency_ms.p99).toBeGreaterThanOrEqual(50);
    expect(figures.simulated_lcc.latency_ms.p99).toBeLessThanOrEqual(1000);
    expect(figures.simulated_lcc.latency_ms.p50).toBeLessThanOrEqual(figures.simulated_lcc.latency_ms.p99);

    expect((await search("error")).status).toBe(200);
    figures = await health();
    expect(figures.simulated_lcc.error_rate).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) await search("error");
    figures = await health();
    expect(figures.simulated_lcc).toMatchObject({ status: "unavailable", circuit: "open" });
    expect(figures.simulated).toMatchObject({ status: "healthy", circuit: "closed", error_rate: 0 });
  });

  it("answers the owner only, in GraphQL too", async () => {
    expectError(await call(server, "GET", "/v1/suppliers", { key: tenant.key }), 403, "forbidden");
    const response = await graphql(server, `{ suppliers { id status circuit latencyMs { p50 p99 } errorRate calls } }`, {}, { key: server.ownerKey });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.suppliers.map((entry: any) => [entry.id, entry.circuit])).toEqual([
      ["simulated", "CLOSED"],
      ["simulated_lcc", "OPEN"],
      ["duffel", "CLOSED"],
    ]);
    const refused = await graphql(server, `{ suppliers { id } }`, {}, { key: tenant.key });
    expect(refused.body.errors![0]!.extensions.code).toBe("forbidden");
  });
});
