import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, type Operation } from "../../src/context/operations";
import { openApiDocument } from "../../src/rest/openapi";
import { restRoutes } from "../../src/rest/routes";
import { call, createTenant, type ApiResponse, type TenantFixture } from "../helpers/client";
import { daysAhead } from "../helpers/offers";
import { DocumentRequests, queryString, type DescribedOperation, type RequestValues } from "../helpers/schema-arbitraries";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * /openapi.json holds every request rule the server enforces (docs/request-rules.md), proven
 * from the document itself, for every operation (new ones are covered without touching this
 * file): requests generated valid by it are never refused for their shape, and requests it
 * calls invalid are always refused (4xx, never 2xx, never 5xx).
 *
 * Reproduce a failure with FUZZ_SEED=<the seed printed> npx vitest run test/integration/openapi-requests.test.ts
 */

const SEED = Number(process.env.FUZZ_SEED ?? 3_712_026);
const VALID_RUNS = 20;
const INVALID_RUNS = 20;

/** The operations, listed from the document the server serves (openapi.test.ts holds the two equal). */
const planned = new DocumentRequests(JSON.parse(JSON.stringify(openApiDocument(restRoutes))));

/** What a request's shape earns: none of these may answer a request the document calls valid. */
const SHAPE_REFUSALS = new Set(["validation_failed", "invalid_search_params", "invalid_field_value", "LIMIT_OUT_OF_RANGE"]);

/** Place codes the airport index knows (reference data, which the document does not list), in both cases. */
const KNOWN_PLACES = ["LHR", "JFK", "LON", "NYC", "BCN", "CDG", "PAR", "MAD", "FRA", "AMS", "DXB", "SIN", "lhr", "jfk", "bcn"];
const SUPPLIERS = ["simulated", "simulated_lcc"];
/** What a pricing rule matches a route on: airports, cities and countries the reference data knows. */
const RULE_PLACES = ["LHR", "LON", "JFK", "GB", "US", "FR"];

/**
 * Values whose validity depends on the clock, reference data or the relation between two values,
 * none of which JSON Schema can state (docs/request-rules.md#what-the-document-cannot-know): a
 * request valid by the document is brought within them here, by operation, and stays valid by it.
 * The draws come from the request itself, so a run stays reproducible from its seed.
 */
