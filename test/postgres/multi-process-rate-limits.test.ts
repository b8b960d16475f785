import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** A bucket holds RATE_LIMIT_RPS + RATE_LIMIT_BURST tokens. */
const RPS = 1;
const CAPACITY = 12;

/**
 * Two servers on one PostgreSQL database share each key's token bucket (one RateLimitBucket
 * row), so a key gets one burst in all, not one per process. At RATE_LIMIT_RPS=1 each process
 * leases one token at a time, so the sharing is exact but for the refill meanwhile.
 */
describe("two servers on one PostgreSQL database share a key's rate limit", () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => {
    database = await createTestDatabase();
    const ownerKey = generateSecret("owner");
    const env = { RATE_LIMIT_RPS: String(RPS), RATE_LIMIT_BURST: String(CAPACITY - RPS) };
    a = await startTestServer({ database, ownerKey, env });
    b = await startTestServer({ database, ownerKey, env });
    expect(a.provider).toBe("postgresql");
    tenant = await createTenant(a);
  });
  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  it("requests spread over both servers get one burst between them, then 429 on either", async () => {
    const started = Date.now();
    const answers = await Promise.all(Array.from({ length: CAPACITY * 2 }, (_, i) => call(i % 2 === 0 ? a : b, "GET", "/v1/tenant", { key: tenant.key })));
    const regained = Math.ceil((Date.now() - started) / 1000);
    const allowed = answers.filter((answer) => answer.status === 200).length;
    // Per process, each would have allowed all CAPACITY of its own half and more: 2 × CAPACITY in all.
    expect(allowed).toBeGreaterThanOrEqual(CAPACITY);
    expect(allowed).toBeLessThanOrEqual(CAPACITY + regained);
    expect(answers.filter((answer) => answer.status === 429)).toHaveLength(CAPACITY * 2 - allowed);

    const [onA, onB] = [await call(a, "GET", "/v1/tenant", { key: tenant.key }), await call(b, "GET", "/v1/tenant", { key: tenant.key })];
    expect([onA.status, onB.status]).toEqual([429, 429]);
    for (const refused of [onA, onB]) {
      expect(refused.body.errors[0].code).toBe("rate_limit_exceeded");
      expect(Number(refused.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
      expect(refused.headers.get("ratelimit-remaining")).toBe("0");
    }
  });

  it("a key's bucket spent through A refuses on B at once", async () => {
    const other = await call(a, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: a.ownerKey, body: { label: "other" } });
    expect(other.status).toBe(201);
    const key = other.body.data.apiKey as string;
    const throughA = await Promise.all(Array.from({ length: CAPACITY }, () => call(a, "GET", "/v1/tenant", { key })));
    expect(throughA.every((answer) => answer.status === 200)).toBe(true);
    expect((await call(b, "GET", "/v1/tenant", { key })).status).toBe(429);
  });
});
