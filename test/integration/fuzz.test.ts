import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ApiResponse, type TenantFixture, call, startServerWithTenant } from "../helpers/client";
import { expectCatalogueError } from "../helpers/error-shape";
import { anyValue, describeBody, json, poisonKey, rawText, withPoisonKey, type RawBody } from "../helpers/fuzz-inputs";
import type { TestServer } from "../helpers/test-server";

/**
 * Property-based: whatever a client sends to the two write paths of the platform, the answer
 * is never a 5xx, every refusal is a catalogued error, and a refused request changes nothing.
 */

/** Runs per property: enough to reach every branch of the generators, small enough for ~15 s in all. */
const NUM_RUNS = 120;

/** A metadata object: valid, too many pairs, too long keys/values, non-string values. */
const metadataValue = fc.oneof(
  fc.dictionary(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ maxLength: 500 }), { maxKeys: 25 }),
  fc.dictionary(fc.string({ maxLength: 60 }), anyValue, { maxKeys: 5 }),
  anyValue,
);

/**
 * Random bodies for one route: arbitrary JSON, objects of its real fields with random values,
 * valid bodies with at most one field swapped for a random value, poisoned keys, raw text.
 */
function bodiesFor(fields: Record<string, fc.Arbitrary<unknown>>, valid: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<RawBody> {
  const nearlyValid = fc.tuple(valid, fc.record(fields, { requiredKeys: [] }), fc.nat()).map(([base, random, pick]) => {
    const keys = Object.keys(random);
    if (keys.length === 0 || pick % 3 === 0) return base;
    const key = keys[pick % keys.length]!;
    return { ...base, [key]: random[key] };
  });
  const mixedObject = fc
    .tuple(
      fc.record(fields, { requiredKeys: [] }),
      fc.dictionary(fc.string({ maxLength: 12 }), anyValue, { maxKeys: 3 }),
      fc.boolean(),
    )
    .map(([known, extra, withExtra]) => (withExtra ? { ...extra, ...known } : known));
  const poisoned = fc.tuple(mixedObject, poisonKey).map(([object, poison]) => ({ text: withPoisonKey(JSON.stringify(object), poison), contentType: "application/json" }));
  return fc.oneof(
    { arbitrary: mixedObject.map(json), weight: 4 },
    { arbitrary: nearlyValid.map(json), weight: 3 },
    { arbitrary: fc.jsonValue().map(json), weight: 2 },
    { arbitrary: poisoned, weight: 1 },
    { arbitrary: rawText, weight: 2 },
  );
}

function send(server: TestServer, method: string, path: string, key: string, body: RawBody): Promise<ApiResponse> {
  return call(server, method, path, { key, rawBody: body.text, headers: { "content-type": body.contentType } });
}

interface WriteCheck<S> {
  bodies: fc.Arbitrary<RawBody>;
  send: (body: RawBody) => Promise<ApiResponse>;
  /** What a write would change, read before and after each request. */
  snapshot: () => Promise<S>;
  /** Assertions on an accepted write. */
  whenAccepted: (response: ApiResponse, body: RawBody, before: S, after: S) => void;
}

/**
 * The write-path property: never a 5xx; every 4xx in the catalogue's shape and with the data
 * unchanged; accepted writes as `whenAccepted` says. Both outcomes must occur, so neither half
 * of the property is vacuous.
 */
async function checkWrites<S>({ bodies, send: sendBody, snapshot, whenAccepted }: WriteCheck<S>): Promise<void> {
  let accepted = 0;
  let rejected = 0;
  let current = await snapshot();
  await fc.assert(
    fc.asyncProperty(bodies, async (body) => {
      const before = current;
      const response = await sendBody(body);
      const context = `${describeBody(body)} → ${response.status} ${JSON.stringify(response.body)?.slice(0, 300)}`;
      const after = (current = await snapshot());
      expect(response.status, context).toBeLessThan(500);
      if (response.status >= 400) {
        rejected++;
        expectCatalogueError(response);
        expect(after, `a rejected write changed data: ${context}`).toEqual(before);
      } else {
        accepted++;
        whenAccepted(response, body, before, after);
      }
    }),
    { numRuns: NUM_RUNS },
  );
  expect(rejected).toBeGreaterThan(NUM_RUNS / 2);
  expect(accepted).toBeGreaterThan(0);
  expect(accepted + rejected).toBe(NUM_RUNS);
}

describe("fuzzing the write paths", () => {
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => ({ server, tenant } = await startServerWithTenant()));
  afterAll(() => server.close());

  /** Tenants in the database, tombstones included: what a create would change. */
  function tenantCount(): Promise<number> {
    return server.db.prisma.tenant.count();
  }

  async function tenantConfig(): Promise<Record<string, unknown>> {
    const response = await call(server, "GET", "/v1/tenant", { key: tenant.key });
    expect(response.status).toBe(200);
    return response.body.data;
  }

  it(
    "POST /v1/tenants: never a 5xx, every 4xx catalogued, a rejected create creates nothing",
    async () => {
      const bodies = bodiesFor({
        name: fc.oneof(fc.string({ minLength: 1, maxLength: 50 }), anyValue),
        email: fc.oneof(fc.emailAddress(), anyValue),
        metadata: metadataValue,
        environment: fc.oneof(fc.constantFrom("sandbox", "live", "LIVE", "production", ""), anyValue),
      }, fc.record(
        {
          name: fc.string({ minLength: 1, maxLength: 60 }).filter((name) => name.trim() !== ""),
          email: fc.constantFrom("ops@agency.test", "a.b+c@example.com", "x@y.io"),
          metadata: fc.dictionary(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ maxLength: 100 }), { maxKeys: 20 }),
          environment: fc.constantFrom("sandbox", "live"),
        },
        { requiredKeys: ["name", "email"] },
      ));
      await checkWrites({
        bodies,
        send: (body) => send(server, "POST", "/v1/tenants", server.ownerKey, body),
        // Only this property creates tenants here, so each run's "after" is the next run's "before".
        snapshot: tenantCount,
        whenAccepted: (response, body, before, after) => {
          expect(response.status).toBe(201);
          expect(response.body.data.tenantId).toMatch(/^ten_/);
          expect(response.body.data.status).toBe("active");
          const sent = JSON.parse(body.text) as { name: string; email: string };
          expect(response.body.data.name).toBe(sent.name.trim());
          expect(response.body.data.email).toBe(sent.email);
          expect(after).toBe(before + 1);
        },
      });
    },
    60_000,
  );

  it(
    "PATCH /v1/tenant: never a 5xx, every 4xx catalogued, a rejected patch leaves the configuration identical",
    async () => {
      const bodies = bodiesFor({
        webhook_url: fc.oneof(fc.webUrl(), fc.constant(null), fc.constantFrom("ftp://x.test", "javascript:alert(1)", "http://", "not a url"), anyValue),
        webhook_enabled: fc.oneof(fc.boolean(), anyValue),
        default_currency: fc.oneof(fc.constantFrom("EUR", "USD", "GBP", "JPY", "eur", "XXX", "EURO", ""), anyValue),
        timezone: fc.oneof(fc.constantFrom("Europe/Paris", "UTC", "America/New_York", "europe/paris", "Mars/Olympus", "+02:00", ""), anyValue),
        metadata: metadataValue,
        id: anyValue,
        name: anyValue,
        slug: anyValue,
        environment: fc.oneof(fc.constantFrom("live", "sandbox"), anyValue),
        status: fc.oneof(fc.constantFrom("active", "suspended", "disabled"), anyValue),
        created_at: anyValue,
        updated_at: anyValue,
      }, fc.record(
        {
          webhook_enabled: fc.constant(false),
          default_currency: fc.constantFrom("EUR", "USD", "GBP", "JPY"),
          timezone: fc.constantFrom("Europe/Paris", "UTC", "Asia/Tokyo"),
          metadata: fc.dictionary(fc.string({ minLength: 1, maxLength: 40 }), fc.string({ maxLength: 100 }), { maxKeys: 20 }),
        },
        { requiredKeys: [] },
      ).filter((patch) => Object.keys(patch).length > 0));
      await checkWrites({
        bodies,
        send: (body) => send(server, "PATCH", "/v1/tenant", tenant.key, body),
        // Only this property changes the configuration, so each run's "after" is the next run's "before".
        snapshot: tenantConfig,
        whenAccepted: (response, body, before, after) => {
          expect(response.status).toBe(200);
          // The PATCH answer may add the webhook secret (shown once); the rest is what GET reads.
          const { webhook_secret: _secret, ...shown } = response.body.data as Record<string, unknown>;
          expect(after).toEqual(shown);
          // Immutable fields never move, whatever was accepted.
          for (const field of ["id", "name", "slug", "environment", "status", "created_at"]) {
            expect(after[field], field).toEqual(before[field]);
          }
          const sent = JSON.parse(body.text) as Record<string, unknown>;
          for (const field of ["webhook_url", "webhook_enabled", "default_currency", "metadata"]) {
            if (Object.hasOwn(sent, field)) expect(after[field], field).toEqual(sent[field]);
          }
        },
      });
    },
    60_000,
  );

  it(
    "raw non-JSON bodies on both paths: 4xx catalogued, nothing changes",
    async () => {
      const garbage = fc.record({
        text: fc.oneof(
          fc.string({ minLength: 1 }),
          fc.string({ unit: "binary", minLength: 1 }),
          fc.string({ minLength: 1 }).map((text) => `{${text}`),
          fc.jsonValue().map((value) => `${JSON.stringify(value)}}`),
        ),
        contentType: fc.constantFrom("application/json", "text/plain", "text/html", "application/x-www-form-urlencoded"),
      }).filter(({ text }) => {
        try {
          JSON.parse(text);
          return false;
        } catch {
          return text.trim() !== "";
        }
      });
      const countBefore = await tenantCount();
      const configBefore = await tenantConfig();
      await fc.assert(
        fc.asyncProperty(garbage, fc.boolean(), async (body, onCreate) => {
          const response = onCreate
            ? await send(server, "POST", "/v1/tenants", server.ownerKey, body)
            : await send(server, "PATCH", "/v1/tenant", tenant.key, body);
          const context = `${describeBody(body)} → ${response.status} ${JSON.stringify(response.body)?.slice(0, 300)}`;
          expectCatalogueError(response);
          expect(response.status, context).toBeLessThan(500);
          const expected = body.contentType === "application/json" ? "invalid_json" : "unsupported_media_type";
          expect(response.body.errors[0].code, context).toBe(expected);
          if (onCreate) expect(await tenantCount()).toBe(countBefore);
          else expect(await tenantConfig()).toEqual(configBefore);
        }),
        { numRuns: 100 },
      );
    },
    60_000,
  );
});
