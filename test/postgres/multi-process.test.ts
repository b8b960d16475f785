import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { expectCatalogueError } from "../helpers/error-shape";
import { bookOffer, getOrder, searchForBooking } from "../helpers/orders";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Two server processes sharing one PostgreSQL database (docs/operations.md#scaling-on-postgresql: invalidations fan out
 * through LISTEN/NOTIFY). Each server caches keys and tenants; a change made through one must
 * take effect on the other before the change's response returns. Only meaningful on PostgreSQL:
 * SQLite serves one process.
 */
describe("two servers on one PostgreSQL database", () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    database = await createTestDatabase();
    const ownerKey = generateSecret("owner");
    a = await startTestServer({ database, ownerKey });
    b = await startTestServer({ database, ownerKey });
    expect(a.provider).toBe("postgresql");
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  /** A tenant created through A whose key is already cached by B. */
  async function tenantWarmOnB(): Promise<TenantFixture> {
    const tenant = await createTenant(a);
    const warm = await call(b, "GET", "/v1/tenant", { key: tenant.key });
    expect(warm.status).toBe(200);
    expect(warm.body.data.id).toBe(tenant.tenantId);
    return tenant;
  }

  it("a tenant created on A is readable on B", async () => {
    const tenant = await createTenant(a);
    const onB = await call(b, "GET", `/v1/tenants/${tenant.tenantId}`, { key: b.ownerKey });
    expect(onB.status).toBe(200);
    expect(onB.body.data.tenantId).toBe(tenant.tenantId);
  });

  it("a key revoked through A gets 401 on B at once, though B had it cached", async () => {
    const tenant = await tenantWarmOnB();
    const other = await call(a, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: a.ownerKey, body: { label: "other" } });
    expect(other.status).toBe(201);
    expect((await call(b, "GET", "/v1/tenant", { key: other.body.data.apiKey })).status).toBe(200);

    const revoked = await call(a, "DELETE", `/v1/tenants/${tenant.tenantId}/keys/${tenant.keyId}`, { key: a.ownerKey });
    expect(revoked.status).toBe(200);
    expectCatalogueError(await call(b, "GET", "/v1/tenant", { key: tenant.key }), 401, "unauthorized");
    expectCatalogueError(await call(b, "GET", "/v1/tenant", { key: tenant.key, keyHeader: "x-api-key" }), 401, "unauthorized");
    expectCatalogueError(await call(a, "GET", "/v1/tenant", { key: tenant.key }), 401, "unauthorized");
    // The tenant's other key keeps working on both.
    expect((await call(b, "GET", "/v1/tenant", { key: other.body.data.apiKey })).status).toBe(200);
    expect((await call(a, "GET", "/v1/tenant", { key: other.body.data.apiKey })).status).toBe(200);
  });

  it("suspension through A gives 403 on B at once; reactivation gives 200 again", async () => {
    const tenant = await tenantWarmOnB();

    const suspended = await call(a, "PATCH", `/v1/tenants/${tenant.tenantId}`, { key: a.ownerKey, body: { status: "suspended" } });
    expect(suspended.status).toBe(200);
    expect(suspended.body.data.status).toBe("suspended");
    expectCatalogueError(await call(b, "GET", "/v1/tenant", { key: tenant.key }), 403, "tenant_suspended");
    const ownerOnB = await call(b, "GET", `/v1/tenants/${tenant.tenantId}`, { key: b.ownerKey });
    expect(ownerOnB.body.data.status).toBe("suspended");

    const reactivated = await call(a, "PATCH", `/v1/tenants/${tenant.tenantId}`, { key: a.ownerKey, body: { status: "active" } });
    expect(reactivated.status).toBe(200);
    const back = await call(b, "GET", "/v1/tenant", { key: tenant.key });
    expect(back.status).toBe(200);
    expect(back.body.data.status).toBe("active");
  });

  it("a configuration change through A is what B serves next", async () => {
    const tenant = await tenantWarmOnB();
    const patched = await call(a, "PATCH", "/v1/tenant", { key: tenant.key, body: { timezone: "Asia/Tokyo" } });
    expect(patched.status).toBe(200);
    const onB = await call(b, "GET", "/v1/tenant", { key: tenant.key });
    expect(onB.body.data.timezone).toBe("Asia/Tokyo");
  });

  it("an order B has read shows a change made through A at once", async () => {
    const tenant = await tenantWarmOnB();
    const [offer] = await searchForBooking(a, tenant.key);
    const order = await bookOffer(a, tenant.key, offer);
    // B reads (and keeps) the pending order, then A cancels it.
    expect((await getOrder(b, tenant.key, order.id)).body.order.status).toBe("PENDING");
    expect((await call(a, "POST", `/v1/air/orders/${order.id}/cancel`, { key: tenant.key })).status).toBe(200);
    const onB = await getOrder(b, tenant.key, order.id);
    expect(onB.body.order.status).toBe("CANCELED");
    expect(onB.body.data.status).toBe("cancelled");
  });

  it("deleting a tenant through A gives 401 for its keys on B at once", async () => {
    const tenant = await tenantWarmOnB();
    const deleted = await call(a, "DELETE", `/v1/tenants/${tenant.tenantId}`, { key: a.ownerKey });
    expect(deleted.status).toBe(200);
    expectCatalogueError(await call(b, "GET", "/v1/tenant", { key: tenant.key }), 401, "unauthorized");
  });
});