function withinDomain(operationId: string, request: RequestValues, draw: number, clockNow: number, tenantId: string): RequestValues {
  const pick = <T>(list: readonly T[], offset = 0): T => list[(draw + offset) % list.length]!;
  const places = (offset: number): [string, string] => {
    const origin = pick(KNOWN_PLACES, offset);
    const destinations = KNOWN_PLACES.filter((code) => code.toUpperCase() !== origin.toUpperCase() && !sameCity(code, origin));
    return [origin, pick(destinations, offset + 3)];
  };
  const slices = (list: any[]) =>
    list.map((slice, index) => {
      const [origin, destination] = places(index);
      return { ...slice, origin, destination, departure_date: daysAhead(20 + 10 * index + (draw % 7)) };
    });
  const passengers = (list: any[]) => {
    const fitted = list.map((passenger, index) => ({ ...passenger, ...(passenger.id === undefined ? {} : { id: `${passenger.id.slice(0, 60)}-${index}` }) }));
    fitted[0] = { ...fitted[0], type: "adult" };
    let adults = fitted.filter((passenger) => passenger.type === "adult").length;
    for (const passenger of fitted) if (passenger.type === "infant_without_seat" && fitted.filter((one) => one.type === "infant_without_seat").length > adults) (passenger.type = "adult"), adults++;
    return fitted;
  };
  const search = (core: any) => ({ ...core, slices: slices(core.slices), passengers: passengers(core.passengers) });
  const body = request.body as any;
  switch (operationId) {
    case "searchFlights":
    case "createBatchOfferRequest": {
      const behaviour = body.supplier_behaviour && Object.fromEntries(Object.values(body.supplier_behaviour).slice(0, 1).map((outcome) => [pick(SUPPLIERS), outcome]));
      const fitted = body.data ? { ...body, data: search(body.data) } : search(body);
      return { ...request, body: { ...fitted, ...(behaviour ? { supplier_behaviour: behaviour } : {}) } };
    }
    case "requestOrderChange":
      return { ...request, body: { ...body, slices: { ...body.slices, add: slices(body.slices.add) } } };
    case "fareCalendar": {
      const [origin, destination] = places(0);
      const from = 10 + (draw % 30);
      return { ...request, query: { ...request.query, origin, destination, from: daysAhead(from), to: daysAhead(from + (draw % 60)) } };
    }
    case "destinations": {
      const maxPrice = request.query.max_price as string | undefined;
      return { ...request, query: { ...request.query, origin: places(0)[0], month: daysAhead(40 + (draw % 200)).slice(0, 7), ...(maxPrice ? { max_price: maxPrice.replace(/(\.\d{0,2})\d*$/, "$1").replace(/\.$/, "") } : {}) } };
    }
    case "updateWallet":
    case "updateTenantWallet": {
      // The wallet's currency (USD here) is stored state: its amounts take two decimals at most.
      const cents = (amount: unknown) => (typeof amount === "string" ? amount.replace(/(\.\d{0,2})\d*$/, "$1").replace(/\.$/, "") : amount);
      const amounts = Object.fromEntries(["credit_limit", "low_balance_threshold"].filter((field) => field in body).map((field) => [field, cents(body[field])]));
      return { ...request, body: { ...body, ...amounts } };
    }
    case "advanceSandboxClock":
      // Ahead of the tenant's clock (as it reads now), a day at most.
      return { ...request, body: "seconds" in body ? { seconds: 1 + (body.seconds % 86_400) } : { to: new Date(clockNow + 60_000 + (draw % 86_400) * 1000).toISOString() } };
    case "updateTenantConfig":
      return {
        ...request,
        body: {
          ...body,
          ...(body.suppliers ? { suppliers: SUPPLIERS.slice(0, 1 + (draw % 2)) } : {}),
          // Webhooks turned on need a URL, this one's or the stored one.
          ...(body.webhook_enabled === true && !body.webhook_url ? { webhook_url: "https://hooks.example/aerogate" } : {}),
        },
      };
    case "updateTenant":
      return {
        ...request,
        body: {
          ...body,
          ...(body.allowed_suppliers ? { allowed_suppliers: SUPPLIERS.slice(0, body.allowed_suppliers.length === 0 ? 0 : 1 + (draw % 2)) } : {}),
          // Only a supplier that takes an account has a platform account.
          ...(body.platform_accounts ? { platform_accounts: body.platform_accounts.length === 0 ? [] : ["duffel"] } : {}),
        },
      };
    case "createPricingRule":
    case "updatePricingRule": {
      const forTenant = typeof body.tenant_id === "string" ? { tenant_id: tenantId } : {};
      if (!body.match) return { ...request, body: { ...body, ...forTenant } };
      const known = (field: string, list: readonly string[], offset: number) => (body.match[field] === undefined || body.match[field] === null ? {} : { [field]: pick(list, offset) });
      const match = { ...body.match, ...known("supplier", SUPPLIERS, 0), ...known("origin", RULE_PLACES, 1), ...known("destination", RULE_PLACES, 2) };
      return { ...request, body: { ...body, ...forTenant, match } };
    }
    case "overview": {
      // A span of at most 366 days ending no later than today, from before to (the server's rules between the two and the clock).
      const to = daysAhead(-(draw % 30));
      return { ...request, query: { ...request.query, ...(request.query.from === undefined ? {} : { from: daysAhead(-(draw % 30) - (draw % 300)) }), ...(request.query.to === undefined ? {} : { to }) } };
    }
    default:
      return request;
  }
}

/** A path parameter: the caller's own key or tenant, a month already begun, else an id that names nothing. */
function pathValue(name: string, path: string, caller: { keyId: string; tenantId: string }): string {
  if (name === "keyId") return caller.keyId;
  if (path.startsWith("/v1/tenants/")) return caller.tenantId;
  if (name === "month") return daysAhead(-40).slice(0, 7);
  return `${name}_unknown`;
}

/** LON holds LHR, NYC holds JFK, PAR holds CDG: a city and its own airport are the same place. */
function sameCity(a: string, b: string): boolean {
  const city: Record<string, string> = { LHR: "LON", JFK: "NYC", CDG: "PAR" };
  const of = (code: string) => city[code.toUpperCase()] ?? code.toUpperCase();
  return of(a) === of(b);
}

