import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServerWithTenant, type TenantFixture } from "../helpers/client";
import { databaseState } from "../helpers/database-state";
import { expectCatalogueError } from "../helpers/error-shape";
import { fillPath, isOwnerRoute, routeName, routesWithBody } from "../helpers/route-table";
import type { TestServer } from "../helpers/test-server";

/**
 * Where a route takes a body, anything but a JSON object is 400 `invalid_json`,
 * the answer malformed JSON gets: an empty body, no body at all, `null`, and any other JSON value
 * (array, string, number, boolean). Wrong fields inside an object stay each route's own error
 * (`validation_failed`, `invalid_search_params`, `invalid_field_value`). Every route with a body is
 * taken from the server's route table, so a new one is covered without touching this file.
 */

interface BodyCase {
  name: string;
  rawBody?: string;
  contentType?: string;
}

const NOT_AN_OBJECT: readonly BodyCase[] = [
  { name: "an empty body with Content-Type: application/json", rawBody: "", contentType: "application/json" },
  { name: "whitespace only", rawBody: " \n\t ", contentType: "application/json" },
  { name: "no body, with Content-Type: application/json", contentType: "application/json" },
  { name: "no body and no Content-Type" },
  { name: "null", rawBody: "null", contentType: "application/json" },
  { name: "an array", rawBody: "[{}]", contentType: "application/json" },
  { name: "a string", rawBody: '"{}"', contentType: "application/json; charset=utf-8" },
  { name: "a number", rawBody: "42", contentType: "application/json" },
  { name: "a boolean", rawBody: "true", contentType: "application/json" },
];

/** Sends `body` without the client helper's defaults, so "no body" really is none. */
async function send(server: TestServer, method: string, path: string, key: string, body: BodyCase, headers: Record<string, string> = {}) {
  const all: Record<string, string> = { authorization: `Bearer ${key}`, ...headers };
  if (body.contentType) all["content-type"] = body.contentType;
  const response = await fetch(server.url + path, { method, headers: all, body: body.rawBody, signal: AbortSignal.timeout(10_000) });
  const text = await response.text();
  return { status: response.status, headers: response.headers, body: JSON.parse(text) };
}

