import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { asAppError, graphqlErrorExtensions, restErrorBody } from "../../src/errors/render-error";
import { type ApiResponse, type TenantFixture, call, createTenant, graphql, startServerWithTenant } from "../helpers/client";
import { expectCatalogueError } from "../helpers/error-shape";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** The error catalogue (docs/errors.md#the-rest-error-body) on every path a client can reach. */
describe("error catalogue", () => {
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => ({ server, tenant } = await startServerWithTenant()));
  afterAll(() => server.close());

  describe("REST error body", () => {
    it("an unauthenticated request gets every field of both variants, requestId equal to x-request-id", async () => {
      const response = await call(server, "GET", "/v1/tenant");
      expectCatalogueError(response, 401, "unauthorized");
      expect(response.body.errorCode).toBe("UNAUTHORIZED");
      expect(response.body.retryable).toBe(false);
      expect(response.body.environment).toBeNull();
      expect(response.body.requestId).toBe(response.headers.get("x-request-id"));
    });

    it("a tenant's error names its environment", async () => {
      const response = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { timezone: "Mars/Olympus_Mons" } });
      expectCatalogueError(response, 422, "invalid_field_value");
      expect(response.body.environment).toBe("sandbox");
      expect(response.body.errors[0].field).toBe("timezone");
    });

    it("a tenant key on an owner path is 403 forbidden", async () => {
      const response = await call(server, "GET", "/v1/tenants", { key: tenant.key, keyHeader: "x-api-key" });
      expectCatalogueError(response, 403, "forbidden");
    });

    it("malformed JSON is 400 invalid_json", async () => {
      const response = await call(server, "POST", "/v1/tenants", { key: server.ownerKey, rawBody: '{"name": "x", ' });
      expectCatalogueError(response, 400, "invalid_json");
      expect(response.body.errorCode).toBe("INVALID_JSON");
    });

    it("a prototype-poisoning body is 400 invalid_json, not a 500", async () => {
      const response = await call(server, "POST", "/v1/tenants", {
        key: server.ownerKey,
        rawBody: '{"name": "x", "email": "a@b.test", "__proto__": {"isAdmin": true}}',
      });
      expectCatalogueError(response, 400, "invalid_json");
    });

    it("a body over 1 MB is 413 payload_too_large", async () => {
      const response = await call(server, "POST", "/v1/tenants", {
        key: server.ownerKey,
        body: { name: "x".repeat(1024 * 1024 + 10), email: "big@agency.test" },
      });
      expectCatalogueError(response, 413, "payload_too_large");
      expect(response.body.errorCode).toBe("PAYLOAD_TOO_LARGE");
    });

    it("a non-JSON content type on a JSON route is 415 unsupported_media_type", async () => {
      const response = await call(server, "POST", "/v1/tenants", {
        key: server.ownerKey,
        rawBody: "name=x&email=a%40b.test",
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
      expectCatalogueError(response, 415, "unsupported_media_type");
      const plain = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, rawBody: "hello", headers: { "content-type": "text/plain" } });
      expectCatalogueError(plain, 415, "unsupported_media_type");
    });

    it("wrong field types are 400 validation_failed naming the field", async () => {
      const response = await call(server, "POST", "/v1/tenants", { key: server.ownerKey, body: { name: 42, email: "a@b.test" } });
      expectCatalogueError(response, 400, "validation_failed");
      expect(response.body.errors[0].field).toBe("name");
    });

    it("an unknown route is 404 route_not_found, with or without a key", async () => {
      const outside = await call(server, "GET", "/no/such/route");
      expectCatalogueError(outside, 404, "route_not_found");
      const underV1 = await call(server, "GET", "/v1/no-such-route", { key: tenant.key });
      expectCatalogueError(underV1, 404, "route_not_found");
      const wrongMethod = await call(server, "PUT", "/v1/tenant", { key: tenant.key, body: {} });
      expectCatalogueError(wrongMethod, 404, "route_not_found");
    });

    it("a malformed percent-encoding in a path id is 400 validation_failed, from the catalogue, with its request id", async () => {
      const response = await call(server, "GET", "/v1/air/orders/%E0%A4%A", { key: tenant.key });
      expectCatalogueError(response, 400, "validation_failed");
    });

    it("a path id far longer than any id reaches its route: 404 like any unknown id", async () => {
      const response = await call(server, "GET", `/v1/air/orders/ord_${"x".repeat(500)}`, { key: tenant.key });
      expectCatalogueError(response, 404, "not_found");
    });

    it("an unknown tenant id is 404 tenant_not_found", async () => {
      const response = await call(server, "GET", "/v1/tenants/ten_doesnotexist", { key: server.ownerKey });
      expectCatalogueError(response, 404, "tenant_not_found");
    });

    it("a bad limit is 400 LIMIT_OUT_OF_RANGE, spelled as the interface writes it", async () => {
      const response = await call(server, "GET", "/v1/tenants?limit=500", { key: server.ownerKey });
      expectCatalogueError(response, 400, "LIMIT_OUT_OF_RANGE");
      expect(response.body.errorCode).toBe("LIMIT_OUT_OF_RANGE");
    });
  });

  describe("x-request-id", () => {
    it("is on every response: success, error, unknown route, /healthz, /graphql, /metrics", async () => {
      const responses = await Promise.all([
        call(server, "GET", "/v1/tenant", { key: tenant.key }),
        call(server, "GET", "/v1/tenant"),
        call(server, "GET", "/nowhere"),
        call(server, "GET", "/healthz"),
        call(server, "GET", "/readyz"),
        call(server, "GET", "/metrics"),
        call(server, "GET", "/openapi.json"),
        graphql(server, "{ viewer { kind } }", {}, { key: tenant.key }),
        graphql(server, "{ viewer { kind } }"),
        call(server, "GET", "/graphql", { headers: { accept: "text/html" } }),
      ]);
      expect(responses.map((r) => r.status)).toEqual([200, 401, 404, 200, 200, 200, 200, 200, 401, 200]);
      const ids = responses.map((r) => r.headers.get("x-request-id"));
      for (const id of ids) expect(id).toMatch(/^[A-Za-z0-9._:-]{8,}$/);
      expect(new Set(ids).size).toBe(ids.length);
    });

    it("echoes a sane client-sent id, on success and on error", async () => {
      const ok = await call(server, "GET", "/v1/tenant", { key: tenant.key, headers: { "x-request-id": "trace-abc-12345678" } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get("x-request-id")).toBe("trace-abc-12345678");
      const failed = await call(server, "GET", "/v1/tenant", { headers: { "x-request-id": "trace:err.0001" } });
      expectCatalogueError(failed, 401, "unauthorized");
      expect(failed.headers.get("x-request-id")).toBe("trace:err.0001");
      expect(failed.body.requestId).toBe("trace:err.0001");
    });

    it("replaces an insane client-sent id with its own", async () => {
      const response = await call(server, "GET", "/v1/tenant", { key: tenant.key, headers: { "x-request-id": "bad id <script>" } });
      expect(response.status).toBe(200);
      const id = response.headers.get("x-request-id");
      expect(id).not.toBe("bad id <script>");
      expect(id).toMatch(/^[A-Za-z0-9._:-]{8,64}$/);
    });
  });

  describe("GraphQL errors", () => {
    it("carry extensions.code and extensions.statusCode from the catalogue", async () => {
      const response = await graphql(server, "{ tenants(first: 1) { totalCount } }", {}, { key: tenant.key });
      expect(response.headers.get("x-request-id")).toBeTruthy();
      const error = response.body.errors?.[0];
      expect(error?.extensions).toMatchObject({ code: "forbidden", statusCode: 403 });
      expect(error?.message).toBe("This key may not perform this operation.");
    });

    it("a domain validation error keeps its code and field", async () => {
      const response = await graphql(
        server,
        "mutation($input: UpdateTenantConfigInput!) { updateTenantConfig(input: $input) { timezone } }",
        { input: { timezone: "Not/AZone" } },
        { key: tenant.key },
      );
      expect(response.status).toBe(200);
      expect(response.body.data).toBeNull();
      expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: "invalid_field_value", statusCode: 422, field: "timezone" });
      expect((response.body.errors?.[0] as { path?: unknown } | undefined)?.path).toEqual(["updateTenantConfig"]);
    });

    it("a syntax error is 400 with extensions.code validation_failed", async () => {
      const response = await graphql(server, "{ viewer { kind ", {}, { key: tenant.key });
      expect(response.status).toBe(400);
      expect(response.headers.get("x-request-id")).toBeTruthy();
      expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: "validation_failed", statusCode: 400 });
    });

    it("an unknown field is 400 with extensions.code validation_failed", async () => {
      const response = await graphql(server, "{ viewer { noSuchField } }", {}, { key: tenant.key });
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: "validation_failed", statusCode: 400 });
    });

    it("an unauthenticated POST /graphql is 401 with extensions.code unauthorized", async () => {
      const response = await graphql(server, "{ viewer { kind } }");
      expect(response.status).toBe(401);
      expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: "unauthorized", statusCode: 401 });
      const wrongKey = await graphql(server, "{ viewer { kind } }", {}, { key: "sk_test_notarealkeyatall000000000000" });
      expect(wrongKey.status).toBe(401);
      expect(wrongKey.body.errors?.[0]?.extensions.code).toBe("unauthorized");
    });

    it("malformed JSON to /graphql is a 400, never a 500", async () => {
      const response = await call(server, "POST", "/graphql", { key: tenant.key, rawBody: '{"query": ' });
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]?.extensions).toMatchObject({ code: "invalid_json", statusCode: 400 });
    });
  });

  describe("a 500", () => {
    let broken: TestServer;
    beforeAll(async () => {
      // A throwaway server whose Tenant table disappears under it: every tenant write fails inside Prisma.
      broken = await startTestServer();
      await broken.db.prisma.$executeRawUnsafe('ALTER TABLE "Tenant" RENAME TO "Tenant_gone"');
    });
    afterAll(() => broken.close());

    it("on REST shows neither a stack nor the internal message", async () => {
      const response = await call(broken, "POST", "/v1/tenants", { key: broken.ownerKey, body: { name: "Acme", email: "ops@acme.test" } });
      expectCatalogueError(response, 500, "internal_server_error");
      expect(response.body).toMatchObject({ fault: "server", retryable: true, message: "Something went wrong on our side." });
      const text = JSON.stringify(response.body);
      for (const leak of ["Tenant_gone", "Tenant", "prisma", "Prisma", "at ", "stack", "sqlite", "relation", ".ts:"]) {
        expect(text.includes(leak), `response leaks ${leak}: ${text}`).toBe(false);
      }
      expect(Object.keys(response.body).sort()).toEqual(
        ["apiVersion", "environment", "errorCode", "errors", "fault", "message", "reason", "requestId", "retryable", "statusCode", "success", "suggestedAction"].sort(),
      );
      expect(Object.keys(response.body.errors[0]).sort()).toEqual(["code", "message"]);
    });

    it("on GraphQL is masked as internal_server_error", async () => {
      const response = await graphql(broken, 'mutation { createTenant(input: { name: "Acme", email: "ops@acme.test" }) { id } }', {}, { key: broken.ownerKey });
      const error = response.body.errors?.[0];
      expect(error?.extensions).toMatchObject({ code: "internal_server_error", statusCode: 500 });
      expect(error?.message).toBe("Something went wrong on our side.");
      const text = JSON.stringify(response.body);
      for (const leak of ["Tenant_gone", "prisma", "Prisma", "stacktrace", ".ts:"]) expect(text.includes(leak), `leaks ${leak}: ${text}`).toBe(false);
    });

    it("renders an unknown thrown value as a bare internal_server_error", () => {
      const internal = new Error("connection to db-7.internal refused at Socket.connect (net.js:1)");
      const appErr = asAppError(internal);
      const body = restErrorBody(appErr, { requestId: "req_test", environment: null });
      expect(body).toMatchObject({ statusCode: 500, errorCode: "INTERNAL_SERVER_ERROR", fault: "server", retryable: true, requestId: "req_test" });
      expect(JSON.stringify(body)).not.toContain("db-7");
      expect(graphqlErrorExtensions(appErr)).toEqual({ code: "internal_server_error", statusCode: 500, retryable: true });
    });
  });

  describe("rate limiting", () => {
    let limited: TestServer;
    let first: string;
    let second: string;
    beforeAll(async () => {
      limited = await startTestServer({ env: { RATE_LIMIT_RPS: "2", RATE_LIMIT_BURST: "1" } });
      // Fixtures through the services, so setup spends none of the keys' allowance.
      const services = limited.app.services;
      const by = { actor: { type: "owner" as const, keyId: "key_test_setup", label: "test setup" }, requestId: null, ip: null, userAgent: null };
      const created = await services.tenants.create({ name: "Limited Agency", email: "ops@limited.test" }, by);
      first = (await services.apiKeys.create(created.id, { label: "first" }, by)).secret;
      second = (await services.apiKeys.create(created.id, { label: "second" }, by)).secret;
    });
    afterAll(() => limited.close());

    it("hammering one key gives 429 rate_limit_exceeded with Retry-After, while another key still gets 200", async () => {
      let refused: ApiResponse | undefined;
      let accepted = 0;
      for (let attempt = 0; attempt < 50 && !refused; attempt++) {
        const response = await call(limited, "GET", "/v1/tenant", { key: first });
        if (response.status === 429) refused = response;
        else {
          expect(response.status).toBe(200);
          accepted++;
        }
      }
      expect(refused, "no 429 after 50 requests").toBeDefined();
      expect(accepted).toBeGreaterThanOrEqual(2);
      expectCatalogueError(refused!, 429, "rate_limit_exceeded");
      expect(refused!.body.retryable).toBe(true);
      const retryAfter = refused!.headers.get("retry-after");
      expect(retryAfter).toMatch(/^\d+$/);
      expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);

      const other = await call(limited, "GET", "/v1/tenant", { key: second, keyHeader: "x-api-key" });
      expect(other.status).toBe(200);
    });

    it("limits GraphQL per key too, with extensions.code rate_limit_exceeded", async () => {
      let refused: Awaited<ReturnType<typeof graphql>> | undefined;
      for (let attempt = 0; attempt < 50 && !refused; attempt++) {
        const response = await graphql(limited, "{ viewer { kind } }", {}, { key: second });
        if (response.status === 429) refused = response;
      }
      expect(refused).toBeDefined();
      expect(refused!.body.errors?.[0]?.extensions).toMatchObject({ code: "rate_limit_exceeded", statusCode: 429 });
      expect(Number(refused!.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    });
  });
});