describe("requests generated from /openapi.json", { timeout: 120_000 }, () => {
  let server: TestServer;
  let requests: DocumentRequests;
  const tally = { valid: 0, accepted: 0, invalid: 0, startedAt: 0, refusals: new Map<string, number>() };

  beforeAll(async () => {
    server = await startTestServer({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", TICKETING_DELAY_MS: "50" } });
    const served = await call(server, "GET", "/openapi.json");
    requests = new DocumentRequests(served.body);
    tally.startedAt = Date.now();
  });

  afterAll(async () => {
    const refusals = [...tally.refusals].sort(([, a], [, b]) => b - a).map(([code, count]) => `${count}× ${code}`).join(", ");
    console.log(`openapi requests (seed ${SEED}): ${tally.valid} valid requests (${tally.accepted} answered 2xx) and ${tally.invalid} invalid ones in ${((Date.now() - tally.startedAt) / 1000).toFixed(1)} s; the invalid ones answered ${refusals}`);
    await server?.close();
  });

  /** Sends one request as the operation's own caller: the owner, or a tenant of its own. */
  async function send(operation: DescribedOperation, request: RequestValues, caller: TenantFixture): Promise<{ response: ApiResponse; described: string }> {
    const owner = operations[operationFor(operation)]?.audience === "owner";
    const path = operation.path.replace(/\{(\w+)\}/g, (_match, name: string) => encodeURIComponent(pathValue(name, operation.path, caller)));
    const headers: Record<string, string> = {};
    if (request.idempotencyKey !== undefined) headers["idempotency-key"] = request.idempotencyKey;
    const url = path + queryString(request.query);
    const response = await call(server, operation.method, url, { key: owner ? server.ownerKey : caller.key, headers, ...(request.body === undefined ? {} : { rawBody: JSON.stringify(request.body) }) });
    const described = `${operation.method} ${url} key ${JSON.stringify(request.idempotencyKey)} body ${JSON.stringify(request.body)?.slice(0, 600)} → ${response.status} ${JSON.stringify(response.body)?.slice(0, 400)} (seed ${SEED})`;
    return { response, described };
  }

  describe.each(planned.operations.map((operation, index) => [operation.operationId, index] as const))("%s", (operationId, index) => {
    it("a request valid by the document is never refused for its shape", async () => {
      const operation = requests.operations.find((one) => one.operationId === operationId)!;
      const caller = await createTenant(server);
      const takesInput = operation.query.length > 0 || operation.body !== null || operation.idempotencyKey !== null;
      const samples = fc.sample(fc.tuple(requests.requests(operation), fc.nat()), { numRuns: takesInput ? VALID_RUNS : 1, seed: SEED + index });
      for (const [generated, draw] of samples) {
        const clockNow = operationId === "advanceSandboxClock" ? Date.parse((await call(server, "GET", "/v1/sandbox/clock", { key: caller.key })).body.data.now) : Date.now();
        const request = withinDomain(operationId, generated, draw, clockNow, caller.tenantId);
        expect(requests.validRequest(operation, request), `the domain's values left the document: ${JSON.stringify(request)}`).toBe(true);
        const { response, described } = await send(operation, request, caller);
        tally.valid++;
        if (response.status < 300) tally.accepted++;
        // A supplier's forced timeout (sandbox) or supplier connections switched off are answers of state, not of shape; our own fault never is.
        expect(response.status, described).not.toBe(500);
        if (response.status >= 400) expect(SHAPE_REFUSALS.has(response.body?.errors?.[0]?.code), described).toBe(false);
      }
    });
  });

  // Every operation with an input to break: a query, a body or an Idempotency-Key.
  const breakable = planned.operations.flatMap((operation, index) => (planned.invalidRequests(operation) ? [[operation.operationId, index] as const] : []));

  describe.each(breakable)("%s", (operationId, index) => {
    it("a request the document calls invalid is refused with a 4xx", async () => {
      const operation = requests.operations.find((one) => one.operationId === operationId)!;
      const caller = await createTenant(server);
      for (const request of fc.sample(requests.invalidRequests(operation)!, { numRuns: INVALID_RUNS, seed: SEED + 1_000 + index })) {
        const { response, described } = await send(operation, request, caller);
        tally.invalid++;
        const code = `${response.status} ${response.body?.errors?.[0]?.code}`;
        tally.refusals.set(code, (tally.refusals.get(code) ?? 0) + 1);
        expect(response.status, described).toBeGreaterThanOrEqual(400);
        expect(response.status, described).toBeLessThan(500);
      }
    });
  });
});

/** The permission table's operation of a document operation (its operationId, less Variant B's "B"). */
function operationFor(operation: DescribedOperation): Operation {
  const route = restRoutes.find((candidate) => candidate.method === operation.method && candidate.url.replace(/:(\w+)/g, "{$1}") === operation.path)!;
  return route.operation;
}
