import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type ApiResponse, type TenantFixture } from "../helpers/client";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** A bucket holds RATE_LIMIT_RPS + RATE_LIMIT_BURST tokens. */
const RPS = 1;
const CAPACITY = 20;

function rateLimitHeaders(response: ApiResponse) {
  return {
    limit: Number(response.headers.get("ratelimit-limit")),
    remaining: Number(response.headers.get("ratelimit-remaining")),
    reset: Number(response.headers.get("ratelimit-reset")),
  };
}

/**
 * Per-key token buckets (RATE_LIMIT_RPS + RATE_LIMIT_BURST tokens, refilled at RATE_LIMIT_RPS a second; in memory
 * on SQLite, one shared row on PostgreSQL): the RateLimit-* headers, the 429 in each variant's
 * spelling, and GraphQL operations paying by their cost.
 */
describe("rate limits", () => {
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => {
    server = await startTestServer({ env: { RATE_LIMIT_RPS: String(RPS), RATE_LIMIT_BURST: String(CAPACITY - RPS) } });
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  /** A new key of the tenant: a full bucket of its own. */
  async function freshKey(): Promise<string> {
    const created = await call(server, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: server.ownerKey, body: { label: "rate" } });
    expect(created.status).toBe(201);
    return created.body.data.apiKey;
  }

  /** Spends the key's whole bucket on GET /v1/tenant; every one of those is allowed. */
  async function exhaust(key: string): Promise<void> {
    const answers = await Promise.all(Array.from({ length: CAPACITY }, () => call(server, "GET", "/v1/tenant", { key })));
    expect(answers.map((answer) => answer.status)).toEqual(Array(CAPACITY).fill(200));
  }

  it("every answer to a key carries RateLimit-Limit, -Remaining and -Reset: REST A and B, errors, GraphQL", async () => {
    const key = await freshKey();
    const answers = [
      await call(server, "GET", "/v1/tenant", { key }),
      await call(server, "GET", "/v1/air/search?limit=5", { key }),
      await call(server, "GET", "/v1/air/offers/off_missing", { key }),
      await call(server, "GET", "/v1/no-such-route", { key }),
      await graphql(server, "{ viewer { kind } }", {}, { key }),
      await graphql(server, "{ viewr }", {}, { key }),
    ];
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 404, 404, 200, 400]);
    for (const answer of answers) {
      const headers = rateLimitHeaders(answer);
      expect(headers.limit).toBe(CAPACITY);
      expect(headers.remaining).toBeGreaterThanOrEqual(CAPACITY - answers.length);
      expect(headers.remaining).toBeLessThan(CAPACITY);
      expect(headers.reset).toBeGreaterThanOrEqual(1);
    }
  });

  it("beyond the burst, a Variant A path is 429 rate_limit_exceeded with Retry-After", async () => {
    const key = await freshKey();
    await exhaust(key);
    const refused = await call(server, "GET", "/v1/tenant", { key });
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].code).toBe("rate_limit_exceeded");
    expect(refused.body).toMatchObject({ errorCode: "RATE_LIMIT_EXCEEDED", retryable: true, statusCode: 429 });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(rateLimitHeaders(refused)).toMatchObject({ limit: CAPACITY, remaining: 0 });
  });

  it("a Variant B path spells it RATE_LIMIT_EXCEEDED", async () => {
    const key = await freshKey();
    await exhaust(key);
    const refused = await call(server, "GET", "/v1/air/search?limit=5", { key });
    expect(refused.status).toBe(429);
    expect(refused.body.errors[0].code).toBe("RATE_LIMIT_EXCEEDED");
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
  });

  it("GraphQL answers 429 with extensions.code rate_limit_exceeded", async () => {
    const key = await freshKey();
    await exhaust(key);
    const refused = await graphql(server, "{ viewer { kind } }", {}, { key });
    expect(refused.status).toBe(429);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: "rate_limit_exceeded", statusCode: 429, retryable: true });
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(rateLimitHeaders(refused)).toMatchObject({ limit: CAPACITY, remaining: 0 });
  });

  it("another key's traffic is unaffected", async () => {
    const [spent, other] = [await freshKey(), await freshKey()];
    await exhaust(spent);
    expect((await call(server, "GET", "/v1/tenant", { key: spent })).status).toBe(429);
    const answer = await call(server, "GET", "/v1/tenant", { key: other });
    expect(answer.status).toBe(200);
    expect(rateLimitHeaders(answer).remaining).toBe(CAPACITY - 1);
  });

  it("a GraphQL operation takes one token per started 10 of cost", async () => {
    const key = await freshKey();
    const cheap = await graphql(server, "{ viewer { kind } }", {}, { key });
    const cheapAt = Date.now();
    // orders(first: 20) { nodes { id } } costs 1 + 20 × (1 + 1) = 41: five tokens.
    const expensive = await graphql(server, "{ orders(first: 20) { nodes { id } } }", {}, { key });
    expect([cheap.status, expensive.status]).toEqual([200, 200]);
    expect(rateLimitHeaders(cheap).remaining).toBe(CAPACITY - 1);
    const spentByExpensive = rateLimitHeaders(cheap).remaining - rateLimitHeaders(expensive).remaining;
    // Five, less what was regained between the two at 1/s.
    expect(spentByExpensive).toBeGreaterThanOrEqual(5 - Math.ceil((Date.now() - cheapAt) / 1000));
    expect(spentByExpensive).toBeLessThanOrEqual(5);
  });

  it("an operation costing more than the bucket waits for a full bucket instead of never passing", async () => {
    const key = await freshKey();
    // 1 + 100 × (1 + 2) = 301 cost, 31 tokens: more than the 20 the bucket holds, so it takes all 20.
    const answer = await graphql(server, "{ orders(first: 100) { nodes { id status } } }", {}, { key });
    expect(answer.status).toBe(200);
    expect(rateLimitHeaders(answer).remaining).toBe(0);
    expect((await graphql(server, "{ viewer { kind } }", {}, { key })).status).toBe(429);
  });

  it("requests without a key carry no RateLimit headers (there is no bucket to report)", async () => {
    const answers = [await call(server, "GET", "/healthz"), await call(server, "GET", "/v1/tenant")];
    expect(answers.map((answer) => answer.status)).toEqual([200, 401]);
    for (const answer of answers) expect(answer.headers.get("ratelimit-limit")).toBeNull();
  });
});
