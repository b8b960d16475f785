import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, startServerWithTenant, type TenantFixture } from "../helpers/client";
import { metricValue } from "../helpers/supplier-metrics";
import { expectError } from "../helpers/expect-error";
import { daysAhead } from "../helpers/offers";
import type { TestServer } from "../helpers/test-server";

/** A search over both simulated suppliers (docs/gateway.md): fan-out, supplier_results, merged offers, forced outcomes. */

/** London–Barcelona: both the network and the low-cost carriers fly it. */
const overlap = (days: number, extra: Record<string, unknown> = {}) => ({
  slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(days) }],
  passengers: [{ type: "adult" }],
  ...extra,
});

const totalMinor = (offer: any) => Math.round(Number(offer.total_amount) * 100);
const durationMinutes = (offer: any) =>
  offer.slices.reduce((sum: number, slice: any) => {
    const [, h, m] = /PT(?:(\d+)H)?(?:(\d+)M)?/.exec(slice.duration)!;
    return sum + Number(h ?? 0) * 60 + Number(m ?? 0);
  }, 0);

describe("search across suppliers", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => ({ server, tenant } = await startServerWithTenant()));
  afterAll(() => server.close());

  it("asks both simulated suppliers and merges their offers, each naming its supplier and comparison key, ordered by total then duration", async () => {
    const response = await call(server, "POST", "/v1/air/search", { key: tenant.key, body: overlap(30) });
    expect(response.status).toBe(200);
    const { supplier_results: results, offers } = response.body.data;
    expect(results.map((result: any) => [result.supplier, result.status])).toEqual([
      ["simulated", "ok"],
      ["simulated_lcc", "ok"],
    ]);
    for (const result of results) {
      expect(result.offer_count).toBeGreaterThan(0);
      expect(result.duration_ms).toBeGreaterThanOrEqual(0);
    }
    const suppliers = new Set(offers.map((offer: any) => offer.supplier.id));
    expect(suppliers).toEqual(new Set(["simulated", "simulated_lcc"]));
    expect(offers.length).toBe(results.reduce((sum: number, result: any) => sum + result.offer_count, 0));
    for (let i = 1; i < offers.length; i++) {
      const [a, b] = [offers[i - 1], offers[i]];
      expect(totalMinor(a) < totalMinor(b) || (totalMinor(a) === totalMinor(b) && durationMinutes(a) <= durationMinutes(b)), `${a.id} before ${b.id}`).toBe(true);
    }
    for (const offer of offers) {
      const flights = offer.slices.flatMap((slice: any) => slice.segments.map((segment: any) => `${segment.marketing_carrier.iata_code}${segment.marketing_carrier_flight_number}@${segment.departing_at.slice(0, 10)}`));
      for (const flight of flights) expect(offer.comparison_key).toContain(flight);
    }
  });

  it("sells low-cost fares with no checked bag, neither refundable nor changeable, from carriers of its own", async () => {
    const response = await call(server, "POST", "/v1/air/search", { key: tenant.key, body: overlap(31) });
    const lowCost = response.body.data.offers.filter((offer: any) => offer.supplier.id === "simulated_lcc");
    expect(lowCost.length).toBeGreaterThan(0);
    const network = response.body.data.offers.filter((offer: any) => offer.supplier.id === "simulated");
    const networkCarriers = new Set(network.map((offer: any) => offer.owner.iata_code));
    for (const offer of lowCost) {
      expect(offer.supplier).toEqual({ id: "simulated_lcc", name: "Simulated low-cost carriers" });
      expect(networkCarriers.has(offer.owner.iata_code)).toBe(false);
      expect(offer.conditions.refund_before_departure.allowed).toBe(false);
      expect(offer.conditions.change_before_departure.allowed).toBe(false);
      const checked = offer.slices.flatMap((slice: any) => slice.segments.flatMap((segment: any) => segment.passengers.flatMap((p: any) => p.baggages.filter((bag: any) => bag.type === "checked"))));
      expect(checked.every((bag: any) => bag.quantity === 0)).toBe(true);
    }
    // A stored offer reads the same: its supplier and key come back on GET.
    const read = await call(server, "GET", `/v1/air/offers/${lowCost[0].id}`, { key: tenant.key });
    expect(read.body.data.supplier).toEqual(lowCost[0].supplier);
    expect(read.body.data.comparison_key).toBe(lowCost[0].comparison_key);
  });

  it("answers at the deadline with what arrived when a supplier hangs, and leaves no call behind", async () => {
    const timeouts = () => metricValue(server, "aerogate_supplier_calls_total", 'supplier="simulated_lcc"', 'call="search"', 'outcome="timeout"');
    const timeoutsBefore = await timeouts();
    const started = Date.now();
    const response = await call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: overlap(32, { supplier_timeout: 2, supplier_behaviour: { simulated_lcc: "timeout" } }),
    });
    const elapsed = Date.now() - started;
    expect(response.status).toBe(200);
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    expect(elapsed).toBeLessThan(2100);
    const results = response.body.data.supplier_results;
    expect(results.find((r: any) => r.supplier === "simulated_lcc")).toMatchObject({ status: "timeout", offer_count: 0 });
    expect(results.find((r: any) => r.supplier === "simulated")).toMatchObject({ status: "ok" });
    expect(response.body.data.offers.every((offer: any) => offer.supplier.id === "simulated")).toBe(true);
    // Right after the answer: no call to either supplier is still out. The forced timeout was the
    // sandbox's, no call of the supplier's: no figure counts it.
    expect(await metricValue(server, "aerogate_supplier_calls_in_flight", 'supplier="simulated_lcc"')).toBe(0);
    expect(await timeouts()).toBe(timeoutsBefore);
  });

  it("answers 200 with the others' offers when one supplier fails, 502 when all fail, 504 when none answered and one timed out", async () => {
    const oneFails = await call(server, "POST", "/v1/air/search", { key: tenant.key, body: overlap(33, { supplier_behaviour: { simulated_lcc: "error" } }) });
    expect(oneFails.status).toBe(200);
    expect(oneFails.body.data.supplier_results.map((r: any) => r.status)).toEqual(["ok", "error"]);

    const allFail = await call(server, "POST", "/v1/air/search", { key: tenant.key, body: overlap(33, { supplier_behaviour: { simulated: "error", simulated_lcc: "error" } }) });
    expectError(allFail, 502, "supplier_error");

    const started = Date.now();
    const noneInTime = await call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: overlap(33, { supplier_timeout: 2, supplier_behaviour: { simulated: "error", simulated_lcc: "timeout" } }),
    });
    expectError(noneInTime, 504, "supplier_timeout");
    // At the 2 s deadline, not at the default 20 s (the 100 ms bound is the hanging-supplier test's).
    expect(Date.now() - started).toBeGreaterThanOrEqual(2000);
    expect(Date.now() - started).toBeLessThan(5000);
  });

  it("answers 200 with zero offers when every supplier answered with none", async () => {
    // Reykjavík–Anchorage: neither supplier flies it.
    const response = await call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: { slices: [{ origin: "KEF", destination: "ANC", departure_date: daysAhead(40) }], passengers: [{ type: "adult" }], max_connections: 0 },
    });
    expect(response.status).toBe(200);
    expect(response.body.data.offers).toEqual([]);
    expect(response.body.data.supplier_results.map((r: any) => [r.status, r.offer_count])).toEqual([
      ["ok", 0],
      ["ok", 0],
    ]);
  });

  it("puts supplier_results in Variant B's meta, or on the offer request without offers", async () => {
    const data = { slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(34) }], passengers: [{ type: "adult" }], cabin_class: "economy" };
    const withOffers = await call(server, "POST", "/v1/air/search", { key: tenant.key, body: { data, supplier_timeout: 5 } });
    expect(withOffers.status).toBe(200);
    expect(withOffers.body.meta.supplier_results.map((r: any) => r.supplier)).toEqual(["simulated", "simulated_lcc"]);
    expect(withOffers.body.data[0].supplier.id).toMatch(/^simulated/);
    expect(typeof withOffers.body.data[0].comparison_key).toBe("string");

    const request = await call(server, "POST", "/v1/air/search", { key: tenant.key, body: { data, return_offers: false, supplier_behaviour: { simulated_lcc: "error" } } });
    expect(request.status).toBe(200);
    expect(request.body.data.object).toBe("offer_request");
    expect(request.body.data.supplier_results.map((r: any) => r.status)).toEqual(["ok", "error"]);
  });

  it("gives the GraphQL search the same supplier results and each offer its supplier", async () => {
    const response = await graphql(
      server,
      `mutation ($input: SearchFlightsInput!) { searchFlights(input: $input) { supplierResults { supplier status offerCount durationMs } offers { supplier { id name } comparisonKey } } }`,
      { input: { slices: [{ origin: "LON", destination: "BCN", departureDate: daysAhead(35) }], passengers: [{ type: "ADULT" }], supplierTimeout: 3, supplierBehaviour: { simulated_lcc: "error" } } },
      { key: tenant.key },
    );
    expect(response.body.errors).toBeUndefined();
    const result = response.body.data.searchFlights;
    expect(result.supplierResults.map((r: any) => [r.supplier, r.status])).toEqual([
      ["simulated", "OK"],
      ["simulated_lcc", "ERROR"],
    ]);
    expect(result.offers.every((offer: any) => offer.supplier.id === "simulated" && offer.comparisonKey.length > 0)).toBe(true);
  });

  it("refuses supplier_behaviour from a live tenant, and one naming no supplier, as 400 naming the field", async () => {
    const live = await createTenant(server, { environment: "live" });
    const refused = await call(server, "POST", "/v1/air/search", { key: live.key, body: overlap(36, { supplier_behaviour: { simulated_lcc: "timeout" } }) });
    expectError(refused, 400, "invalid_search_params", "supplier_behaviour");

    const unknown = await call(server, "POST", "/v1/air/search", { key: tenant.key, body: overlap(36, { supplier_behaviour: { amadeus: "ok" } }) });
    expectError(unknown, 400, "invalid_search_params", "supplier_behaviour.amadeus");

    const badOutcome = await call(server, "POST", "/v1/air/search", { key: tenant.key, body: overlap(36, { supplier_behaviour: { simulated_lcc: "slow" } }) });
    expectError(badOutcome, 400, "invalid_search_params", "supplier_behaviour.simulated_lcc");
  });
});

