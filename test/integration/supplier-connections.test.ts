import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, startServerWithTenant, type TenantFixture } from "../helpers/client";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { killStillRunning, startMain, waitUntilHealthy, type Running } from "../helpers/main-process";
import { newKey } from "../helpers/orders";
import { subscribe, wsClient } from "../helpers/subscriptions";
import { whereStored } from "../helpers/stored-secrets";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { generateSecret } from "../../src/tenancy/api-key-secret";

/**
 * A tenant connects its own Duffel account with its access token: the connection shows its mode
 * and status, never the token, which is stored only encrypted (AES-256-GCM under
 * SUPPLIER_SECRETS_KEY), and appears in no row, idempotency record, answer or log line.
 */

const SECRETS_KEY = randomBytes(32).toString("base64");
const testToken = () => `duffel_test_${randomBytes(24).toString("base64url")}`;
const liveToken = () => `duffel_live_${randomBytes(24).toString("base64url")}`;

describe("supplier connections", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  let live: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ env: { SUPPLIER_SECRETS_KEY: SECRETS_KEY } });
    tenant = await createTenant(server);
    live = await createTenant(server, { environment: "live" });
  });
  afterAll(() => server.close());

  it("connects a sandbox tenant with a duffel_test_ token: 201 with mode test, listed, never showing the token", async () => {
    const token = testToken();
    const created = await call(server, "POST", "/v1/supplier_connections", { key: tenant.key, body: { supplier: "duffel", access_token: token } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    expect(created.body.data).toEqual({
      id: expect.stringMatching(/^spc_/),
      supplier: "duffel",
      mode: "test",
      created_at: expect.any(String),
      last_used_at: null,
      status: "active",
      webhook_path: `/suppliers/duffel/webhooks/${created.body.data.id}`,
      webhook_secret_set: false,
    });
    const listed = await call(server, "GET", "/v1/supplier_connections", { key: tenant.key });
    expect(listed.body.data).toEqual([created.body.data]);
    expect(JSON.stringify([created.body, listed.body])).not.toContain(token);
    expect(await whereStored(server, token)).toEqual([]);

    const deleted = await call(server, "DELETE", `/v1/supplier_connections/${created.body.data.id}`, { key: tenant.key });
    expect(deleted.body.data).toEqual(created.body.data);
    expect((await call(server, "GET", "/v1/supplier_connections", { key: tenant.key })).body.data).toEqual([]);
    expect(await server.db.prisma.supplierConnection.count({ where: { tenantId: tenant.tenantId } })).toBe(0);
  });

  it("connects a live tenant only with a duffel_live_ token, and a sandbox tenant only with a test one: 422 otherwise, storing nothing", async () => {
    expectError(await call(server, "POST", "/v1/supplier_connections", { key: live.key, body: { supplier: "duffel", access_token: testToken() } }), 422, "invalid_field_value", "access_token");
    expectError(await call(server, "POST", "/v1/supplier_connections", { key: tenant.key, body: { supplier: "duffel", access_token: liveToken() } }), 422, "invalid_field_value", "access_token");
    expect(await server.db.prisma.supplierConnection.count()).toBe(0);
    const connected = await call(server, "POST", "/v1/supplier_connections", { key: live.key, body: { supplier: "duffel", access_token: liveToken() } });
    expect(connected.status).toBe(201);
    expect(connected.body.data.mode).toBe("live");
    await call(server, "DELETE", `/v1/supplier_connections/${connected.body.data.id}`, { key: live.key });
  });

  it.each([
    ["an unknown supplier", { supplier: "amadeus", access_token: "duffel_test_abcdefghijkl" }, "supplier"],
    ["a token without Duffel's prefix", { supplier: "duffel", access_token: "sk_test_abcdefghijklmnop" }, "access_token"],
    ["no token", { supplier: "duffel" }, "access_token"],
    ["an unknown field", { supplier: "duffel", access_token: "duffel_test_abcdefghijkl", label: "x" }, "label"],
  ])("refuses %s with 422 naming the field, without repeating the token", async (_label, body, field) => {
    const refused = await call(server, "POST", "/v1/supplier_connections", { key: tenant.key, body });
    expectError(refused, 422, "invalid_field_value", field);
    if ("access_token" in body) expect(JSON.stringify(refused.body)).not.toContain(body.access_token);
  });

  it("refuses a second connection to the same supplier with 409 until the first is deleted", async () => {
    const first = await call(server, "POST", "/v1/supplier_connections", { key: tenant.key, body: { supplier: "duffel", access_token: testToken() } });
    expectError(await call(server, "POST", "/v1/supplier_connections", { key: tenant.key, body: { supplier: "duffel", access_token: testToken() } }), 409, "supplier_connection_exists", "supplier");
    await call(server, "DELETE", `/v1/supplier_connections/${first.body.data.id}`, { key: tenant.key });
  });

  it("shows and deletes only the tenant's own connections: another tenant's id is 404", async () => {
    const own = await call(server, "POST", "/v1/supplier_connections", { key: tenant.key, body: { supplier: "duffel", access_token: testToken() } });
    const other = await createTenant(server);
    expect((await call(server, "GET", "/v1/supplier_connections", { key: other.key })).body.data).toEqual([]);
    expectError(await call(server, "DELETE", `/v1/supplier_connections/${own.body.data.id}`, { key: other.key }), 404, "not_found");
    expect((await call(server, "GET", "/v1/supplier_connections", { key: tenant.key })).body.data).toHaveLength(1);
    await call(server, "DELETE", `/v1/supplier_connections/${own.body.data.id}`, { key: tenant.key });
  });

  it("lets the owner connect on the tenant's behalf with Service-Tenant", async () => {
    const headers = { "service-tenant": tenant.tenantId };
    const created = await call(server, "POST", "/v1/supplier_connections", { key: server.ownerKey, headers, body: { supplier: "duffel", access_token: testToken() } });
    expect(created.status).toBe(201);
    expect((await call(server, "GET", "/v1/supplier_connections", { key: tenant.key })).body.data.map((c: { id: string }) => c.id)).toEqual([created.body.data.id]);
    await call(server, "DELETE", `/v1/supplier_connections/${created.body.data.id}`, { key: server.ownerKey, headers });
  });

  it("keeps the token out of the Idempotency-Key record: a repeat replays the answer, and no row holds the token", async () => {
    const token = testToken();
    const headers = { "idempotency-key": newKey("spc") };
    const first = await call(server, "POST", "/v1/supplier_connections", { key: tenant.key, headers, body: { supplier: "duffel", access_token: token } });
    const replay = await call(server, "POST", "/v1/supplier_connections", { key: tenant.key, headers, body: { supplier: "duffel", access_token: token } });
    expect(first.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(first.body);
    expect(await whereStored(server, token)).toEqual([]);
    const stored = await server.db.prisma.supplierConnection.findUniqueOrThrow({ where: { id: first.body.data.id } });
    expect(stored.encryptedToken).toMatch(/^v1\./);
    await call(server, "DELETE", `/v1/supplier_connections/${first.body.data.id}`, { key: tenant.key });
  });

  it("creating a connection's webhook at its supplier without PUBLIC_URL is 503 public_url_unset, and nothing changes", async () => {
    const own = await createTenant(server);
    const connected = await call(server, "POST", "/v1/supplier_connections", { key: own.key, body: { supplier: "duffel", access_token: testToken() } });
    expect(connected.status, JSON.stringify(connected.body)).toBe(201);
    expectError(await call(server, "POST", `/v1/supplier_connections/${connected.body.data.id}/actions/register_webhook`, { key: own.key }), 503, "public_url_unset");
    expect((await call(server, "GET", "/v1/supplier_connections", { key: own.key })).body.data[0].webhook_secret_set).toBe(false);
  });

  it("has GraphQL twins: createSupplierConnection, supplierConnections and deleteSupplierConnection", async () => {
    const token = testToken();
    const created = await graphql(server, `mutation ($input: CreateSupplierConnectionInput!) { createSupplierConnection(input: $input) { id supplier mode status createdAt lastUsedAt } }`, { input: { supplier: "duffel", accessToken: token } }, { key: tenant.key });
    expect(created.body.errors).toBeUndefined();
    const connection = created.body.data.createSupplierConnection;
    expect(connection).toMatchObject({ id: expect.stringMatching(/^spc_/), supplier: "duffel", mode: "TEST", status: "ACTIVE", lastUsedAt: null });
    const listed = await graphql(server, "{ supplierConnections { id mode } }", {}, { key: tenant.key });
    expect(listed.body.data.supplierConnections).toEqual([{ id: connection.id, mode: "TEST" }]);
    const wrongMode = await graphql(server, `mutation { createSupplierConnection(input: { supplier: "duffel", accessToken: "${testToken()}" }) { id } }`, {}, { key: live.key });
    expectGraphQLError(wrongMode, "invalid_field_value", { field: "accessToken" });
    expect(wrongMode.body.errors?.[0]?.message).toContain("accessToken:");
    const deleted = await graphql(server, "mutation ($id: ID!) { deleteSupplierConnection(id: $id) { id } }", { id: connection.id }, { key: tenant.key });
    expect(deleted.body.data.deleteSupplierConnection.id).toBe(connection.id);
    expect(await whereStored(server, token)).toEqual([]);
  });

  it("refuses a repeated Idempotency-Key with a different token: 422 idempotency_key_reused, the new token not dropped silently", async () => {
    const headers = { "idempotency-key": newKey("spc") };
    const first = await call(server, "POST", "/v1/supplier_connections", { key: tenant.key, headers, body: { supplier: "duffel", access_token: testToken() } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const otherToken = testToken();
    const second = await call(server, "POST", "/v1/supplier_connections", { key: tenant.key, headers, body: { supplier: "duffel", access_token: otherToken } });
    expectError(second, 422, "idempotency_key_reused");
    expect(second.headers.get("idempotent-replayed")).toBeNull();
    expect(await whereStored(server, otherToken)).toEqual([]);
    await call(server, "DELETE", `/v1/supplier_connections/${first.body.data.id}`, { key: tenant.key });
  });

  it("never repeats a variable's value in a GraphQL coercion error, over HTTP and WebSocket", async () => {
    const token = testToken();
    const mutation = "mutation ($input: CreateSupplierConnectionInput!) { createSupplierConnection(input: $input) { id } }";
    const wrongInputs = [
      { input: { supplier: "duffel", accessToken: token, label: "mine" } },
      { input: { supplier: ["duffel", token], accessToken: token } },
      { input: { supplier: "duffel", accessToken: { value: token } } },
    ];
    for (const variables of wrongInputs) {
      const response = await graphql(server, mutation, variables, { key: tenant.key });
      expectGraphQLError(response, "validation_failed", { httpStatus: 400 });
      expect(JSON.stringify(response.body)).not.toContain(token);
      expect(response.body.errors![0]!.message).toMatch(/^Variable "\$input" got an invalid value/);
    }
    const unknownField = await graphql(server, mutation, wrongInputs[0]!, { key: tenant.key });
    expect(unknownField.body.errors![0]!.message).toBe('Variable "$input" got an invalid value; Field "label" is not defined by type "CreateSupplierConnectionInput".');
    const wrongType = await graphql(server, mutation, wrongInputs[2]!, { key: tenant.key });
    expect(wrongType.body.errors![0]!.message).toBe('Variable "$input" got an invalid value at "input.accessToken"; Expected type "String".');

    const enumValue = await graphql(server, "query ($cabin: CabinClass) { destinations(origin: \"LON\", month: \"2030-01\", cabinClass: $cabin) { supplier } }", { cabin: token }, { key: tenant.key });
    expect(enumValue.body.errors![0]!.message).toBe('Variable "$cabin" got an invalid value; Expected type "CabinClass".');

    const client = wsClient(server.wsUrl, { authorization: `Bearer ${tenant.key}` });
    try {
      const overWebSocket = subscribe(client, mutation, wrongInputs[0]!);
      const [result] = await overWebSocket.waitForResults(1);
      expect(result!.errors?.[0]?.extensions?.code).toBe("validation_failed");
      expect(JSON.stringify(result)).not.toContain(token);
    } finally {
      await client.dispose();
    }
  });
});

describe("supplier connections without SUPPLIER_SECRETS_KEY", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    ({ server, tenant } = await startServerWithTenant());
  });
  afterAll(() => server.close());

  it("refuses to connect with 503 supplier_secrets_unset, storing nothing, and still lists (none)", async () => {
    expectError(await call(server, "POST", "/v1/supplier_connections", { key: tenant.key, body: { supplier: "duffel", access_token: testToken() } }), 503, "supplier_secrets_unset");
    expectGraphQLError(await graphql(server, `mutation { createSupplierConnection(input: { supplier: "duffel", accessToken: "${testToken()}" }) { id } }`, {}, { key: tenant.key }), "supplier_secrets_unset", { httpStatus: 503 });
    expect(await server.db.prisma.supplierConnection.count()).toBe(0);
    expect((await call(server, "GET", "/v1/supplier_connections", { key: tenant.key })).body.data).toEqual([]);
  });
});

