import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { script } from "../../src/connectors/scripted/script";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { daysAhead } from "../helpers/offers";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { metricValue } from "../helpers/supplier-metrics";

/**
 * Each supplier's circuit breakers (docs/gateway.md#circuit-breaker), one per environment: five
 * real failures open a circuit, a cooldown half-opens it, one call decides. Sandbox traffic moves
 * only the sandbox circuit, a sandbox search's forced outcome (`supplier_behaviour`) never counts,
 * and GET /v1/suppliers (and its GraphQL twin) shows each environment's circuit. The scripted test
 * supplier (src/connectors/scripted/, steered by its script) fails for real.
 */

const COOLDOWN_SECONDS = 1;
const THRESHOLD = 5;

describe("suppliers' circuit breakers, per supplier and environment", () => {
  let server: TestServer;
  let sandbox: TenantFixture;
  let live: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ env: { SUPPLIER_BREAKER_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS), AEROGATE_TEST_CONNECTORS: "scripted" } });
    sandbox = await createTenant(server, { environment: "sandbox" });
    live = await createTenant(server, { environment: "live" });
  });
  afterEach(() => script.reset());
  afterAll(() => server.close());

  let day = 30;
  /** A search of `tenant` over `suppliers` (each forced as `forced` says, sandbox only): each supplier's `supplier_results` status. */
  const search = async (tenant: TenantFixture, suppliers: string[], forced?: Record<string, string>) => {
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers } })).status).toBe(200);
    const response = await call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: { slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(day++) }], passengers: [{ type: "adult" }], supplier_timeout: 2, ...(forced && { supplier_behaviour: forced }) },
    });
    return { status: response.status, suppliers: Object.fromEntries((response.body.data?.supplier_results ?? []).map((result: any) => [result.supplier, result.status])) as Record<string, string> };
  };
  /** The scripted supplier's status in a search beside the network (which answers, so the search is a 200 whatever the scripted one does). */
  const scripted = async (tenant: TenantFixture, forced?: string) => (await search(tenant, ["scripted", "simulated"], forced ? { scripted: forced } : undefined)).suppliers.scripted;
  const circuit = async (supplier: string, environment: string) =>
    ["closed", "half_open", "open"][await metricValue(server, "aerogate_supplier_circuit_state", `supplier="${supplier}"`, `environment="${environment}"`)];
  const health = async () => Object.fromEntries((await call(server, "GET", "/v1/suppliers", { key: server.ownerKey })).body.data.map((entry: any) => [entry.id, entry]));

  it("five sandbox searches forcing `error` leave every circuit closed: a live tenant's search, and the sandbox's next, ask the suppliers", async () => {
    const both = ["simulated", "simulated_lcc"];
    // Every supplier failed: 502 supplier_error.
    for (let i = 0; i < THRESHOLD; i++) expect((await search(sandbox, both, { simulated: "error", simulated_lcc: "error" })).status).toBe(502);
    expect(await search(live, both)).toEqual({ status: 200, suppliers: { simulated: "ok", simulated_lcc: "ok" } });
    expect(await search(sandbox, both)).toEqual({ status: 200, suppliers: { simulated: "ok", simulated_lcc: "ok" } });
    for (const environment of ["sandbox", "live"]) expect(await circuit("simulated_lcc", environment)).toBe("closed");
  });

  it("a sandbox forced outcome never counts, whatever it is: forced timeouts and errors among real failures leave the streak short", async () => {
    script.next("search", "fail", THRESHOLD - 1);
    for (let i = 0; i < THRESHOLD - 1; i++) expect(await scripted(sandbox)).toBe("error");
    for (const outcome of ["error", "timeout", "ok"]) expect(await scripted(sandbox, outcome)).toBe(outcome);
    expect(await circuit("scripted", "sandbox")).toBe("closed");
    // The streak was four real failures: a real success starts it again.
    expect(await scripted(sandbox)).toBe("ok");
  });

  it("sandbox failures open the sandbox circuit only: GET /v1/suppliers and GraphQL show each environment's, and live tenants still ask the supplier", async () => {
    script.next("search", "fail", THRESHOLD);
    for (let i = 0; i < THRESHOLD; i++) expect(await scripted(sandbox)).toBe("error");
    expect(await scripted(sandbox)).toBe("unavailable");
    expect(await scripted(live)).toBe("ok");
    const shown = (await health()).scripted;
    expect(shown).toMatchObject({ circuit: "closed", circuits: { sandbox: "open", live: "closed" } });
    // The sandbox's failures count in the error rate, but its circuit does not make the supplier unavailable.
    expect(shown.status).toBe("degraded");
    const figures = await graphql(server, `{ suppliers { id circuit circuits { sandbox live } } }`, {}, { key: server.ownerKey });
    expect(figures.body.data.suppliers.find((entry: any) => entry.id === "scripted")).toEqual({ id: "scripted", circuit: "CLOSED", circuits: { sandbox: "OPEN", live: "CLOSED" } });
    expect(await circuit("scripted", "live")).toBe("closed");
  });

  it("a live circuit opens after five live failures in a row and half-opens after the cooldown: one trial call closes it or opens it again", async () => {
    const halfOpen = () => eventually(async () => ((await circuit("scripted", "live")) === "half_open" ? true : undefined), () => "the circuit never half-opened", 5_000);
    script.next("search", "fail", THRESHOLD - 1);
    for (let i = 0; i < THRESHOLD - 1; i++) expect(await scripted(live)).toBe("error");
    // A timeout counts as a failure too.
    script.next("search", "hang");
    expect(await scripted(live)).toBe("timeout");
    expect(await circuit("scripted", "live")).toBe("open");
    expect((await health()).scripted).toMatchObject({ status: "unavailable", circuit: "open" });
    // Open: not asked, even when it would answer.
    expect(await scripted(live)).toBe("unavailable");

    await halfOpen();
    // The trial call fails: open again, skipped again.
    script.next("search", "fail");
    expect(await scripted(live)).toBe("error");
    expect(await circuit("scripted", "live")).toBe("open");
    expect(await scripted(live)).toBe("unavailable");

    await halfOpen();
    // The trial call succeeds: closed, asked again from then on.
    expect(await scripted(live)).toBe("ok");
    expect(await circuit("scripted", "live")).toBe("closed");
  });
});
