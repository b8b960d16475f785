import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { daysAhead } from "../helpers/offers";
import { startTwoServers, type TwoServers } from "../helpers/two-servers";

/** Two processes on one PostgreSQL database: GET /v1/suppliers sums every process's calls; each keeps its own circuit. */

describe("suppliers' health across processes", () => {
  let servers: TwoServers;
  let tenant: TenantFixture;
  beforeAll(async () => {
    servers = await startTwoServers({});
    tenant = await createTenant(servers.a);
  });
  afterAll(() => servers?.close());

  const search = (server: TwoServers["a"], lowCost: "ok" | "error") =>
    call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: { slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(30) }], passengers: [{ type: "adult" }], supplier_behaviour: { simulated_lcc: lowCost } },
    });
  const lowCostHealth = async (server: TwoServers["a"]) => (await call(server, "GET", "/v1/suppliers", { key: server.ownerKey })).body.data.find((entry: any) => entry.id === "simulated_lcc");

  it("counts the calls of both processes in either's answer, and shows the answering process's circuit", async () => {
    for (let i = 0; i < 5; i++) expect((await search(servers.a, "error")).status).toBe(200);
    expect((await search(servers.b, "ok")).status).toBe(200);
    // B's own calls are written before it answers; A's were written by A (its flush), at once when it answered a reading.
    await servers.a.app.services.supplierHealth.flush();
    const fromB = await lowCostHealth(servers.b);
    const fromA = await lowCostHealth(servers.a);
    expect(fromB.calls).toBe(fromA.calls);
    // 5 failed searches of A and B's successful search with its seat-holdings read.
    expect(fromB.calls).toBeGreaterThanOrEqual(6);
    expect(fromB.error_rate).toBeGreaterThan(0.5);
    expect(fromA).toMatchObject({ circuit: "open", status: "unavailable" });
    expect(fromB.circuit).toBe("closed");
  });
});