describe("the token in the logs", () => {
  let database: TestDatabase;
  const started: Running[] = [];
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(async () => {
    await killStillRunning(started);
    await database.drop();
  });

  it("never appears in the process's output, at the most verbose log level, on success or refusal", async () => {
    const ownerKey = generateSecret("owner");
    const running = startMain({ DATABASE_URL: database.url, OWNER_API_KEY: ownerKey, SUPPLIER_SECRETS_KEY: SECRETS_KEY, LOG_LEVEL: "trace" });
    started.push(running);
    await waitUntilHealthy(running);
    const api = { url: running.baseUrl, ownerKey };
    const tenant = await createTenant(api);
    const token = testToken();
    const body = { supplier: "duffel", access_token: token };
    expect((await call(api, "POST", "/v1/supplier_connections", { key: tenant.key, body, headers: { "idempotency-key": newKey("spc") } })).status).toBe(201);
    expect((await call(api, "POST", "/v1/supplier_connections", { key: tenant.key, body })).status).toBe(409);
    expect((await call(api, "POST", "/v1/supplier_connections", { key: tenant.key, body: { ...body, extra: true } })).status).toBe(422);
    expect(running.stdout()).toContain("/v1/supplier_connections");
    expect(running.stdout() + running.stderr()).not.toContain(token);
  });
});
