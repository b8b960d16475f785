import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, graphql, type TenantFixture } from "../helpers/client";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** The owner finds tenants by id, or by part of their name, email or slug in any case (the console's tenants list). */
describe("tenants search", () => {
  let server: TestServer;
  let blue: TenantFixture, green: TenantFixture, greenish: TenantFixture;
  const search = async (text: string, extra: Record<string, unknown> = {}) => {
    const response = await graphql(
      server,
      `query ($search: String, $first: Int, $after: String) { tenants(search: $search, first: $first, after: $after) { totalCount nodes { id } pageInfo { endCursor } } }`,
      { search: text, ...extra },
      { key: server.ownerKey },
    );
    return response.body;
  };
  const ids = async (text: string) => (await search(text)).data.tenants.nodes.map((tenant: { id: string }) => tenant.id);

  beforeAll(async () => {
    server = await startTestServer();
    blue = await createTenant(server, { name: "Blue Sky Travel", email: "ops@bluesky.test" });
    green = await createTenant(server, { name: "Green Fields", email: "desk@meadow.test" });
    greenish = await createTenant(server, { name: "Greenish Tours", email: "hello@tours.test" });
  });
  afterAll(() => server.close());

  it("matches part of a name, email or slug in any case, newest first", async () => {
    expect(await ids("GREEN")).toEqual([greenish.tenantId, green.tenantId]);
    expect(await ids("meadow")).toEqual([green.tenantId]);
    expect(await ids("blue-sky")).toEqual([blue.tenantId]);
    expect(await ids(" tours ")).toEqual([greenish.tenantId]);
    expect(await ids("nobody")).toEqual([]);
  });

  it("takes %, _ and \\ as the characters they are, never as wildcards or escapes", async () => {
    const percent = await createTenant(server, { name: "100% Travel", email: "ops@percent.test" });
    const underscore = await createTenant(server, { name: "Under_score Tours", email: "ops@underscore.test" });
    const backslash = await createTenant(server, { name: "Back\\slash Trips", email: "ops@backslash.test" });
    expect(await ids("%")).toEqual([percent.tenantId]);
    expect(await ids("0% T")).toEqual([percent.tenantId]);
    expect(await ids("_")).toEqual([underscore.tenantId]);
    expect(await ids("r_s")).toEqual([underscore.tenantId]);
    expect(await ids("\\")).toEqual([backslash.tenantId]);
    expect(await ids("k\\s")).toEqual([backslash.tenantId]);
    expect(await ids("\\%")).toEqual([]);
    expect(await ids("e_n")).toEqual([]);
  });

  it("matches a tenant by its id", async () => {
    expect(await ids(blue.tenantId)).toEqual([blue.tenantId]);
  });

  it("pages within the search, and refuses the cursor for another", async () => {
    const first = (await search("green", { first: 1 })).data.tenants;
    expect(first.totalCount).toBe(2);
    const next = (await search("green", { first: 1, after: first.pageInfo.endCursor })).data.tenants;
    expect(next.nodes).toEqual([{ id: green.tenantId }]);
    expect((await search("blue", { first: 1, after: first.pageInfo.endCursor })).errors?.[0]?.extensions.code).toBe("INVALID_CURSOR");
  });
});
