import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Webhook endpoints as resources (docs/webhook-endpoints.md): made, listed, read, changed and
 * removed on REST and GraphQL; the tenant's webhook_url shown as its default endpoint; at most 16
 * more, also when creations race; every bad field refused with 422 naming it, changing nothing.
 */

const RECEIVER = "https://hooks.acme.example/aerogate";

describe("webhook endpoints", () => {
  let server: TestServer;

  beforeAll(async () => {
    // Private networks refused, as in production: the URL rules are part of what is tested.
    server = await startTestServer();
  });
  afterAll(() => server?.close());

  const create = (tenant: TenantFixture, body: unknown, headers: Record<string, string> = {}) => call(server, "POST", "/v1/webhook_endpoints", { key: tenant.key, body, headers });
  const list = async (tenant: TenantFixture, query = "") => {
    const listed = await call(server, "GET", `/v1/webhook_endpoints${query}`, { key: tenant.key });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    return listed.body.data as { items: any[]; pagination: any };
  };
  const defaultIdOf = (tenant: TenantFixture) => `whe_${tenant.tenantId.slice("ten_".length)}`;

  describe("made, read, changed and removed", () => {
    let tenant: TenantFixture;
    beforeAll(async () => {
      tenant = await createTenant(server);
    });

    it("answers a creation 201 with the endpoint and its secret, shown this once", async () => {
      const created = await create(tenant, { url: RECEIVER, enabled_events: ["order.ticketed", "order.failed"], description: "Fulfilment" });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const endpoint = created.body.data;
      expect(endpoint).toEqual({
        id: expect.stringMatching(/^whe_[0-9a-z]{26}$/),
        url: RECEIVER,
        enabled_events: ["order.ticketed", "order.failed"],
        description: "Fulfilment",
        enabled: true,
        is_default: false,
        created_at: expect.any(String),
        updated_at: endpoint.created_at,
        secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]+=*$/),
      });
      const read = await call(server, "GET", `/v1/webhook_endpoints/${endpoint.id}`, { key: tenant.key });
      expect(read.status).toBe(200);
      expect(read.body.data).toEqual({ ...endpoint, secret: undefined });
      expect(read.body.data).not.toHaveProperty("secret");
      expect((await list(tenant)).items.map((item) => item.id)).toContain(endpoint.id);
    });

    it("repeats a creation with the same Idempotency-Key without the secret and without a second endpoint", async () => {
      const before = (await list(tenant)).pagination.total;
      const headers = { "idempotency-key": `endpoint-${Date.now()}` };
      const first = await create(tenant, { url: RECEIVER, enabled_events: ["*"] }, headers);
      const again = await create(tenant, { url: RECEIVER, enabled_events: ["*"] }, headers);
      expect(first.status).toBe(201);
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body.data).toEqual({ ...first.body.data, secret: null });
      expect((await list(tenant)).pagination.total).toBe(before + 1);
    });

    it("changes only the fields given, and keeps enabled_events de-duplicated; description null clears it", async () => {
      const { data: endpoint } = (await create(tenant, { url: RECEIVER, enabled_events: ["order.created"], description: "Accounting" })).body;
      const patched = await call(server, "PATCH", `/v1/webhook_endpoints/${endpoint.id}`, {
        key: tenant.key,
        body: { enabled_events: ["order.refunded", "order.cancelled", "order.refunded"], enabled: false },
      });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body.data).toMatchObject({ id: endpoint.id, url: RECEIVER, enabled_events: ["order.refunded", "order.cancelled"], description: "Accounting", enabled: false });
      const cleared = await call(server, "PATCH", `/v1/webhook_endpoints/${endpoint.id}`, { key: tenant.key, body: { description: null, url: `${RECEIVER}/v2` } });
      expect(cleared.body.data).toMatchObject({ description: null, url: `${RECEIVER}/v2`, enabled: false });
    });

    it("removes an endpoint, answering it as it was; then it is 404 everywhere", async () => {
      const { data: endpoint } = (await create(tenant, { url: RECEIVER, enabled_events: ["*"] })).body;
      const removed = await call(server, "DELETE", `/v1/webhook_endpoints/${endpoint.id}`, { key: tenant.key });
      expect(removed.status).toBe(200);
      expect(removed.body.data).toEqual({ ...endpoint, secret: undefined });
      for (const [method, path, body] of [
        ["GET", `/v1/webhook_endpoints/${endpoint.id}`],
        ["PATCH", `/v1/webhook_endpoints/${endpoint.id}`, { enabled: true }],
        ["DELETE", `/v1/webhook_endpoints/${endpoint.id}`],
        ["POST", `/v1/webhook_endpoints/${endpoint.id}/secret/rotate`],
        ["POST", `/v1/webhook_endpoints/${endpoint.id}/actions/ping`],
      ] as const) {
        expectError(await call(server, method, path, { key: tenant.key, body }), 404, "not_found");
      }
      expect((await list(tenant)).items.map((item) => item.id)).not.toContain(endpoint.id);
    });

    it("answers another tenant's endpoint 404, as one that never existed", async () => {
      const { data: endpoint } = (await create(tenant, { url: RECEIVER, enabled_events: ["*"] })).body;
      const other = await createTenant(server);
      for (const [method, path, body] of [
        ["GET", `/v1/webhook_endpoints/${endpoint.id}`],
        ["PATCH", `/v1/webhook_endpoints/${endpoint.id}`, { enabled: false }],
        ["DELETE", `/v1/webhook_endpoints/${endpoint.id}`],
        ["POST", `/v1/webhook_endpoints/${endpoint.id}/secret/rotate`],
        ["POST", `/v1/webhook_endpoints/${endpoint.id}/actions/ping`],
      ] as const) {
        expectError(await call(server, method, path, { key: other.key, body }), 404, "not_found");
      }
      expect((await list(other)).items).toEqual([]);
      const still = await call(server, "GET", `/v1/webhook_endpoints/${endpoint.id}`, { key: tenant.key });
      expect(still.body.data).toMatchObject({ enabled: true });
    });

    it("lists newest first in the pagination envelope with signed cursors", async () => {
      const pages: any[][] = [];
      let cursor: string | null = null;
      do {
        const page: { items: any[]; pagination: any } = await list(tenant, `?limit=2${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        pages.push(page.items);
        cursor = page.pagination.nextCursor;
      } while (cursor);
      const walked = pages.flat();
      const whole = (await list(tenant, "?limit=100")).items;
      expect(walked.map((item) => item.id)).toEqual(whole.map((item) => item.id));
      expect(whole.map((item) => item.created_at)).toEqual(whole.map((item) => item.created_at).sort().reverse());
      expectError(await call(server, "GET", "/v1/webhook_endpoints?cursor=forged.cursor", { key: tenant.key }), 400, "INVALID_CURSOR");
    });
  });

  describe("the tenant's webhook_url as its default endpoint", () => {
    it("lists it when a URL is set, receiving every event; its changes are the tenant's webhook settings", async () => {
      const tenant = await createTenant(server);
      expect((await list(tenant)).items).toEqual([]);
      const patched = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: RECEIVER, webhook_enabled: true } });
      expect(patched.status).toBe(200);
      const [shown] = (await list(tenant)).items;
      expect(shown).toMatchObject({ id: defaultIdOf(tenant), url: RECEIVER, enabled_events: ["*"], enabled: true, is_default: true });
      expect(shown).not.toHaveProperty("secret");

      const disabled = await call(server, "PATCH", `/v1/webhook_endpoints/${defaultIdOf(tenant)}`, { key: tenant.key, body: { enabled: false, url: `${RECEIVER}/moved` } });
      expect(disabled.status, JSON.stringify(disabled.body)).toBe(200);
      const config = await call(server, "GET", "/v1/tenant", { key: tenant.key });
      expect(config.body.data).toMatchObject({ webhook_url: `${RECEIVER}/moved`, webhook_enabled: false });

      expectError(await call(server, "PATCH", `/v1/webhook_endpoints/${defaultIdOf(tenant)}`, { key: tenant.key, body: { enabled_events: ["order.created"] } }), 422, "invalid_field_value", "enabled_events");
      expectError(await call(server, "PATCH", `/v1/webhook_endpoints/${defaultIdOf(tenant)}`, { key: tenant.key, body: { description: "mine" } }), 422, "invalid_field_value", "description");
      const everything = await call(server, "PATCH", `/v1/webhook_endpoints/${defaultIdOf(tenant)}`, { key: tenant.key, body: { enabled_events: ["*"] } });
      expect(everything.status).toBe(200);

      const rotated = await call(server, "POST", `/v1/webhook_endpoints/${defaultIdOf(tenant)}/secret/rotate`, { key: tenant.key });
      expect(rotated.status).toBe(200);
      expect(rotated.body.data).toEqual({ id: defaultIdOf(tenant), secret: expect.stringMatching(/^whsec_/), previous_secret_expires_at: expect.any(String) });
      expect(rotated.body.data.secret).not.toBe(patched.body.data.webhook_secret);

      const removed = await call(server, "DELETE", `/v1/webhook_endpoints/${defaultIdOf(tenant)}`, { key: tenant.key });
      expect(removed.status).toBe(200);
      expect((await call(server, "GET", "/v1/tenant", { key: tenant.key })).body.data).toMatchObject({ webhook_url: null, webhook_enabled: false });
      expect((await list(tenant)).items).toEqual([]);
      expectError(await call(server, "GET", `/v1/webhook_endpoints/${defaultIdOf(tenant)}`, { key: tenant.key }), 404, "not_found");
    });
  });

  describe("bad input", () => {
    let tenant: TenantFixture;
    beforeAll(async () => {
      tenant = await createTenant(server);
    });

    it.each([
      ["an unknown event type, named", { url: RECEIVER, enabled_events: ["order.ticketed", "order.shipped"] }, "enabled_events", /"order\.shipped" is not an event type/],
      ["ping, which is only sent on request", { url: RECEIVER, enabled_events: ["ping"] }, "enabled_events", /"ping" is sent only when asked for/],
      ["* beside other types", { url: RECEIVER, enabled_events: ["*", "order.created"] }, "enabled_events", /stands alone/],
      ["no event type", { url: RECEIVER, enabled_events: [] }, "enabled_events", /at least one event type/],
      ["event types that are not a list", { url: RECEIVER, enabled_events: "*" }, "enabled_events", /./],
      ["no url", { enabled_events: ["*"] }, "url", /./],
      ["a url that is not http or https", { url: "ftp://hooks.acme.example/x", enabled_events: ["*"] }, "url", /http or https/],
      ["a url with a user name and password", { url: "https://user:secret@hooks.acme.example/x", enabled_events: ["*"] }, "url", /user name or password/],
      ["a url with a user name alone", { url: "https://user@hooks.acme.example/x", enabled_events: ["*"] }, "url", /user name or password/],
      ["a url on loopback", { url: "http://127.0.0.1:8080/hooks", enabled_events: ["*"] }, "url", /private or loopback/],
      ["a url on a private network, in IPv6", { url: "http://[::ffff:10.0.0.1]/hooks", enabled_events: ["*"] }, "url", /private or loopback/],
      ["a description with a hidden character", { url: RECEIVER, enabled_events: ["*"], description: "Acme\u202Eelbat" }, "description", /U\+202E/],
      ["a description too long", { url: RECEIVER, enabled_events: ["*"], description: "x".repeat(501) }, "description", /./],
      ["enabled that is not a boolean", { url: RECEIVER, enabled_events: ["*"], enabled: "yes" }, "enabled", /./],
      ["an unknown field", { url: RECEIVER, enabled_events: ["*"], filter: "all" }, "filter", /not a known field/],
    ])("refuses a creation with %s: 422 invalid_field_value naming the field, nothing made", async (_label, body, field, message) => {
      const before = (await list(tenant)).pagination.total;
      const refused = await create(tenant, body);
      expectError(refused, 422, "invalid_field_value", field);
      expect(`${refused.body.errors[0].message} ${refused.body.reason}`).toMatch(message);
      expect(JSON.stringify(refused.body)).not.toContain("secret@");
      expect((await list(tenant)).pagination.total).toBe(before);
    });

    it.each([
      ["nothing to change", {}, undefined],
      ["an id", { id: "whe_x" }, "id"],
      ["the secret", { secret: "whsec_AAAA" }, "secret"],
      ["is_default", { is_default: true }, "is_default"],
      ["a null url", { url: null }, "url"],
      ["an unknown event type", { enabled_events: ["order.exploded"] }, "enabled_events"],
      ["credentials in the url", { url: "https://a:b@hooks.acme.example" }, "url"],
    ])("refuses a change with %s: 422, the endpoint unchanged", async (_label, body, field) => {
      const { data: endpoint } = (await create(tenant, { url: RECEIVER, enabled_events: ["order.created"] })).body;
      expectError(await call(server, "PATCH", `/v1/webhook_endpoints/${endpoint.id}`, { key: tenant.key, body }), 422, "invalid_field_value", field);
      const read = await call(server, "GET", `/v1/webhook_endpoints/${endpoint.id}`, { key: tenant.key });
      expect(read.body.data).toEqual({ ...endpoint, secret: undefined });
      await call(server, "DELETE", `/v1/webhook_endpoints/${endpoint.id}`, { key: tenant.key });
    });

    it("refuses a body that is not a JSON object with 400", async () => {
      expectError(await call(server, "POST", "/v1/webhook_endpoints", { key: tenant.key, rawBody: "[1]" }), 400, "invalid_json");
      expectError(await call(server, "POST", "/v1/webhook_endpoints", { key: tenant.key, rawBody: "{" }), 400, "invalid_json");
    });
  });

  describe("at most 16 besides the default one", () => {
    it("refuses the 17th with 422 webhook_endpoint_limit_reached, and a slot freed is taken again", async () => {
      const tenant = await createTenant(server);
      await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: RECEIVER } });
      const made: string[] = [];
      for (let index = 0; index < 16; index++) {
        const created = await create(tenant, { url: `${RECEIVER}/${index}`, enabled_events: ["*"] });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
        made.push(created.body.data.id);
      }
      expectError(await create(tenant, { url: RECEIVER, enabled_events: ["*"] }), 422, "webhook_endpoint_limit_reached");
      expect((await list(tenant, "?limit=100")).pagination.total).toBe(17);
      await call(server, "DELETE", `/v1/webhook_endpoints/${made[7]}`, { key: tenant.key });
      expect((await create(tenant, { url: RECEIVER, enabled_events: ["*"] })).status).toBe(201);
      expectError(await create(tenant, { url: RECEIVER, enabled_events: ["*"] }), 422, "webhook_endpoint_limit_reached");
    });

    it("lets exactly 16 of 30 racing creations through", async () => {
      const tenant = await createTenant(server);
      const answers = await Promise.all(Array.from({ length: 30 }, (_, index) => create(tenant, { url: `${RECEIVER}/${index}`, enabled_events: ["*"] })));
      const statuses = answers.map((answer) => answer.status);
      expect(statuses.filter((status) => status === 201)).toHaveLength(16);
      for (const refused of answers.filter((answer) => answer.status !== 201)) expectError(refused, 422, "webhook_endpoint_limit_reached");
      const listed = await list(tenant, "?limit=100");
      expect(listed.pagination.total).toBe(16);
      expect(new Set(listed.items.map((item) => item.id)).size).toBe(16);
    });
  });

  describe("GraphQL", () => {
    const ENDPOINT_FIELDS = "id url enabledEvents description enabled isDefault createdAt updatedAt secret";

    it("makes, lists, reads, changes, rotates and removes endpoints as REST does", async () => {
      const tenant = await createTenant(server);
      await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: RECEIVER } });
      const created = await graphql(
        server,
        `mutation ($input: CreateWebhookEndpointInput!) { createWebhookEndpoint(input: $input) { ${ENDPOINT_FIELDS} } }`,
        { input: { url: RECEIVER, enabledEvents: ["order.created"], description: "Slack bridge" } },
        { key: tenant.key },
      );
      expect(created.body.errors).toBeUndefined();
      const endpoint = created.body.data.createWebhookEndpoint;
      expect(endpoint).toMatchObject({ url: RECEIVER, enabledEvents: ["order.created"], description: "Slack bridge", enabled: true, isDefault: false, secret: expect.stringMatching(/^whsec_/) });

      const listed = await graphql(server, `{ webhookEndpoints(first: 10) { totalCount nodes { ${ENDPOINT_FIELDS} } } }`, {}, { key: tenant.key });
      expect(listed.body.data.webhookEndpoints.totalCount).toBe(2);
      expect(listed.body.data.webhookEndpoints.nodes).toEqual([
        { ...endpoint, secret: null },
        expect.objectContaining({ id: defaultIdOf(tenant), isDefault: true, enabledEvents: ["*"], secret: null }),
      ]);

      const read = await graphql(server, `query ($id: ID!) { webhookEndpoint(id: $id) { id enabled } }`, { id: endpoint.id }, { key: tenant.key });
      expect(read.body.data.webhookEndpoint).toEqual({ id: endpoint.id, enabled: true });
      const missing = await graphql(server, `query ($id: ID!) { webhookEndpoint(id: $id) { id } }`, { id: "whe_00000000000000000000000000" }, { key: tenant.key });
      expect(missing.body).toEqual({ data: { webhookEndpoint: null } });

      const updated = await graphql(
        server,
        `mutation ($id: ID!, $input: UpdateWebhookEndpointInput!) { updateWebhookEndpoint(id: $id, input: $input) { id enabledEvents enabled } }`,
        { id: endpoint.id, input: { enabledEvents: ["*"], enabled: false } },
        { key: tenant.key },
      );
      expect(updated.body.data.updateWebhookEndpoint).toEqual({ id: endpoint.id, enabledEvents: ["*"], enabled: false });

      const rotated = await graphql(server, `mutation ($id: ID!) { rotateWebhookEndpointSecret(id: $id) { endpointId secret previousSecretExpiresAt } }`, { id: endpoint.id }, { key: tenant.key });
      expect(rotated.body.data.rotateWebhookEndpointSecret).toEqual({ endpointId: endpoint.id, secret: expect.stringMatching(/^whsec_/), previousSecretExpiresAt: expect.any(String) });

      const removed = await graphql(server, `mutation ($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }`, { id: endpoint.id }, { key: tenant.key });
      expect(removed.body.data.deleteWebhookEndpoint).toEqual({ id: endpoint.id });
      const again = await graphql(server, `mutation ($id: ID!) { deleteWebhookEndpoint(id: $id) { id } }`, { id: endpoint.id }, { key: tenant.key });
      expectGraphQLError(again, "not_found");
    });

    it("refuses an unknown event type with invalid_field_value naming it", async () => {
      const tenant = await createTenant(server);
      const refused = await graphql(
        server,
        `mutation { createWebhookEndpoint(input: { url: "${RECEIVER}", enabledEvents: ["order.vanished"] }) { id } }`,
        {},
        { key: tenant.key },
      );
      expectGraphQLError(refused, "invalid_field_value", { field: "enabled_events" });
      expect(refused.body.errors![0]!.message).toMatch(/"order\.vanished" is not an event type/);
    });

    it("repeats a creation with the same idempotencyKey as the same endpoint, without its secret", async () => {
      const tenant = await createTenant(server);
      const mutation = `mutation ($key: String) { createWebhookEndpoint(input: { url: "${RECEIVER}", enabledEvents: ["*"] }, idempotencyKey: $key) { id secret } }`;
      const first = await graphql(server, mutation, { key: "gql-endpoint-1" }, { key: tenant.key });
      const again = await graphql(server, mutation, { key: "gql-endpoint-1" }, { key: tenant.key });
      expect(first.body.data.createWebhookEndpoint.secret).toMatch(/^whsec_/);
      expect(again.body.data.createWebhookEndpoint).toEqual({ id: first.body.data.createWebhookEndpoint.id, secret: null });
    });
  });
});
