import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** The calling tenant's configuration (docs/rest-api.md#tenant-configuration, docs/authentication.md#tenancy). */
describe("tenant configuration", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const getConfig = async (tenant: TenantFixture) => {
    const response = await call(server, "GET", "/v1/tenant", { key: tenant.key });
    expect(response.status).toBe(200);
    return response.body.data;
  };
  const patchConfig = (tenant: TenantFixture, body: unknown) => call(server, "PATCH", "/v1/tenant", { key: tenant.key, body });

  describe("GET /v1/tenant", () => {
    it("returns exactly the 2.3 fields, with id equal to the tenantId", async () => {
      const tenant = await createTenant(server, { name: "Config Travel", metadata: { ownerNote: "not for the tenant" } });
      const response = await call(server, "GET", "/v1/tenant", { key: tenant.key });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, message: expect.any(String) });
      const config = response.body.data;
      expect(Object.keys(config).sort()).toEqual(
        ["id", "name", "slug", "environment", "status", "default_currency", "timezone", "suppliers", "webhook_url", "webhook_enabled", "metadata", "created_at", "updated_at"].sort(),
      );
      expect(config).toMatchObject({
        id: tenant.tenantId,
        name: "Config Travel",
        slug: "config-travel",
        environment: "sandbox",
        status: "active",
        default_currency: expect.stringMatching(/^[A-Z]{3}$/),
        timezone: expect.any(String),
        webhook_url: null,
        webhook_enabled: false,
        // The owner's metadata on the tenant object is the owner's own; the tenant never sees it.
        metadata: {},
      });
      for (const stamp of [config.created_at, config.updated_at]) expect(new Date(stamp).toISOString()).toBe(stamp);
    });

    it("shows a live tenant its environment", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      expect((await getConfig(tenant)).environment).toBe("live");
    });
  });

  describe("PATCH /v1/tenant", () => {
    it.each([
      ["webhook_url", { webhook_url: "https://hooks.example.com/aerogate" }, { webhook_url: "https://hooks.example.com/aerogate" }],
      ["webhook_url and webhook_enabled", { webhook_url: "https://hooks.example.com/a", webhook_enabled: true }, { webhook_enabled: true }],
      ["default_currency", { default_currency: "EUR" }, { default_currency: "EUR" }],
      ["timezone", { timezone: "America/New_York" }, { timezone: "America/New_York" }],
      ["timezone as UTC", { timezone: "UTC" }, { timezone: "UTC" }],
      ["timezone in its canonical spelling", { timezone: "europe/paris" }, { timezone: "Europe/Paris" }],
      ["metadata", { metadata: { erp: "SAP", region: "emea" } }, { metadata: { erp: "SAP", region: "emea" } }],
    ])("changes %s and nothing else", async (_case, patch, expected) => {
      const tenant = await createTenant(server);
      const before = await getConfig(tenant);
      const response = await patchConfig(tenant, patch);
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const after = await getConfig(tenant);
      expect(response.body.data).toMatchObject(after);
      const { updated_at: updatedAfter, ...rest } = after;
      const { updated_at: updatedBefore, ...restBefore } = before;
      expect(rest).toEqual({ ...restBefore, ...patch, ...expected });
      expect(Date.parse(updatedAfter)).toBeGreaterThanOrEqual(Date.parse(updatedBefore));
    });

    it("replaces metadata as a whole", async () => {
      const tenant = await createTenant(server);
      await patchConfig(tenant, { metadata: { a: "1", b: "2" } });
      await patchConfig(tenant, { metadata: { c: "3" } });
      expect((await getConfig(tenant)).metadata).toEqual({ c: "3" });
    });

    it("clearing webhook_url also disables webhooks", async () => {
      const tenant = await createTenant(server);
      expect((await patchConfig(tenant, { webhook_url: "https://hooks.example.com/x", webhook_enabled: true })).status).toBe(200);
      const cleared = await patchConfig(tenant, { webhook_url: null });
      expect(cleared.status).toBe(200);
      expect(await getConfig(tenant)).toMatchObject({ webhook_url: null, webhook_enabled: false });
    });

    it("enables webhooks in a later patch once a URL is set", async () => {
      const tenant = await createTenant(server);
      await patchConfig(tenant, { webhook_url: "https://hooks.example.com/later" });
      expect((await patchConfig(tenant, { webhook_enabled: true })).status).toBe(200);
      expect((await getConfig(tenant)).webhook_enabled).toBe(true);
    });

    it.each([
      ["an unknown timezone", { timezone: "Mars/Olympus_Mons" }, "timezone"],
      ["an empty timezone", { timezone: "" }, "timezone"],
      ["a numeric timezone", { timezone: 2 }, "timezone"],
      ["an unknown currency", { default_currency: "ABC" }, "default_currency"],
      ["a currency name instead of a code", { default_currency: "EURO" }, "default_currency"],
      ["a numeric currency", { default_currency: 978 }, "default_currency"],
      ["an ftp webhook_url", { webhook_url: "ftp://hooks.example.com/x" }, "webhook_url"],
      ["a javascript: webhook_url", { webhook_url: "javascript:alert(1)" }, "webhook_url"],
      ["a webhook_url that is not a URL", { webhook_url: "hooks dot example" }, "webhook_url"],
      ["a numeric webhook_url", { webhook_url: 42 }, "webhook_url"],
      ["a string webhook_enabled", { webhook_enabled: "yes" }, "webhook_enabled"],
      ["a numeric webhook_enabled", { webhook_enabled: 1 }, "webhook_enabled"],
      ["metadata that is a string", { metadata: "x" }, "metadata"],
      ["metadata with 21 pairs", { metadata: pairs(21) }, "metadata"],
      ["a non-string metadata value", { metadata: { tier: 3 } }, "metadata.tier"],
      ["an unknown field", { color: "blue" }, "color"],
      ["webhook_enabled without a webhook_url", { webhook_enabled: true }, "webhook_enabled"],
      ["webhook_enabled while clearing the webhook_url", { webhook_url: null, webhook_enabled: true }, "webhook_enabled"],
      ["the immutable id", { id: "ten_other" }, "id"],
      ["the immutable slug", { slug: "new-slug" }, "slug"],
      ["the immutable environment", { environment: "live" }, "environment"],
      ["the name", { name: "New Name" }, "name"],
      ["the status", { status: "suspended" }, "status"],
      ["created_at", { created_at: "2020-01-01T00:00:00.000Z" }, "created_at"],
    ])("refuses %s with 422 invalid_field_value naming it, and changes nothing", async (_case, invalid, field) => {
      const tenant = await createTenant(server);
      const before = await getConfig(tenant);
      // A valid change rides along: it must not be applied either.
      const response = await patchConfig(tenant, { metadata: { applied: "no" }, ...invalid });
      expectError(response, 422, "invalid_field_value", field);
      expect(await getConfig(tenant)).toEqual(before);
    });

    // Text holding U+0000 (which PostgreSQL cannot store) is 400 validation_failed on
    // every other route (json-bodies.test.ts); here it is an invalid field like any other (docs/rest-api.md#tenant-configuration).
    it.each([
      ["a default_currency of NUL characters", { default_currency: "\u0000\u0000\u0000" }, "default_currency"],
      ["a valid currency followed by U+0000", { default_currency: "EUR\u0000" }, "default_currency"],
      ["a timezone holding U+0000", { timezone: "Europe/Paris\u0000" }, "timezone"],
      ["a webhook_url holding U+0000", { webhook_url: "https://hooks.example.com/a\u0000b" }, "webhook_url"],
      ["a metadata value holding U+0000", { metadata: { note: "nul\u0000here" } }, "metadata.note"],
      ["a metadata key holding U+0000", { metadata: { "a\u0000": "x" } }, "metadata.a\u0000"],
      ["an unknown field whose name holds U+0000", { "col\u0000or": "blue" }, "col\u0000or"],
    ])("refuses %s with 422 invalid_field_value naming it, and changes nothing", async (_case, invalid, field) => {
      const tenant = await createTenant(server);
      const before = await getConfig(tenant);
      const response = await patchConfig(tenant, { timezone: "Asia/Tokyo", ...invalid });
      expectError(response, 422, "invalid_field_value", field);
      expect(response.body.message).toMatch(/U\+0000/);
      expect(await getConfig(tenant)).toEqual(before);
    });

    it("refuses U+0000 through GraphQL's updateTenantConfig as every GraphQL request does (400 validation_failed), in a variable or a literal", async () => {
      const tenant = await createTenant(server);
      const before = await getConfig(tenant);
      const UPDATE = `mutation ($input: UpdateTenantConfigInput!) { updateTenantConfig(input: $input) { id } }`;
      // A variable is JSON: the body parser refuses it before GraphQL runs, as on every route.
      expectGraphQLError(await graphql(server, UPDATE, { input: { defaultCurrency: "\u0000\u0000\u0000" } }, { key: tenant.key }), "validation_failed", { httpStatus: 400 });
      // A literal's escape is decoded by GraphQL, past the body parser: validation refuses it, as in any document.
      const literal = `mutation { updateTenantConfig(input: { metadata: { note: "nul\\u0000here" } }) { id } }`;
      expectGraphQLError(await graphql(server, literal, {}, { key: tenant.key }), "validation_failed", { httpStatus: 400 });
      expect(await getConfig(tenant)).toEqual(before);
    });

    it.each([
      ["a user and a password", "https://agent:s3cret@hooks.example.com/x"],
      ["a user alone", "https://s3cret@hooks.example.com/x"],
      ["a password alone", "https://:s3cret@hooks.example.com/x"],
      ["an encoded user", "http://s3cret%40corp:pw@hooks.example.com/x"],
    ])("refuses a webhook_url with credentials in it (%s) with 422 invalid_field_value, on REST and GraphQL, never echoing them", async (_case, url) => {
      const tenant = await createTenant(server);
      const before = await getConfig(tenant);
      const response = await patchConfig(tenant, { webhook_url: url });
      expectError(response, 422, "invalid_field_value", "webhook_url");
      expect(response.body.message).toMatch(/user name or password/);
      expect(JSON.stringify(response.body)).not.toContain("s3cret");
      const UPDATE = `mutation ($input: UpdateTenantConfigInput!) { updateTenantConfig(input: $input) { webhookUrl } }`;
      const graphQL = await graphql(server, UPDATE, { input: { webhookUrl: url } }, { key: tenant.key });
      expectGraphQLError(graphQL, "invalid_field_value", { statusCode: 422 });
      expect(JSON.stringify(graphQL.body)).not.toContain("s3cret");
      expect(await getConfig(tenant)).toEqual(before);
    });

    it("shows a webhook_url stored with credentials before they were refused without them, REST and GraphQL", async () => {
      const tenant = await createTenant(server);
      expect((await patchConfig(tenant, { webhook_url: "https://hooks.example.com/legacy?x=1" })).status).toBe(200);
      await server.db.prisma.tenant.update({ where: { id: tenant.tenantId }, data: { webhookUrl: "https://agent:s3cret@hooks.example.com/legacy?x=1" } });
      await server.app.services.tenants.invalidate(tenant.tenantId);
      const shown = (await call(server, "GET", "/v1/tenant", { key: tenant.key })).body.data.webhook_url;
      expect(shown).toBe("https://hooks.example.com/legacy?x=1");
      const graphQL = await graphql(server, "{ viewer { tenant { webhookUrl } } }", {}, { key: tenant.key });
      expect(graphQL.body.data.viewer.tenant.webhookUrl).toBe("https://hooks.example.com/legacy?x=1");
    });

    it("refuses an empty object as a patch with 422 invalid_field_value", async () => {
      const tenant = await createTenant(server);
      expectError(await patchConfig(tenant, {}), 422, "invalid_field_value");
    });

    // A body that is not a JSON object is not a patch at all: 400 invalid_json, as on every route with a body.
    it.each([
      ["an array", [{ timezone: "UTC" }]],
      ["null", null],
    ])("refuses %s as a patch with 400 invalid_json", async (_case, body) => {
      const tenant = await createTenant(server);
      expectError(await patchConfig(tenant, body), 400, "invalid_json");
    });

    it("refuses malformed JSON with 400 invalid_json", async () => {
      const tenant = await createTenant(server);
      const response = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, rawBody: '{"timezone":' });
      expectError(response, 400, "invalid_json");
    });

    it("is the same when the owner acts for the tenant with Service-Tenant", async () => {
      const tenant = await createTenant(server);
      const headers = { "service-tenant": tenant.tenantId };
      const response = await call(server, "PATCH", "/v1/tenant", { key: server.ownerKey, headers, body: { timezone: "Asia/Singapore" } });
      expect(response.status).toBe(200);
      expect((await getConfig(tenant)).timezone).toBe("Asia/Singapore");
      const refused = await call(server, "PATCH", "/v1/tenant", { key: server.ownerKey, headers, body: { timezone: "Nowhere/Land" } });
      expectError(refused, 422, "invalid_field_value", "timezone");
    });
  });
});

/** `n` metadata pairs: k1 → v1 … */
function pairs(n: number): Record<string, string> {
  return Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i + 1}`, `v${i + 1}`]));
}
