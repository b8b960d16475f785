import { readFileSync } from "node:fs";
import {
  buildSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  type GraphQLField,
  type GraphQLInputType,
} from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations } from "../../src/context/operations";
import { call, createTenant, graphql, type ApiResponse, type RequestOptions, type TenantFixture } from "../helpers/client";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { SCALAR_SAMPLES } from "../helpers/schema-operations";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** Tenants, keys, viewer and tenant configuration over GraphQL (docs/graphql.md#conventions). */

const TENANT_FIELDS = "id name email slug environment status metadata createdAt updatedAt deletedAt";

/**
 * Every root field of the schema whose permission-table audience is `audience`, as a runnable
 * document with placeholder arguments: the guard refuses before any argument is looked at.
 */
function rootFieldDocuments(audience: "owner" | "tenant") {
  // Built here from the SDL, with this file's own graphql module (the server's may be another realm).
  const schema = buildSchema(readFileSync(new URL("../../schema.graphql", import.meta.url), "utf8"));
  const roots = [
    ["query", schema.getQueryType()],
    ["mutation", schema.getMutationType()],
  ] as const;
  return roots.flatMap(([kind, type]) =>
    Object.values(type?.getFields() ?? {})
      .filter((field) => (operations as Record<string, { audience: string }>)[field.name]?.audience === audience)
      .map((field) => ({ field: field.name, document: `${kind} { ${fieldCall(field)} }` })),
  );
}

function fieldCall(field: GraphQLField<unknown, unknown>): string {
  const required = field.args.filter((arg) => isNonNullType(arg.type));
  const args = required.length ? `(${required.map((arg) => `${arg.name}: ${placeholder(arg.type)}`).join(", ")})` : "";
  const selection = isObjectType(getNamedType(field.type)) ? " { __typename }" : "";
  return `${field.name}${args}${selection}`;
}

/** A literal of the input type: required fields filled, enums their first value. */
function placeholder(type: GraphQLInputType): string {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (isListType(inner)) return `[${placeholder(inner.ofType)}]`;
  if (isEnumType(inner)) return inner.getValues()[0]!.name;
  if (isInputObjectType(inner)) {
    const fields = Object.values(inner.getFields()).filter((field) => isNonNullType(field.type));
    return `{ ${fields.map((field) => `${field.name}: ${placeholder(field.type)}`).join(", ")} }`;
  }
  const scalars: Record<string, string> = { Int: "1", Float: "1", Boolean: "true", JSONObject: "{}", DateTime: '"2030-01-01T00:00:00Z"' };
  const sample = SCALAR_SAMPLES[inner.name];
  return scalars[inner.name] ?? (sample === undefined ? '"x"' : JSON.stringify(sample));
}

describe("GraphQL tenants", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server, { name: "Graph Travel" });
  });
  afterAll(() => server.close());

  const asOwner = (query: string, variables: Record<string, unknown> = {}, headers: Record<string, string> = {}) =>
    graphql(server, query, variables, { key: server.ownerKey, headers });
  /** The data of a successful operation; fails the test with the errors otherwise. */
  const dataOf = async <T = any>(response: Promise<ApiResponse<{ data?: unknown; errors?: unknown }>>): Promise<T> => {
    const { status, body } = await response;
    expect({ status, errors: body.errors }).toEqual({ status: 200, errors: undefined });
    return body.data as T;
  };
  const restAsOwner = (method: string, path: string, options: Omit<RequestOptions, "key"> = {}) => call(server, method, path, { ...options, key: server.ownerKey });

  describe("viewer", () => {
    const VIEWER = `{ viewer { kind keyId tenant { id name slug environment status defaultCurrency timezone webhookUrl webhookEnabled metadata createdAt updatedAt } } }`;

    it("is the owner, with no tenant, for the owner key", async () => {
      const { viewer } = await dataOf(asOwner(VIEWER));
      expect(viewer).toEqual({ kind: "OWNER", keyId: expect.any(String), tenant: null });
    });

    it.each(["authorization", "x-api-key"] as const)("is the tenant, with its configuration, for a tenant key in %s", async (keyHeader) => {
      const { viewer } = await dataOf(graphql(server, VIEWER, {}, { key: tenant.key, keyHeader }));
      expect(viewer).toEqual({
        kind: "TENANT",
        keyId: tenant.keyId,
        tenant: {
          id: tenant.tenantId,
          name: "Graph Travel",
          slug: "graph-travel",
          environment: "SANDBOX",
          status: "ACTIVE",
          defaultCurrency: expect.stringMatching(/^[A-Z]{3}$/),
          timezone: expect.any(String),
          webhookUrl: null,
          webhookEnabled: false,
          metadata: {},
          createdAt: expect.any(String),
          updatedAt: expect.any(String),
        },
      });
    });

    it("is the owner acting for the tenant named in Service-Tenant", async () => {
      const { viewer } = await dataOf(asOwner(VIEWER, {}, { "service-tenant": tenant.tenantId }));
      expect(viewer).toMatchObject({ kind: "OWNER", tenant: { id: tenant.tenantId, status: "ACTIVE" } });
    });

    it("refuses an unknown tenant in Service-Tenant with tenant_not_found", async () => {
      expectGraphQLError(await asOwner(VIEWER, {}, { "service-tenant": "ten_neverexisted" }), "tenant_not_found", { statusCode: 404 });
    });

    it.each([
      ["no key", {}],
      ["a garbage key", { key: "sk_test_garbage" }],
      ["a garbage x-api-key", { key: "nonsense", keyHeader: "x-api-key" as const }],
    ])("refuses %s with HTTP 401 unauthorized", async (_case, options) => {
      expectGraphQLError(await graphql(server, VIEWER, {}, options), "unauthorized", { httpStatus: 401, statusCode: 401 });
    });
  });

  describe("permissions", () => {
    it.each(rootFieldDocuments("owner"))("refuses a tenant key on the owner field $field with forbidden", async ({ document }) => {
      expectGraphQLError(await graphql(server, document, {}, { key: tenant.key }), "forbidden", { statusCode: 403 });
    });

    it.each(rootFieldDocuments("tenant"))("refuses the owner without Service-Tenant on the tenant field $field with tenant_required", async ({ document }) => {
      expectGraphQLError(await asOwner(document), "tenant_required", { statusCode: 400 });
    });

    it("finds every owner-only root field in the permission table", () => {
      const owner = rootFieldDocuments("owner").map(({ field }) => field);
      expect(owner).toEqual(expect.arrayContaining(["tenants", "tenant", "createTenant", "updateTenantStatus", "deleteTenant", "createTenantApiKey", "revokeTenantApiKey"]));
    });
  });

  describe("tenants connection", () => {
    const TENANTS_PAGE = `query ($first: Int, $after: String, $last: Int, $before: String) {
      tenants(first: $first, after: $after, last: $last, before: $before) {
        totalCount
        pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
        edges { cursor node { id status environment } }
      }
    }`;
    type Connection = {
      totalCount: number;
      pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string | null };
      edges: Array<{ cursor: string; node: { id: string; status: string; environment: string } }>;
    };
    const tenantsPage = async (variables: Record<string, unknown>) => (await dataOf<{ tenants: Connection }>(asOwner(TENANTS_PAGE, variables))).tenants;
    const ids = (connection: Connection) => connection.edges.map((edge) => edge.node.id);

    let restOrder: string[];
    beforeAll(async () => {
      for (let i = 0; i < 6; i++) await createTenant(server, { name: `Paged ${i}` });
      const rest = await restAsOwner("GET", "/v1/tenants?limit=100");
      restOrder = rest.body.data.items.map((item: { tenantId: string }) => item.tenantId);
    });

    it("walks every tenant with first/after in the REST order, with totalCount and pageInfo", async () => {
      const seen: string[] = [];
      let page = await tenantsPage({ first: 3 });
      expect(page.pageInfo.hasPreviousPage).toBe(false);
      for (;;) {
        expect(page.totalCount).toBe(restOrder.length);
        expect(page.pageInfo.startCursor).toBe(page.edges[0]?.cursor ?? null);
        expect(page.pageInfo.endCursor).toBe(page.edges.at(-1)?.cursor ?? null);
        seen.push(...ids(page));
        if (!page.pageInfo.hasNextPage) break;
        page = await tenantsPage({ first: 3, after: page.pageInfo.endCursor });
        expect(page.pageInfo.hasPreviousPage).toBe(true);
      }
      expect(seen).toEqual(restOrder);
    });

    it("continues after any edge's cursor", async () => {
      const page = await tenantsPage({ first: 5 });
      for (const [index, edge] of page.edges.entries()) {
        const after = await tenantsPage({ first: 2, after: edge.cursor });
        expect(ids(after)).toEqual(restOrder.slice(index + 1, index + 3));
      }
    });

    it("pages back with last/before", async () => {
      const page = await tenantsPage({ first: 5 });
      const before = await tenantsPage({ last: 2, before: page.edges[3]!.cursor });
      expect(ids(before)).toEqual(restOrder.slice(1, 3));
    });

    it("uses UPPER_CASE enum values", async () => {
      const page = await tenantsPage({ first: 1 });
      expect(page.edges[0]!.node).toMatchObject({ status: "ACTIVE", environment: "SANDBOX" });
    });

    it.each([0, 101, -5])("refuses first: %d with LIMIT_OUT_OF_RANGE", async (first) => {
      expectGraphQLError(await asOwner(TENANTS_PAGE, { first }), "LIMIT_OUT_OF_RANGE", { statusCode: 400 });
    });

    it("refuses a garbage or foreign cursor with INVALID_CURSOR", async () => {
      expectGraphQLError(await asOwner(TENANTS_PAGE, { first: 2, after: "garbage" }), "INVALID_CURSOR", { statusCode: 400 });
      const keys = await dataOf(asOwner(`query ($id: ID!) { tenant(id: $id) { apiKeys(first: 1) { edges { cursor } } } }`, { id: tenant.tenantId }));
      const keyCursor = keys.tenant.apiKeys.edges[0].cursor;
      expectGraphQLError(await asOwner(TENANTS_PAGE, { first: 2, after: keyCursor }), "INVALID_CURSOR", { statusCode: 400 });
    });

    it("refuses last without before with validation_failed", async () => {
      expectGraphQLError(await asOwner(TENANTS_PAGE, { last: 2 }), "validation_failed", { statusCode: 400 });
    });
  });

  describe("tenant(id)", () => {
    it("returns the tenant with its keys and usage", async () => {
      const { tenant: read } = await dataOf(
        asOwner(`query ($id: ID!) { tenant(id: $id) { ${TENANT_FIELDS} apiKeys { totalCount nodes { id label prefix revokedAt } } usage { apiRequests } } }`, {
          id: tenant.tenantId,
        }),
      );
      expect(read).toMatchObject({ id: tenant.tenantId, name: "Graph Travel", email: "ops@agency.test", status: "ACTIVE", environment: "SANDBOX", deletedAt: null });
      expect(read.apiKeys).toEqual({ totalCount: 1, nodes: [{ id: tenant.keyId, label: "test", prefix: expect.any(String), revokedAt: null }] });
      expect(read.usage.apiRequests).toEqual(expect.any(Number));
    });

    it("is null, without an error, for an id that never existed", async () => {
      const response = await asOwner(`{ tenant(id: "ten_neverexisted") { id } }`);
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { tenant: null } });
    });

    it("never offers a key's secret", async () => {
      const response = await asOwner(`query ($id: ID!) { tenant(id: $id) { apiKeys { nodes { apiKey } } } }`, { id: tenant.tenantId });
      expectGraphQLError(response, "validation_failed", { httpStatus: 400 });
    });
  });

  describe("owner mutations", () => {
    const CREATE = `mutation ($input: CreateTenantInput!) { createTenant(input: $input) { ${TENANT_FIELDS} } }`;
    const SET_STATUS = `mutation ($id: ID!, $status: TenantStatusInput!) { updateTenantStatus(id: $id, status: $status) { id status } }`;
    const DELETE = `mutation ($id: ID!) { deleteTenant(id: $id) { ${TENANT_FIELDS} } }`;
    const CREATE_KEY = `mutation ($tenantId: ID!, $label: String!) { createTenantApiKey(tenantId: $tenantId, label: $label) { apiKey key { id label prefix createdAt revokedAt } } }`;
    const REVOKE_KEY = `mutation ($tenantId: ID!, $keyId: ID!) { revokeTenantApiKey(tenantId: $tenantId, keyId: $keyId) { id revokedAt } }`;

    const createGraphTenant = async (input: Record<string, unknown> = {}) =>
      (await dataOf(asOwner(CREATE, { input: { name: "Mutated Travel", email: "m@x.test", ...input } }))).createTenant;
    const issueKey = async (tenantId: string, label = "gql") => (await dataOf(asOwner(CREATE_KEY, { tenantId, label }))).createTenantApiKey;
    const restConfigStatus = (key: string) => call(server, "GET", "/v1/tenant", { key }).then((response) => response.status);

    it("createTenant creates an active sandbox tenant by default, or a live one", async () => {
      const sandbox = await createGraphTenant({ metadata: { crm: "7" } });
      expect(sandbox).toMatchObject({ name: "Mutated Travel", status: "ACTIVE", environment: "SANDBOX", metadata: { crm: "7" }, deletedAt: null });
      expect(sandbox.id).toMatch(/^ten_/);
      expect((await createGraphTenant({ environment: "LIVE" })).environment).toBe("LIVE");
    });

    it.each([
      ["a malformed email", { email: "nope" }, "email"],
      ["a blank name", { name: " " }, "name"],
      ["metadata with 21 pairs", { metadata: Object.fromEntries(Array.from({ length: 21 }, (_, i) => [`k${i}`, "v"])) }, "metadata"],
    ])("createTenant refuses %s with validation_failed naming the field", async (_case, input, field) => {
      const response = await asOwner(CREATE, { input: { name: "Bad", email: "bad@x.test", ...input } });
      expectGraphQLError(response, "validation_failed", { statusCode: 400, field });
    });

    it("createTenant refuses a lower-case enum value", async () => {
      expectGraphQLError(await asOwner(CREATE, { input: { name: "Bad", email: "bad@x.test", environment: "live" } }), "validation_failed", { httpStatus: 400 });
    });

    it("updateTenantStatus suspends and reactivates, taking effect on the tenant's keys at once", async () => {
      const created = await createGraphTenant();
      const { apiKey } = await issueKey(created.id);
      expect((await dataOf(asOwner(SET_STATUS, { id: created.id, status: "SUSPENDED" }))).updateTenantStatus).toEqual({ id: created.id, status: "SUSPENDED" });
      expect(await restConfigStatus(apiKey)).toBe(403);
      expect((await dataOf(asOwner(SET_STATUS, { id: created.id, status: "ACTIVE" }))).updateTenantStatus.status).toBe("ACTIVE");
      expect(await restConfigStatus(apiKey)).toBe(200);
    });

    it("updateTenantStatus refuses DELETED (not a settable status) and unknown tenants", async () => {
      expectGraphQLError(await asOwner(SET_STATUS, { id: tenant.tenantId, status: "DELETED" }), "validation_failed", { httpStatus: 400 });
      expectGraphQLError(await asOwner(SET_STATUS, { id: "ten_neverexisted", status: "ACTIVE" }), "tenant_not_found", { statusCode: 404 });
    });

    it("deleteTenant leaves a tombstone, stops its keys, and refuses later changes with tenant_deleted", async () => {
      const created = await createGraphTenant();
      const { apiKey } = await issueKey(created.id);
      const { deleteTenant } = await dataOf(asOwner(DELETE, { id: created.id }));
      expect(deleteTenant).toMatchObject({ id: created.id, status: "DELETED", name: null, email: null, metadata: {}, deletedAt: expect.any(String) });
      expect((await dataOf(asOwner(`query ($id: ID!) { tenant(id: $id) { status name } }`, { id: created.id }))).tenant).toEqual({ status: "DELETED", name: null });
      expectError(await call(server, "GET", "/v1/tenant", { key: apiKey }), 401, "unauthorized");
      expectGraphQLError(await asOwner(SET_STATUS, { id: created.id, status: "ACTIVE" }), "tenant_deleted", { statusCode: 409 });
      expectGraphQLError(await asOwner(CREATE_KEY, { tenantId: created.id, label: "late" }), "tenant_deleted", { statusCode: 409 });
    });

    it("createTenantApiKey returns the secret once, with the environment's prefix", async () => {
      const live = await createGraphTenant({ environment: "LIVE" });
      const created = await issueKey(live.id, "live key");
      expect(created.apiKey).toMatch(/^sk_live_[A-Za-z0-9]{32}$/);
      expect(created.key).toMatchObject({ id: expect.stringMatching(/^key_/), label: "live key", revokedAt: null });
      expect(created.apiKey.startsWith(created.key.prefix)).toBe(true);
      expect((await issueKey(tenant.tenantId)).apiKey).toMatch(/^sk_test_/);
      const { viewer } = await dataOf(graphql(server, "{ viewer { kind tenant { id environment } } }", {}, { key: created.apiKey }));
      expect(viewer).toEqual({ kind: "TENANT", tenant: { id: live.id, environment: "LIVE" } });
    });

    it("createTenantApiKey refuses a blank label with validation_failed", async () => {
      expectGraphQLError(await asOwner(CREATE_KEY, { tenantId: tenant.tenantId, label: "  " }), "validation_failed", { statusCode: 400, field: "label" });
    });

    it("revokeTenantApiKey stops the key at once and leaves the others working", async () => {
      const created = await createGraphTenant();
      const doomed = await issueKey(created.id, "doomed");
      const kept = await issueKey(created.id, "kept");
      const { revokeTenantApiKey } = await dataOf(asOwner(REVOKE_KEY, { tenantId: created.id, keyId: doomed.key.id }));
      expect(revokeTenantApiKey).toEqual({ id: doomed.key.id, revokedAt: expect.any(String) });
      expectGraphQLError(await graphql(server, "{ viewer { kind } }", {}, { key: doomed.apiKey }), "unauthorized", { httpStatus: 401 });
      expect(await restConfigStatus(kept.apiKey)).toBe(200);
    });

    it("revokeTenantApiKey answers not_found for another tenant's key", async () => {
      const other = await createGraphTenant();
      const response = await asOwner(REVOKE_KEY, { tenantId: other.id, keyId: tenant.keyId });
      expectGraphQLError(response, "not_found", { statusCode: 404 });
      expect(await restConfigStatus(tenant.key)).toBe(200);
    });
  });

  describe("updateTenantConfig", () => {
    const UPDATE = `mutation ($input: UpdateTenantConfigInput!) { updateTenantConfig(input: $input) { id timezone defaultCurrency webhookUrl webhookEnabled metadata status environment } }`;

    it("changes the calling tenant's configuration", async () => {
      const own = await createTenant(server);
      const input = { timezone: "Europe/Berlin", defaultCurrency: "EUR", webhookUrl: "https://hooks.example.com/g", webhookEnabled: true, metadata: { a: "b" } };
      const { updateTenantConfig } = await dataOf(graphql(server, UPDATE, { input }, { key: own.key }));
      expect(updateTenantConfig).toEqual({ id: own.tenantId, ...input, status: "ACTIVE", environment: "SANDBOX" });
      const rest = await call(server, "GET", "/v1/tenant", { key: own.key });
      expect(rest.body.data).toMatchObject({ timezone: "Europe/Berlin", default_currency: "EUR", webhook_enabled: true, metadata: { a: "b" } });
    });

    it.each([
      ["an unknown timezone", { timezone: "Atlantis/Capital" }, "timezone"],
      ["an unknown currency", { defaultCurrency: "ABC" }, "default_currency"],
      ["a non-http webhookUrl", { webhookUrl: "ftp://hooks.example.com" }, "webhook_url"],
      ["webhookEnabled without a URL", { webhookEnabled: true }, "webhook_enabled"],
    ])("refuses %s with invalid_field_value, changing nothing", async (_case, input, field) => {
      const own = await createTenant(server);
      const before = await call(server, "GET", "/v1/tenant", { key: own.key });
      expectGraphQLError(await graphql(server, UPDATE, { input }, { key: own.key }), "invalid_field_value", { statusCode: 422, field });
      expect((await call(server, "GET", "/v1/tenant", { key: own.key })).body.data).toEqual(before.body.data);
    });

    it("works for the owner acting with Service-Tenant", async () => {
      const own = await createTenant(server);
      const { updateTenantConfig } = await dataOf(asOwner(UPDATE, { input: { timezone: "Asia/Tokyo" } }, { "service-tenant": own.tenantId }));
      expect(updateTenantConfig).toMatchObject({ id: own.tenantId, timezone: "Asia/Tokyo" });
    });
  });
});