describe("bodies that are not a JSON object", () => {
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => ({ server, tenant } = await startServerWithTenant()));
  afterAll(() => server.close());

  it("the route table has routes with bodies on every side: owner, tenant, orders, wallet", () => {
    const names = routesWithBody.map(routeName);
    expect(names).toEqual(expect.arrayContaining(["POST /v1/tenants", "PATCH /v1/tenant", "POST /v1/air/search", "POST /v1/air/orders", "POST /v1/tenants/:id/wallet/credits"]));
  });

  describe.each(routesWithBody.map((route) => [routeName(route), route] as const))("%s", (_name, route) => {
    it.each(NOT_AN_OBJECT.map((body) => [body.name, body] as const))("answers %s with 400 invalid_json and changes nothing", async (_case, body) => {
      const key = isOwnerRoute(route) ? server.ownerKey : tenant.key;
      // Real ids, so nothing but the body can be wrong; an Idempotency-Key, so that is not missing either.
      const path = fillPath(route.url, (name) => (name === "id" && isOwnerRoute(route) ? tenant.tenantId : name === "keyId" ? tenant.keyId : "ord_00000000000000000000000000"));
      const before = await databaseState(server);
      const response = await send(server, route.method, path, key, body, { "idempotency-key": `empty-${Math.random()}` });
      expectCatalogueError(response, 400, "invalid_json");
      expect(response.body.message).toMatch(/must be a JSON object/);
      expect(await databaseState(server)).toEqual(before);
    });
  });

  // An array is a batch: the GraphQL layer answers it (batching is off).
  describe("POST /graphql", () => {
    it.each(NOT_AN_OBJECT.filter((body) => body.name !== "an array").map((body) => [body.name, body] as const))(
      "answers %s with 400 invalid_json",
      async (_case, body) => {
        const response = await send(server, "POST", "/graphql", tenant.key, body);
        expect(response.status).toBe(400);
        expect(response.body.errors).toHaveLength(1);
        expect(response.body.errors[0].extensions).toMatchObject({ code: "invalid_json", statusCode: 400 });
        expect(response.body.errors[0].message).toMatch(/must be a JSON object/);
      },
    );
  });

  // A route whose own validation refuses it (`validatesNulText`: PATCH /v1/tenant, where every
  // invalid field is 422 invalid_field_value; docs/rest-api.md#tenant-configuration) answers in its own terms, naming it alike.
  describe("text holding the NUL character (U+0000), which PostgreSQL cannot store", () => {
    const expected = (route: (typeof routesWithBody)[number]) => (route.validatesNulText ? ([422, "invalid_field_value"] as const) : ([400, "validation_failed"] as const));

    it("only PATCH /v1/tenant answers it in its own terms", () => {
      expect(routesWithBody.filter((route) => route.validatesNulText).map(routeName)).toEqual(["PATCH /v1/tenant"]);
    });

    it.each(routesWithBody.map((route) => [routeName(route), expected(route).join(" "), route] as const))("%s: %s naming where it is, nothing changed", async (_name, _answer, route) => {
      const key = isOwnerRoute(route) ? server.ownerKey : tenant.key;
      const path = fillPath(route.url, (name) => (name === "id" && isOwnerRoute(route) ? tenant.tenantId : name === "keyId" ? tenant.keyId : "ord_00000000000000000000000000"));
      const before = await databaseState(server);
      const rawBody = JSON.stringify({ metadata: { notes: ["fine", "nul\u0000here"] } });
      const response = await send(server, route.method, path, key, { name: "nul", rawBody, contentType: "application/json" }, { "idempotency-key": `nul-${Math.random()}` });
      const [status, code] = expected(route);
      expectCatalogueError(response, status, code);
      expect(response.body.errors[0].field).toBe("metadata.notes[1]");
      expect(await databaseState(server)).toEqual(before);
    });

    it("PATCH /v1/tenant with it in a metadata key (the fuzz campaign's find, a 500 on PostgreSQL)", async () => {
      const response = await send(server, "PATCH", "/v1/tenant", tenant.key, { name: "nul key", rawBody: '{"metadata":{"a\\u0000":"x"}}', contentType: "application/json" });
      expectCatalogueError(response, 422, "invalid_field_value");
      expect(response.body.errors[0].field).toBe("metadata.a\u0000");
    });

    it("POST /graphql with it in a variable", async () => {
      const rawBody = JSON.stringify({ query: "query($q: String!) { locations(query: $q) { iataCode } }", variables: { q: "lon\u0000" } });
      const response = await send(server, "POST", "/graphql", tenant.key, { name: "nul", rawBody, contentType: "application/json" });
      expect(response.status).toBe(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: "validation_failed", field: "variables.q" });
    });

    it("an escaped backslash before u0000 is ordinary text", async () => {
      const response = await send(server, "PATCH", "/v1/tenant", tenant.key, { name: "escaped", rawBody: JSON.stringify({ metadata: { path: "C:\\u0000" } }), contentType: "application/json" });
      expect(response.status).toBe(200);
    });
  });

  // The NUL walk was once recursive, and a body this deep overflowed the stack (a 500).
  describe("bodies nested deeper than 64 levels", () => {
    const deep = (levels: number, inner: string) => `${"[".repeat(levels)}${inner}${"]".repeat(levels)}`;

    it.each([
      ["holding U+0000", '"\\u0000"'],
      ["holding a number", "1"],
    ])("POST /v1/air/orders with a field 200,000 arrays deep %s: 400 validation_failed naming the limit", async (_case, inner) => {
      const rawBody = `{"selected_offers":${deep(200_000, inner)}}`;
      const response = await send(server, "POST", "/v1/air/orders", tenant.key, { name: "deep", rawBody, contentType: "application/json" }, { "idempotency-key": `deep-${Math.random()}` });
      expectCatalogueError(response, 400, "validation_failed");
      expect(response.body.reason).toMatch(/at most 64 levels/);
      expect(response.body.errors[0].field).toBe(`selected_offers${"[0]".repeat(63)}`);
    });

    it("POST /graphql with a variable 200,000 arrays deep: 400 validation_failed naming the limit", async () => {
      const rawBody = `{"query":"query($q: String!) { locations(query: $q) { iataCode } }","variables":{"q":${deep(200_000, '"\\u0000"')}}}`;
      const response = await send(server, "POST", "/graphql", tenant.key, { name: "deep", rawBody, contentType: "application/json" });
      expect(response.status).toBe(400);
      expect(response.body.errors[0].extensions).toMatchObject({ code: "validation_failed", statusCode: 400, field: `variables.q${"[0]".repeat(62)}` });
      expect(response.body.errors[0].extensions.reason).toMatch(/at most 64 levels/);
    });

    it("64 levels are accepted as JSON (the route's own schema then answers)", async () => {
      const rawBody = `{"metadata":${"{\"a\":".repeat(63)}"x"${"}".repeat(63)}}`;
      const response = await send(server, "PATCH", "/v1/tenant", tenant.key, { name: "64 deep", rawBody, contentType: "application/json" });
      expectCatalogueError(response, 422, "invalid_field_value");
    });
  });

  it("a route without a body still accepts an empty JSON body (clients send the header on bodiless POSTs)", async () => {
    const response = await send(server, "POST", "/v1/tenant/webhook_secret/rotate", tenant.key, { name: "empty", rawBody: "", contentType: "application/json" });
    expect(response.status).toBe(200);
    expect(response.body.data.webhook_secret).toMatch(/^whsec_/);
  });
});
