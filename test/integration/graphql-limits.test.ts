import { Lexer, Source, TokenKind } from "graphql";
import type { Client } from "graphql-ws";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, graphqlPipelineCounts, type TenantFixture } from "../helpers/client";
import { wsClient } from "../helpers/subscriptions";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** `orders → edges → node → offer → slices → segments → passengers → baggages → type`: the schema's deepest path, 9 levels. */
const NINE_LEVELS = "{ orders(first: 1) { edges { node { offer { slices { segments { passengers { baggages { type } } } } } } } } }";
/** One level more than any schema field can answer: refused for its depth before anything else is said about it. */
const TEN_LEVELS = "{ orders(first: 1) { edges { node { offer { slices { segments { passengers { baggages { type { kind } } } } } } } } } }";

function aliases(count: number): string {
  return `{ ${Array.from({ length: count }, (_, i) => `a${i}: viewer { kind }`).join(" ")} }`;
}

/** 1 + 100 × (1 + 7) = 801. */
const ORDERS_PAGE = "orders(first: 100) { nodes { id status bookingReference totalAmount totalCurrency createdAt updatedAt } }";
const SIX_PAGES = Array.from({ length: 6 }, (_, i) => `p${i}: ${ORDERS_PAGE}`).join(" ");

/**
 * Costs exactly 5000 with `$offers: 95` (six pages 4806, viewer 3, offers 1 + 95 × 2 = 191) and
 * 5002 with `$offers: 96`: the cost follows the variables.
 */
const PRICED = `query ($offers: Int) { ${SIX_PAGES} viewer { kind keyId } offers(first: $offers) { nodes { id } } }`;

/** Six pages (4806) and three connections without `first`, each 1 + 25 × (1 + 2) = 76: 5034. */
const DEFAULT_PAGES = `{ ${SIX_PAGES} ${Array.from({ length: 3 }, (_, i) => `d${i}: orders { nodes { id status } }`).join(" ")} }`;

/**
 * Fragments that double at each level: `V13` spreads into over 30,000 fields, past the 10,000
 * nodes graphql-query-complexity will walk, in a few hundred bytes of text. Such an operation
 * was once priced at 0 and ran. `$whole: false` leaves the spread out.
 */
const DOUBLING_FRAGMENTS = `fragment V0 on Viewer { kind keyId } ${Array.from({ length: 13 }, (_, i) => `fragment V${i + 1} on Viewer { ...V${i} ...V${i} }`).join(" ")}`;
const UNPRICEABLE = `{ viewer { ...V13 } } ${DOUBLING_FRAGMENTS}`;
const UNPRICEABLE_WHEN_WHOLE = `query ($whole: Boolean!) { viewer { kind ...V13 @include(if: $whole) } } ${DOUBLING_FRAGMENTS}`;

/** `count` fields of one name with different arguments in one selection set: validating that they conflict is quadratic. */
function sameNameFields(count: number): string {
  return `{ ${Array.from({ length: count }, (_, i) => `locations(query: "a${i}") { iataCode }`).join(" ")} }`;
}

/** A selection set of `count` selections once its fragments are spread (each fragment counted once, however often spread). */
function spreadFields(count: number): string {
  const half = Math.floor(count / 2);
  return `{ viewer { ...A ...A ...B } } fragment A on Viewer { ${"kind ".repeat(half)}} fragment B on Viewer { ${"keyId ".repeat(count - half)}}`;
}

function tokenCount(document: string): number {
  const lexer = new Lexer(new Source(document));
  let count = 0;
  while (lexer.advance().kind !== TokenKind.EOF) count += 1;
  return count;
}

/** A valid mutation of exactly `tokens` tokens: a metadata list padded with one-token numbers. */
function documentOfTokens(tokens: number): string {
  const build = (numbers: number) => `mutation { updateTenantConfig(input: { metadata: { filler: [${"1 ".repeat(numbers)}] } }) { id } }`;
  const document = build(tokens - tokenCount(build(0)));
  expect(tokenCount(document)).toBe(tokens);
  return document;
}

/** The first answer graphql-ws gives to one operation: a result, or the errors it was refused with. */
function firstAnswer(client: Client, query: string, variables?: Record<string, unknown>): Promise<{ data?: any; errors?: any[] }> {
  return new Promise((resolve, reject) => {
    client.subscribe({ query, variables }, { next: (value) => resolve(value as { data?: any }), error: (error) => (Array.isArray(error) ? resolve({ errors: error }) : reject(error)), complete: () => undefined });
  });
}

function expectRefused(response: { status: number; body: any }, code: string, message: RegExp) {
  expect(response.status).toBe(400);
  expect(response.body.data).toBeUndefined();
  expect(response.body.errors?.[0]?.extensions).toMatchObject({ code, statusCode: 400, retryable: false });
  expect(response.body.errors?.[0]?.message).toMatch(message);
}

