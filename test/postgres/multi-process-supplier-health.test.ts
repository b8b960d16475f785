import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { script } from "../../src/connectors/scripted/script";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { daysAhead } from "../helpers/offers";
import { startTwoServers, type TwoServers } from "../helpers/two-servers";

/**
 * Two processes on one PostgreSQL database: GET /v1/suppliers sums every process's calls; each
 * keeps its own circuits. The scripted test supplier (src/connectors/scripted/, one script for both
 * servers of this suite's process) fails for real, for a live tenant.
 */

describe("suppliers' health across processes", () => {
  let servers: TwoServers;
  let tenant: TenantFixture;
  beforeAll(async () => {
    servers = await startTwoServers({ AEROGATE_TEST_CONNECTORS: "scripted" });
    tenant = await createTenant(servers.a, { environment: "live" });
    expect((await call(servers.a, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: ["simulated", "scripted"] } })).status).toBe(200);
  });
  afterAll(() => servers?.close());

  const search = (server: TwoServers["a"]) =>
    call(server, "POST", "/v1/air/search", { key: tenant.key, body: { slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(30) }], passengers: [{ type: "adult" }] } });
  const scriptedHealth = async (server: TwoServers["a"]) => (await call(server, "GET", "/v1/suppliers", { key: server.ownerKey })).body.data.find((entry: any) => entry.id === "scripted");

  it("counts the calls of both processes in either's answer, and shows the answering process's circuit", async () => {
    script.next("search", "fail", 5);
    for (let i = 0; i < 5; i++) expect((await search(servers.a)).status).toBe(200);
    expect((await search(servers.b)).status).toBe(200);
    // B's own calls are written before it answers; A's were written by A (its flush), at once when it answered a reading.
    await servers.a.app.services.supplierHealth.flush();
    const fromB = await scriptedHealth(servers.b);
    const fromA = await scriptedHealth(servers.a);
    expect(fromB.calls).toBe(fromA.calls);
    // 5 failed searches of A and B's successful one.
    expect(fromB.calls).toBe(6);
    expect(fromB.error_rate).toBeGreaterThan(0.5);
    expect(fromA).toMatchObject({ circuit: "open", circuits: { live: "open", sandbox: "closed" }, status: "unavailable" });
    expect(fromB.circuit).toBe("closed");
  });
});
