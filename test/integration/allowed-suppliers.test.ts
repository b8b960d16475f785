import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { daysAhead } from "../helpers/offers";
import { createOrderA } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Which suppliers the owner allows a tenant (docs/running-the-platform.md#allowed-suppliers): a
 * disallowed supplier is neither searched (search, fare calendar) nor bookable (an offer it made
 * before), and naming it is 422 supplier_not_allowed; the tenant's own `suppliers` choose among
 * the allowed ones.
 */

describe("allowed suppliers", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const allow = (tenantId: string, allowed: string[] | null) => call(server, "PATCH", `/v1/tenants/${tenantId}`, { key: server.ownerKey, body: { allowed_suppliers: allowed } });
  /** London–Barcelona: both simulated suppliers fly it. */
  const search = (key: string, days: number) =>
    call(server, "POST", "/v1/air/search", { key, body: { slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(days) }], passengers: [{ type: "adult", id: "p1" }] } });
  const suppliersOf = (offers: any[]) => [...new Set(offers.map((offer) => offer.supplier.id))].sort();

  it("searches only the allowed suppliers, and books none of a disallowed one's offers", async () => {
    const tenant = await createTenant(server);
    const before = (await search(tenant.key, 30)).body.data;
    expect(suppliersOf(before.offers)).toEqual(["simulated", "simulated_lcc"]);
    const lccOffer = before.offers.find((offer: any) => offer.supplier.id === "simulated_lcc");

    const patched = await allow(tenant.tenantId, ["simulated"]);
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.allowed_suppliers).toEqual(["simulated"]);
    const after = (await search(tenant.key, 30)).body.data;
    expect(suppliersOf(after.offers)).toEqual(["simulated"]);
    expect(after.supplier_results.map((result: any) => result.supplier)).toEqual(["simulated"]);

    const refused = await createOrderA(server, tenant.key, lccOffer, { passengers: [{ id: "p1", type: "adult", title: "ms", given_name: "Ada", family_name: "Lovelace", born_on: "1990-01-01", gender: "f", email: "ada@example.test", phone_number: "+442071234567" }] });
    expectError(refused, 422, "supplier_not_allowed", "selected_offers[0]");

    const calendar = await call(server, "GET", `/v1/air/fare_calendar?origin=LON&destination=BCN&from=${daysAhead(40)}&to=${daysAhead(44)}`, { key: tenant.key });
    expect(calendar.body.data.length).toBeGreaterThan(0);
    expect(new Set(calendar.body.data.map((day: any) => day.supplier))).toEqual(new Set(["simulated"]));

    // null: every supplier again.
    expect((await allow(tenant.tenantId, null)).body.data.allowed_suppliers).toBeNull();
    expect(suppliersOf((await search(tenant.key, 31)).body.data.offers)).toEqual(["simulated", "simulated_lcc"]);
  });

  it("lets the tenant choose among the allowed suppliers only: naming another is 422 supplier_not_allowed", async () => {
    const tenant = await createTenant(server);
    await allow(tenant.tenantId, ["simulated_lcc"]);
    expectError(await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: ["simulated_lcc", "simulated"] } }), 422, "supplier_not_allowed", "suppliers[1]");
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: ["simulated_lcc"] } })).status).toBe(200);
    expect(suppliersOf((await search(tenant.key, 32)).body.data.offers)).toEqual(["simulated_lcc"]);
  });

  it("refuses a supplier the gateway does not have with 422 invalid_field_value, changing nothing; tenant keys get 403", async () => {
    const tenant = await createTenant(server);
    expectError(await allow(tenant.tenantId, ["simulated", "amadeus"]), 422, "invalid_field_value", "allowed_suppliers[1]");
    expectError(await call(server, "PATCH", `/v1/tenants/${tenant.tenantId}`, { key: server.ownerKey, body: { allowed_suppliers: "simulated" } }), 400, "validation_failed");
    expect((await call(server, "GET", `/v1/tenants/${tenant.tenantId}`, { key: server.ownerKey })).body.data.allowed_suppliers).toBeNull();
    expectError(await call(server, "PATCH", `/v1/tenants/${tenant.tenantId}`, { key: tenant.key, body: { allowed_suppliers: ["simulated"] } }), 403, "forbidden");
  });

  it("is set and read over GraphQL too", async () => {
    const tenant = await createTenant(server);
    const updated = await graphql(server, `mutation ($id: ID!) { updateTenant(id: $id, input: { allowedSuppliers: ["simulated"] }) { allowedSuppliers } }`, { id: tenant.tenantId }, { key: server.ownerKey });
    expect(updated.body.data!.updateTenant).toEqual({ allowedSuppliers: ["simulated"] });
    const cleared = await graphql(server, `mutation ($id: ID!) { updateTenant(id: $id, input: { allowedSuppliers: null }) { allowedSuppliers } }`, { id: tenant.tenantId }, { key: server.ownerKey });
    expect(cleared.body.data!.updateTenant).toEqual({ allowedSuppliers: null });
  });
});