describe("GraphQL limits: each a catalogued 400, over HTTP and WebSocket", () => {
  let server: TestServer;
  let sandbox: TenantFixture;
  let live: TenantFixture;

  beforeAll(async () => {
    server = await startTestServer();
    sandbox = await createTenant(server);
    live = await createTenant(server, { environment: "live" });
  });
  afterAll(() => server.close());

  describe("depth", () => {
    it("9 levels, the schema's deepest query, runs", async () => {
      const response = await graphql(server, NINE_LEVELS, {}, { key: sandbox.key });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ data: { orders: { edges: [] } } });
    });

    it("10 levels is query_too_deep, naming the depth and the limit", async () => {
      expectRefused(await graphql(server, TEN_LEVELS, {}, { key: sandbox.key }), "query_too_deep", /10 levels deep; the limit is 9/);
    });

    it("GraphiQL's introspection query (ofType nested eight deep) is not refused for its depth", async () => {
      const introspection = `{ __schema { types { name fields { name type { ...TypeRef } } } } }
        fragment TypeRef on __Type { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name ofType { kind name } } } } } } } }`;
      const response = await graphql(server, introspection, {}, { key: sandbox.key });
      expect(response.status).toBe(200);
      expect(response.body.data.__schema.types.length).toBeGreaterThan(20);
    });
  });

  describe("aliases", () => {
    it("15 aliases run", async () => {
      const response = await graphql(server, aliases(15), {}, { key: sandbox.key });
      expect(response.status).toBe(200);
      expect(Object.keys(response.body.data)).toHaveLength(15);
    });

    it("16 aliases are too_many_aliases", async () => {
      expectRefused(await graphql(server, aliases(16), {}, { key: sandbox.key }), "too_many_aliases", /16 aliases; the limit is 15/);
    });
  });

  describe("cost (list fields by their page size)", () => {
    it("an operation costing exactly 5000 runs", async () => {
      const response = await graphql(server, PRICED, { offers: 95 }, { key: sandbox.key });
      expect(response.status).toBe(200);
      expect(response.body.data.p0.nodes).toEqual([]);
    });

    it("the same document costing 5002 (a larger page in a variable) is query_too_complex", async () => {
      expectRefused(await graphql(server, PRICED, { offers: 96 }, { key: sandbox.key }), "query_too_complex", /costs 5002; the limit is 5000/);
    });

    it("without first, a connection is priced at the largest default page (25)", async () => {
      expectRefused(await graphql(server, DEFAULT_PAGES, {}, { key: sandbox.key }), "query_too_complex", /costs 5034; the limit is 5000/);
    });

    it("an operation that cannot be priced (fragments doubling past 10,000 fields) is query_too_complex", async () => {
      expectRefused(await graphql(server, UNPRICEABLE, {}, { key: sandbox.key }), "query_too_complex", /cannot be priced/);
    });

    it("on the prepared pipeline too: an accepted document whose variables make it unpriceable is refused", async () => {
      const before = await graphqlPipelineCounts(server);
      for (let sent = 0; sent < 2; sent++) {
        const small = await graphql(server, UNPRICEABLE_WHEN_WHOLE, { whole: false }, { key: sandbox.key });
        expect(small.body).toEqual({ data: { viewer: { kind: "TENANT" } } });
      }
      expect((await graphqlPipelineCounts(server)).prepared).toBe(before.prepared + 1);
      expectRefused(await graphql(server, UNPRICEABLE_WHEN_WHOLE, { whole: true }, { key: sandbox.key }), "query_too_complex", /cannot be priced/);
    });

    it("variables of the wrong type are refused as such, not priced", async () => {
      const response = await graphql(server, PRICED, { offers: "many" }, { key: sandbox.key });
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]?.extensions.code).toBe("validation_failed");
    });
  });

  describe("fields per selection set, bounded before validation", () => {
    it("100 selections in a set (fragments spread) run", async () => {
      const response = await graphql(server, spreadFields(100), {}, { key: sandbox.key });
      expect(response.status).toBe(200);
      expect(response.body.data.viewer).toEqual({ kind: "TENANT", keyId: expect.any(String) });
    });

    it("101 are query_too_complex, however they are spread", async () => {
      expectRefused(await graphql(server, spreadFields(101), {}, { key: sandbox.key }), "query_too_complex", /101 fields; the limit is 100/);
    });

    it("540 same-name fields with different arguments are refused at once, not validated for half a second", async () => {
      const started = performance.now();
      const response = await graphql(server, sameNameFields(540), {}, { key: sandbox.key });
      expectRefused(response, "query_too_complex", /540 fields; the limit is 100/);
      expect(performance.now() - started).toBeLessThan(400);
    });
  });

  describe("tokens", () => {
    it("a document of exactly 5,000 tokens is parsed and run (the metadata rule then refuses the list)", async () => {
      const response = await graphql(server, documentOfTokens(5000), {}, { key: sandbox.key });
      expect(response.body.errors?.[0]?.extensions.code).toBe("invalid_field_value");
    });

    it("5,001 tokens are too_many_tokens", async () => {
      expectRefused(await graphql(server, documentOfTokens(5001), {}, { key: sandbox.key }), "too_many_tokens", /more than 5000 tokens/);
    });
  });

  describe("text holding U+0000 (PostgreSQL cannot store it)", () => {
    const CREATE = (name: string) => `mutation { createTenant(input: { name: "${name}", email: "nul@travel.example" }) { id } }`;

    it("a string literal holding it is validation_failed, and nothing is written (it was a 500 on PostgreSQL)", async () => {
      const before = await server.db.prisma.tenant.count();
      const response = await graphql(server, CREATE("Nul\\u0000Travel"), {}, { key: server.ownerKey });
      expectRefused(response, "validation_failed", /U\+0000/);
      expect(await server.db.prisma.tenant.count()).toBe(before);
      expect((await graphql(server, CREATE("Plain Travel"), {}, { key: server.ownerKey })).body.data.createTenant.id).toMatch(/^ten_/);
    });
  });

  it("batching is off: a JSON array body is batching_not_supported", async () => {
    const response = await call(server, "POST", "/graphql", { key: sandbox.key, body: [{ query: "{ viewer { kind } }" }, { query: "{ viewer { keyId } }" }] });
    expectRefused(response, "batching_not_supported", /not supported/);
  });

  describe("field suggestions", () => {
    it("sandbox tenants get them", async () => {
      const response = await graphql(server, "{ viewr { kind } }", {}, { key: sandbox.key });
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]?.extensions.code).toBe("validation_failed");
      expect(response.body.errors?.[0]?.message).toBe('Cannot query field "viewr" on type "Query". Did you mean "viewer"?');
    });

    it("live tenants do not", async () => {
      const response = await graphql(server, "{ viewr { kind } }", {}, { key: live.key });
      expect(response.status).toBe(400);
      expect(response.body.errors?.[0]?.extensions.code).toBe("validation_failed");
      expect(response.body.errors?.[0]?.message).toBe('Cannot query field "viewr" on type "Query".');
    });
  });

  describe("graphql-ws operations obey the same limits", () => {
    let sandboxWs: Client;
    let liveWs: Client;

    beforeAll(() => {
      sandboxWs = wsClient(server.wsUrl, { authorization: `Bearer ${sandbox.key}` });
      liveWs = wsClient(server.wsUrl, { authorization: `Bearer ${live.key}` });
    });
    afterAll(async () => {
      await sandboxWs.dispose();
      await liveWs.dispose();
    });

    it("within every limit, an operation runs", async () => {
      expect(await firstAnswer(sandboxWs, aliases(15))).toMatchObject({ data: { a0: { kind: "TENANT" } } });
    });

    it.each([
      ["query_too_deep", TEN_LEVELS],
      ["too_many_aliases", aliases(16)],
      ["query_too_complex", DEFAULT_PAGES],
      ["query_too_complex (cannot be priced)", UNPRICEABLE],
    ])("%s", async (name, query) => {
      const code = name.split(" ")[0];
      const answer = await firstAnswer(sandboxWs, query);
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code, statusCode: 400 });
    });

    it("U+0000 in a literal or a variable is validation_failed (a WebSocket message has no JSON body parser to refuse it)", async () => {
      const literal = await firstAnswer(sandboxWs, `mutation { updateTenantConfig(input: { defaultCurrency: "EUR\\u0000" }) { id } }`);
      expect(literal.errors?.[0]?.extensions).toMatchObject({ code: "validation_failed", statusCode: 400 });
      const variable = await firstAnswer(sandboxWs, `mutation ($input: UpdateTenantConfigInput!) { updateTenantConfig(input: $input) { id } }`, { input: { metadata: { note: "nul\u0000here" } } });
      expect(variable.errors?.[0]?.extensions).toMatchObject({ code: "validation_failed", statusCode: 400, field: "variables.input.metadata.note" });
    });

    it("fields per selection set", async () => {
      const answer = await firstAnswer(sandboxWs, sameNameFields(540));
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: "query_too_complex", statusCode: 400 });
    });

    it("too_many_tokens", async () => {
      const answer = await firstAnswer(sandboxWs, documentOfTokens(5001));
      expect(answer.errors?.[0]?.extensions).toMatchObject({ code: "too_many_tokens", statusCode: 400 });
    });

    it("suggestions: kept for sandbox, hidden for live", async () => {
      const [sandboxAnswer, liveAnswer] = await Promise.all([firstAnswer(sandboxWs, "{ viewr { kind } }"), firstAnswer(liveWs, "{ viewr { kind } }")]);
      expect(sandboxAnswer.errors?.[0]).toMatchObject({ message: 'Cannot query field "viewr" on type "Query". Did you mean "viewer"?', extensions: { code: "validation_failed" } });
      expect(liveAnswer.errors?.[0]).toMatchObject({ message: 'Cannot query field "viewr" on type "Query".', extensions: { code: "validation_failed" } });
    });
  });
});
