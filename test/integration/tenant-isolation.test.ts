import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../src/context/operations";
import { restRoutes } from "../../src/rest/routes";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { expectError, expectGraphQLError, expectSameAnswer } from "../helpers/expect-error";
import { searchOffers } from "../helpers/offers";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Who may reach whose data (docs/authentication.md#tenancy): tenant keys stay inside their tenant, the owner
 * names a tenant with Service-Tenant, suspension and revocation take effect at once.
 * The route lists come from the registered routes, so every new /v1 route is covered.
 */
const routesFor = (audience: "owner" | "tenant", effect?: "read" | "write") =>
  restRoutes
    .filter((route) => operations[route.operation].audience === audience && (!effect || operations[route.operation].effect === effect))
    .map(asCase);

const ownerRoutes = routesFor("owner");
const tenantRoutes = routesFor("tenant");
const allRoutes = restRoutes.map(asCase);

/** A route as a test case, labelled `GET /v1/tenants/:id`. */
function asCase({ method, url }: { method: string; url: string }) {
  return { route: `${method} ${url}`, method, url };
}

/** An empty JSON object for methods that take a body; the refusals tested here come before it is read. */
const emptyBodyFor = (method: string) => (method === "GET" || method === "DELETE" ? undefined : {});

/** A concrete path for a route template: `:id` → the given tenant, other parameters → ids that never existed. */
function pathFor(url: string, tenantId = "ten_neverexisted"): string {
  return url.replace(/:(\w+)/g, (_match, name: string) => (name === "id" && url.startsWith("/v1/tenants/") ? tenantId : `${name}_neverexisted`));
}

describe("tenant isolation", () => {
  let server: TestServer;
  let alice: TenantFixture;
  let bob: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer();
    alice = await createTenant(server, { name: "Alice Travel" });
    bob = await createTenant(server, { name: "Bob Tours" });
  });
  afterAll(() => server.close());

  const asOwner = (method: string, path: string, options: { body?: unknown; serviceTenant?: string } = {}) =>
    call(server, method, path, {
      key: server.ownerKey,
      body: options.body,
      headers: options.serviceTenant === undefined ? {} : { "service-tenant": options.serviceTenant },
    });
  const readConfig = (key: string, headers: Record<string, string> = {}) => call(server, "GET", "/v1/tenant", { key, headers });
  const setStatus = async (tenantId: string, status: "active" | "suspended") => {
    expect((await asOwner("PATCH", `/v1/tenants/${tenantId}`, { body: { status } })).status).toBe(200);
  };
  const viewerTenantId = async (key: string, keyHeader?: "authorization" | "x-api-key") => {
    const response = await graphql(server, "{ viewer { kind tenant { id } } }", {}, { key, keyHeader });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data.viewer.tenant?.id;
  };

  describe("tenant keys", () => {
    it("read only their own tenant's configuration", async () => {
      expect((await readConfig(alice.key)).body.data.id).toBe(alice.tenantId);
      expect((await readConfig(bob.key)).body.data.id).toBe(bob.tenantId);
    });

    it("change only their own tenant's configuration", async () => {
      const bobBefore = (await readConfig(bob.key)).body.data;
      const patched = await call(server, "PATCH", "/v1/tenant", { key: alice.key, body: { timezone: "Asia/Tokyo", metadata: { who: "alice" } } });
      expect(patched.status).toBe(200);
      expect(patched.body.data).toMatchObject({ id: alice.tenantId, timezone: "Asia/Tokyo", metadata: { who: "alice" } });
      expect((await readConfig(bob.key)).body.data).toEqual(bobBefore);
    });

    it("never see another tenant's record: 404, exactly as for an id that never existed", async () => {
      const [bobOffer] = await searchOffers(server, bob.key);
      expect((await call(server, "GET", `/v1/air/offers/${bobOffer}`, { key: bob.key })).status).toBe(200);

      const foreign = await call(server, "GET", `/v1/air/offers/${bobOffer}`, { key: alice.key });
      const unknown = await call(server, "GET", "/v1/air/offers/off_neverexisted", { key: alice.key });
      expectError(foreign, 404, "not_found");
      expectSameAnswer(unknown, foreign);

      const listed = await call(server, "GET", "/v1/air/offers?limit=100", { key: alice.key });
      expect(listed.status).toBe(200);
      expect(listed.body.data.items.map((offer: { id: string }) => offer.id)).not.toContain(bobOffer);

      const query = await graphql(server, "query ($id: ID!) { offer(id: $id) { id } }", { id: bobOffer }, { key: alice.key });
      expect(query.body).toEqual({ data: { offer: null } });

      const actingForAlice = await asOwner("GET", `/v1/air/offers/${bobOffer}`, { serviceTenant: alice.tenantId });
      expectSameAnswer(actingForAlice, foreign);
      expect((await asOwner("GET", `/v1/air/offers/${bobOffer}`, { serviceTenant: bob.tenantId })).status).toBe(200);
    });

    it.each(ownerRoutes)("get 403 forbidden on the owner path $route, alike for own, foreign and unknown tenants", async ({ method, url }) => {
      const own = await call(server, method, pathFor(url, alice.tenantId), { key: alice.key, body: emptyBodyFor(method) });
      const foreign = await call(server, method, pathFor(url, bob.tenantId), { key: alice.key, body: emptyBodyFor(method) });
      const unknown = await call(server, method, pathFor(url), { key: alice.key, body: emptyBodyFor(method) });
      expectError(own, 403, "forbidden");
      expectSameAnswer(foreign, own);
      expectSameAnswer(unknown, own);
    });

    it("get 403 forbidden when naming another tenant in Service-Tenant, exactly as for a tenant that never existed", async () => {
      const foreign = await readConfig(alice.key, { "service-tenant": bob.tenantId });
      const unknown = await readConfig(alice.key, { "service-tenant": "ten_neverexisted" });
      expectError(foreign, 403, "forbidden");
      expectSameAnswer(unknown, foreign);
      const write = await call(server, "PATCH", "/v1/tenant", { key: alice.key, headers: { "service-tenant": bob.tenantId }, body: { timezone: "UTC" } });
      expectError(write, 403, "forbidden");
    });

    it("may name their own tenant in Service-Tenant", async () => {
      const response = await readConfig(alice.key, { "service-tenant": alice.tenantId });
      expect(response.status).toBe(200);
      expect(response.body.data.id).toBe(alice.tenantId);
    });

    it("get 403 forbidden on GraphQL when naming another tenant in Service-Tenant", async () => {
      const response = await graphql(server, "{ viewer { kind } }", {}, { key: alice.key, headers: { "service-tenant": bob.tenantId } });
      expectGraphQLError(response, "forbidden", { statusCode: 403 });
    });
  });

  describe("the owner key on tenant data paths", () => {
    it.each(tenantRoutes)("without Service-Tenant gets 400 tenant_required on $route", async ({ method, url }) => {
      expectError(await asOwner(method, pathFor(url), { body: emptyBodyFor(method) }), 400, "tenant_required");
    });

    it.each(tenantRoutes)("naming an unknown tenant gets 404 tenant_not_found on $route", async ({ method, url }) => {
      const response = await asOwner(method, pathFor(url), { body: emptyBodyFor(method), serviceTenant: "ten_neverexisted" });
      expectError(response, 404, "tenant_not_found", "Service-Tenant");
    });

    it("with Service-Tenant reads and changes that tenant's data as its own key would", async () => {
      const acting = await asOwner("GET", "/v1/tenant", { serviceTenant: bob.tenantId });
      expect(acting.status).toBe(200);
      expect(acting.body.data).toEqual((await readConfig(bob.key)).body.data);

      const aliceBefore = (await readConfig(alice.key)).body.data;
      const patched = await asOwner("PATCH", "/v1/tenant", { serviceTenant: bob.tenantId, body: { default_currency: "EUR" } });
      expect(patched.status).toBe(200);
      expect((await readConfig(bob.key)).body.data.default_currency).toBe("EUR");
      expect((await readConfig(alice.key)).body.data).toEqual(aliceBefore);
    });

    it("with Service-Tenant sees that tenant as the GraphQL viewer's tenant", async () => {
      const response = await graphql(server, "{ viewer { kind tenant { id } } }", {}, { key: server.ownerKey, headers: { "service-tenant": bob.tenantId } });
      expect(response.body.data).toEqual({ viewer: { kind: "OWNER", tenant: { id: bob.tenantId } } });
    });
  });

  describe("key revocation", () => {
    it("refuses a revoked key with 401 at once while the tenant's other keys and other tenants keep working", async () => {
      const tenant = await createTenant(server);
      const spare = (await asOwner("POST", `/v1/tenants/${tenant.tenantId}/keys`, { body: { label: "spare" } })).body.data.apiKey as string;
      expect((await readConfig(tenant.key)).status).toBe(200); // warms the credential cache

      const revoked = await asOwner("DELETE", `/v1/tenants/${tenant.tenantId}/keys/${tenant.keyId}`);
      expect(revoked.status).toBe(200);
      expect(revoked.body.data).toMatchObject({ keyId: tenant.keyId, revokedAt: expect.any(String) });

      expectError(await readConfig(tenant.key), 401, "unauthorized");
      expectGraphQLError(await graphql(server, "{ viewer { kind } }", {}, { key: tenant.key }), "unauthorized", { httpStatus: 401 });
      expect(await viewerTenantId(spare)).toBe(tenant.tenantId);
      expect((await readConfig(alice.key)).status).toBe(200);
    });

    it("revoking a revoked key again returns it unchanged", async () => {
      const tenant = await createTenant(server);
      const first = await asOwner("DELETE", `/v1/tenants/${tenant.tenantId}/keys/${tenant.keyId}`);
      const second = await asOwner("DELETE", `/v1/tenants/${tenant.tenantId}/keys/${tenant.keyId}`);
      expect(second.status).toBe(200);
      expect(second.body.data).toEqual(first.body.data);
    });

    it("answers 404 for another tenant's key named under the wrong tenant, exactly as for a key that never existed", async () => {
      const wrongPath = await asOwner("DELETE", `/v1/tenants/${alice.tenantId}/keys/${bob.keyId}`);
      const unknown = await asOwner("DELETE", `/v1/tenants/${alice.tenantId}/keys/key_neverexisted`);
      expectError(wrongPath, 404, "not_found", "keyId");
      expectSameAnswer(unknown, wrongPath);
      expect((await readConfig(bob.key)).status).toBe(200);
    });

    it("lists only the tenant's own keys", async () => {
      const list = await asOwner("GET", `/v1/tenants/${alice.tenantId}/keys`);
      expect(list.status).toBe(200);
      const keyIds = list.body.data.items.map((item: { keyId: string }) => item.keyId);
      expect(keyIds).toContain(alice.keyId);
      expect(keyIds).not.toContain(bob.keyId);
    });
  });

  describe("suspension", () => {
    let tenant: TenantFixture;
    let spare: string;
    beforeAll(async () => {
      tenant = await createTenant(server, { name: "Sleepy Travel" });
      spare = (await asOwner("POST", `/v1/tenants/${tenant.tenantId}/keys`, { body: { label: "spare" } })).body.data.apiKey;
      expect((await readConfig(tenant.key)).status).toBe(200); // warm caches before suspending
      await setStatus(tenant.tenantId, "suspended");
    });
    afterAll(() => setStatus(tenant.tenantId, "active"));

    it.each(allRoutes)("refuses the tenant's keys with 403 tenant_suspended on $route", async ({ method, url }) => {
      for (const key of [tenant.key, spare]) {
        expectError(await call(server, method, pathFor(url, tenant.tenantId), { key, body: emptyBodyFor(method) }), 403, "tenant_suspended");
      }
    });

    it("refuses the tenant's keys on an unknown route and on GraphQL, in both header forms", async () => {
      expectError(await call(server, "GET", "/v1/no-such-route", { key: tenant.key }), 403, "tenant_suspended");
      for (const keyHeader of ["authorization", "x-api-key"] as const) {
        const response = await graphql(server, "{ viewer { kind } }", {}, { key: tenant.key, keyHeader });
        expectGraphQLError(response, "tenant_suspended", { httpStatus: 403, statusCode: 403 });
      }
    });

    it("leaves other tenants untouched", async () => {
      expect((await readConfig(alice.key)).status).toBe(200);
      expect(await viewerTenantId(bob.key)).toBe(bob.tenantId);
    });

    it("still lets the owner read the tenant's data with Service-Tenant", async () => {
      const response = await asOwner("GET", "/v1/tenant", { serviceTenant: tenant.tenantId });
      expect(response.status).toBe(200);
      expect(response.body.data).toMatchObject({ id: tenant.tenantId, status: "suspended" });
      const viewer = await graphql(server, "{ viewer { tenant { id status } } }", {}, { key: server.ownerKey, headers: { "service-tenant": tenant.tenantId } });
      expect(viewer.body.data).toEqual({ viewer: { tenant: { id: tenant.tenantId, status: "SUSPENDED" } } });
    });

    it("refuses the owner's writes to the tenant's data with 403 tenant_suspended, changing nothing", async () => {
      const before = (await asOwner("GET", "/v1/tenant", { serviceTenant: tenant.tenantId })).body.data;
      const patch = await asOwner("PATCH", "/v1/tenant", { serviceTenant: tenant.tenantId, body: { timezone: "Europe/Paris" } });
      expectError(patch, 403, "tenant_suspended");
      const mutation = await graphql(
        server,
        `mutation { updateTenantConfig(input: { timezone: "Europe/Paris" }) { timezone } }`,
        {},
        { key: server.ownerKey, headers: { "service-tenant": tenant.tenantId } },
      );
      expectGraphQLError(mutation, "tenant_suspended", { statusCode: 403 });
      expect((await asOwner("GET", "/v1/tenant", { serviceTenant: tenant.tenantId })).body.data).toEqual(before);
    });

    it.each(routesFor("tenant", "write"))("refuses the owner acting for it on every write path: $route", async ({ method, url }) => {
      const response = await asOwner(method, pathFor(url), { serviceTenant: tenant.tenantId, body: emptyBodyFor(method) });
      expectError(response, 403, "tenant_suspended");
    });

    it("lets the tenant back in at once after reactivation, on REST and GraphQL", async () => {
      const other = await createTenant(server);
      await setStatus(other.tenantId, "suspended");
      expectError(await readConfig(other.key), 403, "tenant_suspended");
      await setStatus(other.tenantId, "active");
      const response = await readConfig(other.key);
      expect(response.status).toBe(200);
      expect(response.body.data.status).toBe("active");
      expect(await viewerTenantId(other.key, "x-api-key")).toBe(other.tenantId);
    });
  });
});
