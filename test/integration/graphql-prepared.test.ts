import { getNamedType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, graphqlPipelineCounts, type TenantFixture } from "../helpers/client";
import { bookOffer, newKey, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import { fullSelection, servedSchema, withoutVolatileValues } from "../helpers/schema-operations";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { credit } from "../helpers/wallet";

interface RawAnswer {
  status: number;
  contentType: string | null;
  cacheControl: string | null;
  rateLimited: boolean;
  body: string;
}

interface Operation {
  query: string;
  variables?: Record<string, unknown>;
  operationName?: string;
  key: string;
  accept?: string;
}

/** A root field with everything below it. */
function rootQuery(field: string, args = ""): string {
  const type = getNamedType(servedSchema.getQueryType()!.getFields()[field]!.type);
  return `{ ${field}${args} ${fullSelection(type, 6)} }`;
}

/**
 * Prepared operations (src/graphql/prepared-http.ts): a repeat of an operation Apollo accepted
 * runs its graphql-jit plan without Apollo. The first sending of each document here is answered
 * by Apollo, the repeat by the prepared pipeline (the metric says which), and the two answers
 * must be the same bytes: data, errors and their codes, status and headers. Whatever the
 * prepared pipeline does not answer itself (bad variables, limits, other Accept types) reaches
 * Apollo, with Apollo's answer.
 */
describe("GraphQL prepared operations answer as Apollo does", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  let offerId: string;
  let orderId: string;
  const ids = { apollo: 0, prepared: 0 };

  beforeAll(async () => {
    server = await startTestServer();
    tenant = await createTenant(server);
    await credit(server, tenant.tenantId, "5000.00");
    const offers = await searchForBooking(server, tenant.key);
    offerId = offers[1].id;
    const order = await bookOffer(server, tenant.key, offers[0]);
    orderId = order.id;
    expect((await ticketOrder(server, tenant.key, orderId, { "idempotency-key": newKey() })).status).toBe(200);
    await waitForStatus(server, tenant.key, orderId, ["TICKETED"]);
  });
  afterAll(() => server.close());

  const pipelineCounts = () => graphqlPipelineCounts(server);

  async function send(operation: Operation): Promise<RawAnswer> {
    const headers: Record<string, string> = { authorization: `Bearer ${operation.key}`, "content-type": "application/json" };
    if (operation.accept) headers.accept = operation.accept;
    const body = JSON.stringify({ query: operation.query, variables: operation.variables, operationName: operation.operationName });
    const response = await fetch(`${server.url}/graphql`, { method: "POST", headers, body });
    return {
      status: response.status,
      contentType: response.headers.get("content-type"),
      cacheControl: response.headers.get("cache-control"),
      rateLimited: response.headers.has("ratelimit-remaining"),
      body: withoutVolatileValues(await response.text()),
    };
  }

  /** Sends the operation and says which pipeline answered. */
  async function sendCounted(operation: Operation): Promise<{ answer: RawAnswer; by: "apollo" | "prepared" }> {
    const before = await pipelineCounts();
    const answer = await send(operation);
    const after = await pipelineCounts();
    expect(after.apollo + after.prepared - before.apollo - before.prepared).toBe(1);
    return { answer, by: after.prepared > before.prepared ? "prepared" : "apollo" };
  }

  /** Apollo's answer to the first sending, the prepared pipeline's to the second: the same. */
  async function expectSameAnswers(operation: Operation): Promise<RawAnswer> {
    const first = await sendCounted(operation);
    const second = await sendCounted(operation);
    expect([first.by, second.by]).toEqual(["apollo", "prepared"]);
    expect(second.answer).toEqual(first.answer);
    return second.answer;
  }

  const asTenant = (query: string, variables?: Record<string, unknown>): Operation => ({ query, variables, key: tenant.key });

  it("viewer", async () => {
    const answer = await expectSameAnswers(asTenant("{ viewer { __typename kind tenant { id name status environment } } }"));
    expect(answer).toMatchObject({ status: 200, contentType: "application/json; charset=utf-8", cacheControl: "no-store" });
    expect(JSON.parse(answer.body).data.viewer.tenant.id).toBe(tenant.tenantId);
  });

  it("an offer, every field, through a variable", async () => {
    const query = `query Offer($id: ID!) ${rootQuery("offer", "(id: $id)")}`;
    const answer = await expectSameAnswers(asTenant(query, { id: offerId }));
    expect(JSON.parse(answer.body).data.offer.id).toBe(offerId);
  });

  it("a ticketed order, every field, and the orders connection", async () => {
    const answer = await expectSameAnswers(asTenant(`{ order(id: "${orderId}") ${fullSelection(servedSchema.getType("Order")!, 6)} }`));
    expect(JSON.parse(answer.body).data.order.documents.length).toBeGreaterThan(0);
    await expectSameAnswers(asTenant(rootQuery("orders", "(first: 2, status: TICKETED)")));
  });

  it("the wallet, offers, locations and webhook deliveries", async () => {
    await expectSameAnswers(asTenant(rootQuery("wallet")));
    await expectSameAnswers(asTenant(rootQuery("offers", "(first: 2)")));
    await expectSameAnswers(asTenant(rootQuery("locations", '(query: "lon", limit: 3)')));
    await expectSameAnswers(asTenant(rootQuery("webhookDeliveries", "(first: 2)")));
  });

  it("owner fields with the owner key", async () => {
    await expectSameAnswers({ query: rootQuery("tenants", "(first: 2)"), key: server.ownerKey });
    await expectSameAnswers({ query: rootQuery("tenant", `(id: "${tenant.tenantId}")`), key: server.ownerKey });
  });

  it("fragments, aliases, directives, defaults and introspection", async () => {
    const query = `query Shaped($withTenant: Boolean = true, $skipKind: Boolean!) {
      me: viewer { ...Who kind @skip(if: $skipKind) }
      offer(id: "${offerId}") { price: totalAmount ... on Offer { totalCurrency slices { segments { origin { iataCode } } } } }
      __type(name: "OrderStatus") { enumValues { name } }
    }
    fragment Who on Viewer { tenant @include(if: $withTenant) { id } }`;
    await expectSameAnswers(asTenant(query, { skipKind: true }));
  });

  it("null for an unknown id, errors with partial data, and a caller refused a field", async () => {
    const answer = await expectSameAnswers(asTenant('{ viewer { kind } offer(id: "off_00000000000000000000000000") { id } order(id: "nope") { id } }'));
    expect(JSON.parse(answer.body).data).toEqual({ viewer: { kind: "TENANT" }, offer: null, order: null });
    const refused = await expectSameAnswers(asTenant("{ viewer { kind } tenants(first: 1) { totalCount } }"));
    expect(JSON.parse(refused.body).errors[0].extensions.code).toBe("forbidden");
  });

  it("mutations: a refused one, a replayed booking and a replayed error", async () => {
    const credit = `mutation { creditWallet(tenantId: "${tenant.tenantId}", amount: "1.00", currency: "USD") { wallet { balance } } }`;
    const refused = await expectSameAnswers(asTenant(credit));
    expect(JSON.parse(refused.body).errors[0].extensions.code).toBe("forbidden");
    const ticket = `mutation Ticket($id: ID!, $key: String!) { ticketOrder(orderId: $id, idempotencyKey: $key) { id status } }`;
    const missing = await expectSameAnswers(asTenant(ticket, { id: "ord_00000000000000000000000000", key: newKey() }));
    expect(JSON.parse(missing.body).errors[0].extensions.code).toBe("not_found");
    const [offer] = await searchForBooking(server, tenant.key);
    const create = `mutation Create($input: CreateOrderInput!, $key: String!) { createOrder(input: $input, idempotencyKey: $key) { id status totalAmount passengers { id givenName } } }`;
    const input = {
      offerId: offer.id,
      passengers: [{ id: offer.passengers[0].id, title: "MS", givenName: "Ada", familyName: "Lovelace", bornOn: "1985-04-12", gender: "F", email: "ada@travel.example", phoneNumber: "+442080160508", identityDocuments: [{ type: "PASSPORT", number: "P12345678", issuingCountryCode: "GB", expiresOn: "2036-01-01" }] }],
    };
    const booked = await expectSameAnswers(asTenant(create, { input, key: newKey() }));
    expect(JSON.parse(booked.body).data.createOrder.status).toBe("PENDING");
  });

  it("answers with the type the Accept header prefers", async () => {
    const answer = await expectSameAnswers({ ...asTenant("{ viewer { kind } }   "), accept: "application/graphql-response+json, application/json;q=0.9" });
    expect(answer.contentType).toBe("application/graphql-response+json; charset=utf-8");
  });

  it("the operation a request names, in a document of several", async () => {
    const document = "query A { viewer { kind } } query B { wallet { currency } }";
    await expectSameAnswers({ ...asTenant(document), operationName: "A" });
    const prepared = await sendCounted({ ...asTenant(document), operationName: "B" });
    const byApollo = await sendCounted({ ...asTenant(`${document}\n`), operationName: "B" });
    expect([prepared.by, byApollo.by]).toEqual(["prepared", "apollo"]);
    expect(prepared.answer).toEqual(byApollo.answer);
  });

  describe("what the prepared pipeline leaves to Apollo, on a document it has prepared", () => {
    // At 100 a page, every field of an order is over the cost limit.
    const query = `query Orders($first: Int, $status: OrderStatus) { orders(first: $first, status: $status) { nodes ${fullSelection(servedSchema.getType("Order")!, 5)} } }`;

    beforeAll(async () => {
      await expectSameAnswers(asTenant(query, { first: 1 }));
    });

    it("variables that do not fit their types: Apollo's 400 validation_failed", async () => {
      const { answer, by } = await sendCounted(asTenant(query, { first: "many", status: "LOST" }));
      expect(by).toBe("apollo");
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).errors[0].extensions.code).toBe("validation_failed");
      // The same answer Apollo gives a document it sees for the first time.
      expect((await sendCounted(asTenant(`${query}\n`, { first: "many", status: "LOST" }))).answer).toEqual(answer);
    });

    it("an operation over the cost limit: 400 query_too_complex", async () => {
      const { answer, by } = await sendCounted(asTenant(query, { first: 100 }));
      expect(by).toBe("apollo");
      expect(answer.status).toBe(400);
      expect(JSON.parse(answer.body).errors[0].extensions.code).toBe("query_too_complex");
    });

    it("an Accept header that takes no JSON: Apollo's 406", async () => {
      const { answer, by } = await sendCounted({ ...asTenant(query, { first: 1 }), accept: "image/png" });
      expect(by).toBe("apollo");
      expect(answer.status).toBe(406);
    });

    it("a persisted-query extension or a GET", async () => {
      const withExtension = await fetch(`${server.url}/graphql`, {
        method: "POST",
        headers: { authorization: `Bearer ${tenant.key}`, "content-type": "application/json" },
        body: JSON.stringify({ query, variables: { first: 1 }, extensions: { persistedQuery: { version: 1, sha256Hash: "0".repeat(64) } } }),
      });
      expect(withExtension.status).toBe(400);
      const before = await pipelineCounts();
      const get = await fetch(`${server.url}/graphql?query=${encodeURIComponent("{ viewer { kind } }")}`, {
        headers: { authorization: `Bearer ${tenant.key}`, "apollo-require-preflight": "true" },
      });
      expect(get.status).toBe(200);
      expect((await pipelineCounts()).apollo).toBe(before.apollo + 1);
    });
  });
});

