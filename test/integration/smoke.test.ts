import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant } from "../helpers/client";
import { startTestServer, type TestServer } from "../helpers/test-server";

describe("smoke", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  it("a tenant key reads its own configuration", async () => {
    const tenant = await createTenant(server);
    const response = await call(server, "GET", "/v1/tenant", { key: tenant.key });
    expect(response.status).toBe(200);
    expect(response.body.data.id).toBe(tenant.tenantId);
  });
});
