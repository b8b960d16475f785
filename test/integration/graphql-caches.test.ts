import { createHash } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphqlPipelineCounts, type ApiResponse, type TenantFixture } from "../helpers/client";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * GraphQL keeps documents it has seen: the automatic persisted queries (a hash a client sent
 * with its query stands for that query afterwards), Apollo's parsed-document store and the
 * prepared operations (a repeat runs compiled). Each is kept per tenant (and for the owner), so
 * nothing one tenant sent changes what another is answered: another tenant's hash is unknown to
 * it, and its own first sending of a text is a first sending, whoever sent that text before.
 */
describe("GraphQL document caches are per tenant", () => {
  let server: TestServer;
  let alice: TenantFixture;
  let bob: TenantFixture;
  let aliceSecondKey: string;

  beforeAll(async () => {
    server = await startTestServer();
    alice = await createTenant(server, { name: "Alice Travel" });
    bob = await createTenant(server, { name: "Bob Tours" });
    const issued = await call(server, "POST", `/v1/tenants/${alice.tenantId}/keys`, { key: server.ownerKey, body: { label: "second" } });
    aliceSecondKey = issued.body.data.apiKey;
  });
  afterAll(() => server.close());

  const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
  const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });
  /** A POST /graphql with the persisted-query extension, with or without the query itself. */
  const postPersisted = (key: string, hash: string, query?: string): Promise<ApiResponse> =>
    call(server, "POST", "/graphql", { key, body: { query, extensions: persisted(hash) } });
  /** The same as a GET (Apollo takes persisted queries over GET too). */
  const getPersisted = (key: string, hash: string): Promise<ApiResponse> =>
    call(server, "GET", `/graphql?extensions=${encodeURIComponent(JSON.stringify(persisted(hash)))}`, { key, headers: { "apollo-require-preflight": "true" } });
  const notFound = (response: ApiResponse) => ({ status: response.status, errors: response.body.errors?.map((error: { message: string; extensions: { code: string } }) => [error.message, error.extensions.code]), data: response.body.data });

  it("a persisted query's hash stands for its query only to the tenant that sent it", async () => {
    const query = "query AliceOnly { viewer { kind tenant { id } } }";
    const hash = sha256(query);
    const unknownHash = sha256("query NobodySentThis { viewer { kind } }");
    const neverSent = notFound(await postPersisted(bob.key, unknownHash));
    expect(neverSent.errors).toEqual([["PersistedQueryNotFound", "validation_failed"]]);

    const registered = await postPersisted(alice.key, hash, query);
    expect(registered.body.data.viewer.tenant.id).toBe(alice.tenantId);
    expect((await postPersisted(alice.key, hash)).body.data.viewer.tenant.id).toBe(alice.tenantId);
    expect((await postPersisted(aliceSecondKey, hash)).body.data.viewer.tenant.id).toBe(alice.tenantId);
    expect((await getPersisted(alice.key, hash)).body.data.viewer.tenant.id).toBe(alice.tenantId);

    // To Bob and to the owner the hash is as unknown as one nobody sent.
    expect(notFound(await postPersisted(bob.key, hash))).toEqual(neverSent);
    expect(notFound(await getPersisted(bob.key, hash))).toEqual(neverSent);
    expect(notFound(await postPersisted(server.ownerKey, hash))).toEqual(neverSent);

    // Bob's own sending registers it for Bob.
    expect((await postPersisted(bob.key, hash, query)).body.data.viewer.tenant.id).toBe(bob.tenantId);
    expect((await postPersisted(bob.key, hash)).body.data.viewer.tenant.id).toBe(bob.tenantId);
  });

  it("a text another tenant sent before is a first sending for this one: Apollo answers it, not the prepared pipeline", async () => {
    const query = "query SharedText { viewer { kind keyId } }";
    const pipelineOf = async (key: string) => {
      const before = await graphqlPipelineCounts(server);
      const answer = await call(server, "POST", "/graphql", { key, body: { query } });
      expect(answer.status).toBe(200);
      const after = await graphqlPipelineCounts(server);
      return after.prepared > before.prepared ? "prepared" : "apollo";
    };
    expect([await pipelineOf(alice.key), await pipelineOf(alice.key)]).toEqual(["apollo", "prepared"]);
    // Another key of Alice's is the same tenant.
    expect(await pipelineOf(aliceSecondKey)).toBe("prepared");
    expect([await pipelineOf(bob.key), await pipelineOf(bob.key)]).toEqual(["apollo", "prepared"]);
    expect(await pipelineOf(server.ownerKey)).toBe("apollo");
  });
});