describe("a tenant's suppliers", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => ({ server, tenant } = await startServerWithTenant()));
  afterAll(() => server.close());

  it("defaults to both simulated suppliers, and searches only those the tenant chose, in its order", async () => {
    const initial = await call(server, "GET", "/v1/tenant", { key: tenant.key });
    expect(initial.body.data.suppliers).toEqual(["simulated", "simulated_lcc"]);

    const patched = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: ["simulated_lcc"] } });
    expect(patched.status).toBe(200);
    expect(patched.body.data.suppliers).toEqual(["simulated_lcc"]);
    const search = await call(server, "POST", "/v1/air/search", { key: tenant.key, body: overlap(30) });
    expect(search.body.data.supplier_results.map((r: any) => r.supplier)).toEqual(["simulated_lcc"]);
    expect(search.body.data.offers.every((offer: any) => offer.supplier.id === "simulated_lcc")).toBe(true);

    await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: ["simulated_lcc", "simulated"] } });
    const reordered = await call(server, "POST", "/v1/air/search", { key: tenant.key, body: overlap(30) });
    expect(reordered.body.data.supplier_results.map((r: any) => r.supplier)).toEqual(["simulated_lcc", "simulated"]);
  });

  it("refuses an unknown supplier, a repeated one or none at all as 422 invalid_field_value, changing nothing", async () => {
    await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: ["simulated"] } });
    const unknown = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: ["simulated", "sabre"] } });
    expectError(unknown, 422, "invalid_field_value", "suppliers[1]");
    expect(unknown.body.errors[0].message).toContain("sabre");
    expectError(await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: ["simulated", "simulated"] } }), 422, "invalid_field_value", "suppliers");
    expectError(await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: [] } }), 422, "invalid_field_value", "suppliers");
    const after = await call(server, "GET", "/v1/tenant", { key: tenant.key });
    expect(after.body.data.suppliers).toEqual(["simulated"]);
  });

  it("reads and changes the suppliers in GraphQL too", async () => {
    const response = await graphql(server, `mutation { updateTenantConfig(input: { suppliers: ["simulated", "simulated_lcc"] }) { suppliers } }`, {}, { key: tenant.key });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.updateTenantConfig.suppliers).toEqual(["simulated", "simulated_lcc"]);
  });
});