/** With a small bucket: an operation whose cost the bucket cannot pay is refused by Apollo's limits, not run. */
describe("GraphQL prepared operations under the rate limit", () => {
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => {
    server = await startTestServer({ env: { RATE_LIMIT_RPS: "1", RATE_LIMIT_BURST: "19" } });
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  it("a prepared operation takes its cost's tokens and reports them, as over Apollo", async () => {
    const key = (await createTenant(server)).key;
    // Five tokens each: 20, 15, 10 left after each (a token may refill meanwhile).
    const answers = [];
    for (let sent = 0; sent < 2; sent++) {
      const before = await graphqlPipelineCounts(server);
      const answer = await graphql(server, "{ orders(first: 20) { nodes { id } } } # reported", {}, { key });
      const after = await graphqlPipelineCounts(server);
      answers.push({ status: answer.status, limit: answer.headers.get("ratelimit-limit"), remaining: Number(answer.headers.get("ratelimit-remaining")), by: after.prepared > before.prepared ? "prepared" : "apollo" });
    }
    expect(answers.map(({ status, limit, by }) => ({ status, limit, by }))).toEqual([
      { status: 200, limit: "20", by: "apollo" },
      { status: 200, limit: "20", by: "prepared" },
    ]);
    expect(answers[0]!.remaining).toBeGreaterThanOrEqual(14);
    expect(answers[0]!.remaining).toBeLessThanOrEqual(15);
    expect(answers[0]!.remaining - answers[1]!.remaining).toBeGreaterThanOrEqual(4);
    expect(answers[0]!.remaining - answers[1]!.remaining).toBeLessThanOrEqual(5);
  });

  it("a prepared operation costing more tokens than are left: 429 rate_limit_exceeded", async () => {
    const { key } = tenant;
    // 1 + 20 × (1 + 1) = 41: five tokens, one on arrival and four once priced.
    const expensive = () => graphql(server, "{ orders(first: 20) { nodes { id } } }", {}, { key });
    // Three of them and two REST calls leave 3 of the 20 tokens (plus what refills at 1/s meanwhile).
    const spent = [await expensive(), await expensive(), await expensive(), await call(server, "GET", "/v1/tenant", { key }), await call(server, "GET", "/v1/tenant", { key })];
    expect(spent.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    const before = await graphqlPipelineCounts(server);
    const refused = await expensive();
    expect(refused.status).toBe(429);
    expect(refused.body.errors?.[0]?.extensions.code).toBe("rate_limit_exceeded");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect((await graphqlPipelineCounts(server)).apollo).toBe(before.apollo + 1);
  });
});
