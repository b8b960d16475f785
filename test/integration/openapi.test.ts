import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openApiDocument } from "../../src/rest/openapi";
import { restRoutes } from "../../src/rest/routes";
import { call, type TenantFixture, createTenant } from "../helpers/client";
import { undescribedResponse } from "../helpers/openapi-validator";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * /openapi.json describes every answer of /v1, and the suite's HTTP helper holds every answer
 * it receives to it (helpers/openapi-validator.ts). These tests prove the document is complete
 * and the check has teeth.
 */
describe("OpenAPI document", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  let document: any;

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server);
    const served = await call(server, "GET", "/openapi.json");
    expect(served.status).toBe(200);
    document = served.body;
  });
  afterAll(() => server.close());

  it("is served without a key, as built from the route table the server registers", () => {
    expect(document).toEqual(JSON.parse(JSON.stringify(openApiDocument(restRoutes))));
    expect(document.openapi).toBe("3.1.0");
  });

  it("describes, for every operation, its success body and each catalogued error it can answer", () => {
    const operations = Object.values(document.paths).flatMap((methods: any) => Object.values(methods)) as any[];
    expect(operations).toHaveLength(restRoutes.length);
    expect(new Set(operations.map((operation) => operation.operationId)).size).toBe(operations.length);
    for (const operation of operations) {
      const statuses = Object.keys(operation.responses);
      const success = statuses.find((status) => status.startsWith("2"))!;
      // JSON by its schema; a document (a receipt) as bytes of its media type.
      const content = operation.responses[success].content;
      const described = content["application/json"]?.schema ?? content["application/pdf"]?.schema;
      expect(described, operation.operationId).toBeTruthy();
      expect(statuses, operation.operationId).toEqual(expect.arrayContaining(["400", "401", "403", "429", "500"]));
      for (const status of statuses.filter((status) => !status.startsWith("2"))) {
        const [error, codes] = operation.responses[status].content["application/json"].schema.allOf;
        expect(error).toEqual({ $ref: "#/components/schemas/Error" });
        expect(codes.properties.statusCode).toEqual({ const: Number(status) });
        expect(codes.properties.errors.items.properties.code.enum.length, `${operation.operationId} ${status}`).toBeGreaterThan(0);
      }
    }
  });

  it("spells 429 as each path's variant does, with Retry-After", () => {
    const code429 = (path: string, method: string) => document.paths[path][method].responses["429"].content["application/json"].schema.allOf[1].properties.errors.items.properties.code.enum;
    expect(code429("/v1/air/orders/{id}/actions/ticket", "post")).toEqual(["rate_limit_exceeded"]);
    expect(code429("/v1/air/orders/{id}/ticket", "post")).toEqual(["RATE_LIMIT_EXCEEDED"]);
    expect(document.paths["/v1/wallet"].get.responses["429"].headers["Retry-After"]).toBeTruthy();
  });

  it("names the shared shapes once, in components", () => {
    expect(Object.keys(document.components.schemas)).toEqual(expect.arrayContaining(["Error", "OfferA", "OfferB", "OrderA", "OrderB", "OrderDetail", "Wallet", "LedgerEntry", "Tenant"]));
    expect(JSON.stringify(document)).not.toContain("#/$defs/");
  });

  it("refuses what it does not describe: an extra field, a wrong code, an undescribed status", async () => {
    const wallet = await call(server, "GET", "/v1/wallet", { key: tenant.key });
    expect(wallet.status).toBe(200);
    expect(undescribedResponse("GET", "/v1/wallet", 200, wallet.body)).toBeNull();
    expect(undescribedResponse("GET", "/v1/wallet", 200, { ...wallet.body, data: { ...wallet.body.data, secret: "x" } })).toContain("must NOT have additional properties");
    expect(undescribedResponse("GET", "/v1/wallet", 418, wallet.body)).toContain("a status its operation does not describe");

    const refused = await call(server, "GET", "/v1/tenants", { key: tenant.key });
    expect(refused.status).toBe(403);
    expect(undescribedResponse("GET", "/v1/tenants", 403, { ...refused.body, errors: [{ code: "tenant_deleted", message: "m" }] })).toContain("must be equal to one of the allowed values");
  });

  it("describes answers to routes that do not exist", async () => {
    const unknown = await call(server, "GET", "/v1/no/such/route", { key: tenant.key });
    expect(unknown.status).toBe(404);
    expect(unknown.body.errors[0].code).toBe("route_not_found");
    const unauthenticated = await call(server, "DELETE", "/v1/wallet");
    expect(unauthenticated.status).toBe(401);
  });
});
