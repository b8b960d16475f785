import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { daysAhead } from "../helpers/offers";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { metricValue } from "../helpers/supplier-metrics";

/** Each supplier's circuit breaker (docs/gateway.md#circuit-breaker): 5 failures open it, a cooldown half-opens it, one call decides. */

const COOLDOWN_SECONDS = 1;

describe("a supplier's circuit breaker", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ env: { SUPPLIER_BREAKER_COOLDOWN_SECONDS: String(COOLDOWN_SECONDS) } });
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  const search = async (lowCost: "error" | "ok" | "timeout") => {
    const response = await call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: { slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(30) }], passengers: [{ type: "adult" }], supplier_timeout: 2, supplier_behaviour: { simulated_lcc: lowCost } },
    });
    expect(response.status).toBe(200);
    return response.body.data.supplier_results.find((result: any) => result.supplier === "simulated_lcc").status as string;
  };
  const circuit = async () => ["closed", "half_open", "open"][await metricValue(server, "aerogate_supplier_circuit_state", 'supplier="simulated_lcc"')];
  const halfOpen = () => eventually(async () => ((await circuit()) === "half_open" ? true : undefined), () => "the circuit never half-opened", 5_000);

  it("skips the supplier after 5 failures in a row, until one trial call after the cooldown closes it or opens it again", async () => {
    for (let i = 0; i < 4; i++) expect(await search("error")).toBe("error");
    // A timeout counts as a failure too.
    expect(await search("timeout")).toBe("timeout");
    expect(await circuit()).toBe("open");
    // Open: not asked, even when it would answer; the network still answers.
    expect(await search("ok")).toBe("unavailable");

    await halfOpen();
    // The trial call fails: open again, skipped again.
    expect(await search("error")).toBe("error");
    expect(await circuit()).toBe("open");
    expect(await search("ok")).toBe("unavailable");

    await halfOpen();
    // The trial call succeeds: closed, asked again from then on.
    expect(await search("ok")).toBe("ok");
    expect(await circuit()).toBe("closed");
    expect(await search("error")).toBe("error");
    expect(await search("ok")).toBe("ok");
  });
});
