import { createFixtures, type ApiClient, type ApiResponse, type Fixtures } from "./fixtures";
import { allTicketed, bookAll, fundTickets, orderBody, seatedOrderBodies, withFreshKey } from "./order-fixtures";
import { changeRequestBodies } from "./order-change-fixtures";
import { confirmOpenQuotes, ticketedOrders } from "./cancellation-fixtures";

/**
 * What a scenario must reach:
 * - `minRatio`: its req/s at least this fraction of the bare Fastify route's (same run, same machine);
 * - `maxP50Ms` + `minRps`: an absolute latency and throughput floor, for endpoints that do real work;
 * - `minRps` alone: a throughput floor (with `settle`, of work finished end to end).
 * With no target a scenario is only checked for errors.
 */
export type Target = { minRatio: number } | { maxP50Ms: number; minRps: number } | { minRps: number } | { minShareOf: string; share: number };

export type Method = "GET" | "POST" | "PUT" | "PATCH" | "DELETE";

/** One request, sent over and over by every connection during the run. */
export interface BenchRequest {
  method: Method;
  path: string;
  headers?: Record<string, string>;
  /** Sent as JSON (`content-type: application/json` is added); a string is sent as is. */
  body?: unknown;
  /**
   * Bodies sent in turn, one per request, instead of `body` over and over: for work that must not
   * repeat, such as searches past the supplier cache. `body` is then the first of them (for checks).
   */
  bodies?: unknown[];
  /**
   * Requests sent once each, in order, for work that must never repeat (booking an offer,
   * ticketing an order): the run sends exactly these and ends when they are done.
   */
  once?: OnceRequest[];
}

/** One request of a `once` list: its own path, headers and body. */
export interface OnceRequest {
  path: string;
  headers?: Record<string, string>;
  body?: unknown;
}

/** Handed to `setup` and `check`: a client for the server under test and the shared fixtures. */
export interface ScenarioContext {
  api: ApiClient;
  fixtures: Fixtures;
  /** A client for another server process of the run (the rate-limited one). */
  apiFor: (server: "limited") => ApiClient;
}

export interface Scenario {
  name: string;
  /**
   * Which process answers: the real server (default), the bare Fastify baseline, Apollo alone
   * (bench/apollo-server.ts), or the real server with rate limiting on (at a rate never reached).
   */
  server?: "app" | "bare" | "apollo" | "limited";
  /** The scenario every ratio is computed against (exactly one). */
  baseline?: boolean;
  /** A static request; `auth` adds `Authorization: Bearer <key>` from the fixtures. */
  method?: Method;
  path?: string;
  headers?: Record<string, string>;
  body?: unknown;
  bodies?: unknown[];
  auth?: "tenant" | "owner";
  /**
   * For scenarios that need data first (e.g. a search needing a schedule): runs once, through
   * the API, before the warm-up, and returns the request to load-test. Overrides the static fields.
   */
  setup?: (ctx: ScenarioContext) => Promise<BenchRequest> | BenchRequest;
  /**
   * Checks one answer, sent once before the warm-up and once after the measured run (a
   * GraphQL error still answers 200). Returns a problem description, or nothing when fine.
   */
  check?: (response: ApiResponse, ctx: ScenarioContext) => string | undefined;
  target?: Target;
  /**
   * Concurrent connections, when the default (50) does not fit the target: by Little's law a
   * p50 of 10 ms at 500 req/s means about 5 requests in flight, not 50.
   */
  connections?: number;
  /**
   * For work that cannot repeat: before the check, the warm-up and each measured run, `prepare`
   * makes `count` fresh requests (`perSecond` × the run's seconds; the check takes one).
   */
  once?: { perSecond: number; prepare: (ctx: ScenarioContext, count: number) => Promise<OnceRequest[]> };
  /**
   * Waits, after the measured requests, until the work they started is done (e.g. until every
   * ticketed order is TICKETED); req/s then counts requests over the load time plus this wait.
   */
  settle?: (ctx: ScenarioContext) => Promise<void>;
}

const viewerQuery = "{ viewer { kind tenant { id name } } }";

/** A date `days` from today, `YYYY-MM-DD` (searches must not be in the past). */
function daysAhead(days: number): string {
  return new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
}

/** A one-way search for one adult; LON→NYC (every airport of both cities) returns close to the 50-offer cap. */
function oneWaySearch(origin = "LON", destination = "NYC", days = 30, cabin_class = "economy") {
  return { slices: [{ origin, destination, departure_date: daysAhead(days) }], passengers: [{ type: "adult" }], cabin_class, max_connections: 1 };
}

/**
 * 2,400 different searches (4 cabins × 300 dates, each with and without connections), sent in a
 * cycle: more than the supplier cache ever holds (at most 2,000, oldest dropped first), so every
 * one is computed afresh. The dates stay within the 361 days the airline sells.
 */
export function uncachedSearches(origin: string, destination: string) {
  const cabins = ["economy", "premium_economy", "business", "first"];
  return Array.from({ length: 300 }, (_, day) =>
    cabins.flatMap((cabin) => [0, 1].map((max_connections) => ({ ...oneWaySearch(origin, destination, 20 + day, cabin), max_connections }))),
  ).flat();
}

/** A fare calendar or destination ideas with at least `min` items, or what is wrong with it. */
function checkDays(min: number) {
  return ({ body }: ApiResponse): string | undefined => {
    const items = (body as { data?: unknown[] } | undefined)?.data;
    return Array.isArray(items) && items.length >= min ? undefined : `expected at least ${min} items, got ${JSON.stringify(body).slice(0, 200)}`;
  };
}

/** A search answer with 1–50 offers, or what is wrong with it. */
function checkOffers({ body }: ApiResponse): string | undefined {
  const count = body?.data?.offers?.length;
  return typeof count === "number" && count > 0 && count <= 50 ? undefined : `expected 1–50 offers, got ${JSON.stringify(body).slice(0, 300)}`;
}

/** The first offer of a one-way search by the bench tenant, and the headers that read it. */
async function searchedOffer({ api, fixtures }: ScenarioContext): Promise<{ offerId: string; headers: Record<string, string> }> {
  const headers = { authorization: `Bearer ${fixtures.tenantKey}` };
  const found = await api.expectOk<{ data: { offers: Array<{ id: string }> } }>("POST", "/v1/air/search", { headers, body: oneWaySearch() });
  const offer = found.data.offers[0];
  if (!offer) throw new Error("the search returned no offers");
  return { offerId: offer.id, headers };
}

/** Aircraft codes of the simulated airline's widebodies. */
const WIDEBODIES = new Set(["789", "359", "77W", "388"]);

/** A direct LHR→JFK offer on a widebody (its seat map is the largest kind), and the headers that read it. */
async function widebodyOffer({ api, fixtures }: ScenarioContext): Promise<{ offerId: string; headers: Record<string, string> }> {
  const headers = { authorization: `Bearer ${fixtures.tenantKey}` };
  type Found = { data: { offers: Array<{ id: string; slices: Array<{ segments: Array<{ aircraft: { iata_code: string } }> }> }> } };
  const found = await api.expectOk<Found>("POST", "/v1/air/search", { headers, body: oneWaySearch("LHR", "JFK") });
  const offer = found.data.offers.find((candidate) => candidate.slices.every((slice) => slice.segments.length === 1 && WIDEBODIES.has(slice.segments[0]!.aircraft.iata_code)));
  if (!offer) throw new Error("the search returned no direct widebody offer");
  return { offerId: offer.id, headers };
}

/** An offer as an integrator's page shows it: price, expiry, the itinerary. */
const offerQuery = `query Offer($id: ID!) { offer(id: $id) { id totalAmount totalCurrency expiresAt
  slices { duration segments { origin { iataCode } destination { iataCode } departingAt arrivingAt marketingCarrier { iataCode } marketingCarrierFlightNumber } } } }`;

/** Run in this order, one after another. Add new scenarios here, one entry each. */
export const scenarios: Scenario[] = [
  {
    name: "bare Fastify JSON route",
    server: "bare",
    baseline: true,
    method: "GET",
    path: "/bare",
  },
  {
    name: "GET /healthz",
    method: "GET",
    path: "/healthz",
  },
  {
    name: "GET /v1/tenant",
    method: "GET",
    path: "/v1/tenant",
    auth: "tenant",
    check: ({ body }, { fixtures }) => (body?.data?.id === fixtures.tenant.id ? undefined : `unexpected body ${JSON.stringify(body)}`),
    target: { minRatio: 0.3 },
  },
  {
    name: "GET /v1/tenant with a scoped key (tenant: read only)",
    setup: async ({ api, fixtures }) => {
      const issued = await api.expectOk<{ data: { apiKey: string } }>("POST", `/v1/tenants/${fixtures.tenant.id}/keys`, {
        key: fixtures.ownerKey,
        body: { label: "bench scoped", permissions: { tenant: "read" } },
      });
      return { method: "GET", path: "/v1/tenant", headers: { authorization: `Bearer ${issued.data.apiKey}` } };
    },
    check: ({ body }, { fixtures }) => (body?.data?.id === fixtures.tenant.id ? undefined : `unexpected body ${JSON.stringify(body)}`),
    target: { minShareOf: "GET /v1/tenant", share: 0.95 },
  },
  {
    name: "GET /v1/tenant, rate limited (RATE_LIMIT_RPS=10⁹)",
    server: "limited",
    setup: async ({ apiFor, fixtures }) => {
      const limited = await createFixtures(apiFor("limited"), fixtures.ownerKey, "Bench Limits");
      return { method: "GET", path: "/v1/tenant", headers: { authorization: `Bearer ${limited.tenantKey}` } };
    },
    check: ({ body }) => (typeof body?.data?.id === "string" ? undefined : `unexpected body ${JSON.stringify(body)}`),
    target: { minShareOf: "GET /v1/tenant", share: 0.95 },
  },
  {
    name: "Apollo Server alone: POST /graphql { __typename } (no auth, no plugins of ours)",
    server: "apollo",
    method: "POST",
    path: "/graphql",
    body: { query: "{ __typename }" },
    check: ({ body }) => (body?.data?.__typename === "Query" ? undefined : `unexpected body ${JSON.stringify(body)}`),
  },
  {
    name: "POST /graphql { viewer { kind tenant { id name } } }",
    method: "POST",
    path: "/graphql",
    auth: "tenant",
    body: { query: viewerQuery },
    check: ({ body }, { fixtures }) =>
      body?.errors === undefined && body?.data?.viewer?.kind === "TENANT" && body.data.viewer.tenant?.id === fixtures.tenant.id
        ? undefined
        : `unexpected body ${JSON.stringify(body)}`,
    target: { minRatio: 0.25 },
  },
  {
    name: "GET /v1/air/locations?query=lon",
    method: "GET",
    path: "/v1/air/locations?query=lon",
    auth: "tenant",
    check: ({ body }) => (body?.data?.[0]?.iata_city_code === "LON" ? undefined : `expected a London airport first, got ${JSON.stringify(body).slice(0, 300)}`),
    target: { minRatio: 0.5 },
  },
  {
    name: "POST /v1/air/search LHR→JFK one-way (~8 offers)",
    method: "POST",
    path: "/v1/air/search",
    auth: "tenant",
    body: oneWaySearch("LHR", "JFK"),
    check: checkOffers,
    target: { maxP50Ms: 10, minRps: 500 },
    connections: 5,
  },
  {
    name: "POST /v1/air/search LHR→JFK, 2,400 searches in turn (supplier cache missed)",
    method: "POST",
    path: "/v1/air/search",
    auth: "tenant",
    bodies: uncachedSearches("LHR", "JFK"),
    check: checkOffers,
    target: { maxP50Ms: 10, minRps: 500 },
    connections: 5,
  },
  {
    name: "POST /v1/air/search LON→NYC one-way (~48 offers)",
    method: "POST",
    path: "/v1/air/search",
    auth: "tenant",
    body: oneWaySearch(),
    check: checkOffers,
    target: { maxP50Ms: 10, minRps: 500 },
    connections: 5,
  },
  {
    name: "GET /v1/air/fare_calendar LON→NYC, 60 days",
    method: "GET",
    path: `/v1/air/fare_calendar?origin=LON&destination=NYC&from=${daysAhead(20)}&to=${daysAhead(79)}`,
    auth: "tenant",
    check: checkDays(40),
    target: { maxP50Ms: 50, minRps: 100 },
    connections: 5,
  },
  {
    name: "GET /v1/air/destinations from LON, a month",
    method: "GET",
    path: `/v1/air/destinations?origin=LON&month=${daysAhead(45).slice(0, 7)}`,
    auth: "tenant",
    check: checkDays(10),
    target: { maxP50Ms: 100, minRps: 10 },
    connections: 5,
  },
  {
    name: "GET /v1/air/offers/:id",
    setup: async (ctx) => {
      const { offerId, headers } = await searchedOffer(ctx);
      return { method: "GET", path: `/v1/air/offers/${offerId}`, headers };
    },
    check: ({ body }) => (typeof body?.data?.id === "string" && body.data.payment_requirements ? undefined : `unexpected body ${JSON.stringify(body).slice(0, 300)}`),
    target: { minRatio: 0.3 },
  },
  {
    name: "POST /graphql { offer(id) { … } }",
    setup: async (ctx) => {
      const { offerId, headers } = await searchedOffer(ctx);
      return { method: "POST", path: "/graphql", headers, body: { query: offerQuery, variables: { id: offerId } } };
    },
    check: ({ body }) => (body?.errors === undefined && typeof body?.data?.offer?.id === "string" ? undefined : `unexpected body ${JSON.stringify(body).slice(0, 300)}`),
    target: { minRatio: 0.2 },
  },
  {
    name: "GET /v1/air/seat_maps?offer_id= (a widebody's map, ~300 seats)",
    setup: async (ctx) => {
      const { offerId, headers } = await widebodyOffer(ctx);
      return { method: "GET", path: `/v1/air/seat_maps?offer_id=${offerId}`, headers };
    },
    check: ({ body }) => (body?.data?.[0]?.cabins?.[0]?.aisles === 2 ? undefined : `expected a widebody seat map, got ${JSON.stringify(body).slice(0, 300)}`),
    // Target: ≥ 1,000/s with p50 ≤ 10 ms; the layout is built once per flight.
    target: { maxP50Ms: 10, minRps: 1000 },
    connections: 10,
  },
  {
    name: "POST /v1/air/orders (book an offer, Variant A)",
    method: "POST",
    once: {
      perSecond: 700,
      prepare: async ({ fixtures }, count) =>
        (await fixtures.offers.take(count)).map((offer) => ({ path: "/v1/air/orders", headers: withFreshKey(fixtures), body: orderBody(offer) })),
    },
    check: ({ body }) => (body?.data?.status === "pending" && typeof body.data.booking_reference === "string" ? undefined : `unexpected body ${JSON.stringify(body).slice(0, 300)}`),
    target: { minRps: 400 },
  },
  {
    name: "POST /v1/air/orders with a seat from the seat map (Variant A)",
    method: "POST",
    once: {
      perSecond: 700,
      prepare: async ({ api, fixtures }, count) =>
        (await seatedOrderBodies(api, fixtures, await fixtures.offers.take(count))).map((body) => ({ path: "/v1/air/orders", headers: withFreshKey(fixtures), body })),
    },
    check: ({ body }) => (body?.data?.status === "pending" && body.data.services?.[0]?.type === "seat" ? undefined : `unexpected body ${JSON.stringify(body).slice(0, 300)}`),
    // Target: booking with a seat at ≥ 80 % of booking without one.
    target: { minShareOf: "POST /v1/air/orders (book an offer, Variant A)", share: 0.8 },
  },
  {
    name: "GET /v1/air/orders/:id",
    setup: async ({ api, fixtures }) => {
      const [id] = await bookAll(api, fixtures, await fixtures.offers.take(1));
      return { method: "GET", path: `/v1/air/orders/${id}`, headers: { authorization: `Bearer ${fixtures.tenantKey}` } };
    },
    check: ({ body }) => (body?.order?.status === "PENDING" && body.data?.offer?.id ? undefined : `unexpected body ${JSON.stringify(body).slice(0, 300)}`),
    target: { minRatio: 0.3 },
  },
  {
    name: "ticketing end to end: POST …/actions/ticket until TICKETED (TICKETING_DELAY_MS=0)",
    method: "POST",
    once: {
      perSecond: 500,
      prepare: async ({ api, fixtures }, count) => {
        await fundTickets(api, fixtures, count);
        const ids = await bookAll(api, fixtures, await fixtures.offers.take(count));
        return ids.map((id) => ({ path: `/v1/air/orders/${id}/actions/ticket`, headers: withFreshKey(fixtures) }));
      },
    },
    settle: ({ api, fixtures }) => allTicketed(api, fixtures),
    check: ({ body }) => (["in_progress", "ticketed"].includes(body?.data?.ticketing_status) ? undefined : `unexpected body ${JSON.stringify(body).slice(0, 300)}`),
    target: { minRps: 300 },
  },
  {
    // Each cancellation: its quote (the measured requests), its confirmation and its refund job (the settle), all timed.
    name: "cancellation end to end: quote, confirm, until REFUNDED (TICKETING_DELAY_MS=0)",
    method: "POST",
    once: {
      perSecond: 300,
      prepare: async ({ api, fixtures }, count) =>
        (await ticketedOrders(api, fixtures, count)).map((id) => ({ path: "/v1/air/order_cancellations", headers: withFreshKey(fixtures), body: { order_id: id } })),
    },
    settle: ({ api, fixtures }) => confirmOpenQuotes(api, fixtures),
    check: ({ body }) => (body?.data?.id?.startsWith("ore_") && body.data.confirmed_at === null ? undefined : `unexpected body ${JSON.stringify(body).slice(0, 300)}`),
    // Target: ≥ 300 confirmed cancellations/s.
    target: { minRps: 300 },
  },
  {
    name: "POST /v1/air/order_change_requests, a one-slice order to a later date, 2,400 in turn (airline search uncached)",
    setup: async (ctx) => {
      const bodies = await changeRequestBodies(ctx.api, ctx.fixtures);
      return { method: "POST", path: "/v1/air/order_change_requests", headers: { authorization: `Bearer ${ctx.fixtures.tenantKey}` }, body: bodies[0], bodies };
    },
    check: ({ body }) => (body?.data?.id?.startsWith("ocr_") && Array.isArray(body.data.order_change_offers) ? undefined : `unexpected body ${JSON.stringify(body).slice(0, 300)}`),
    // Target: p50 ≤ 20 ms, the airline's search included (the req/s floor is only a sanity check).
    target: { maxP50Ms: 20, minRps: 50 },
    connections: 5,
  },
];

/**
 * The request a scenario load-tests: its `setup` hook's, or `count` fresh `once` requests (the
 * first standing for the list in the check), or its static fields plus auth.
 */
export async function requestFor(scenario: Scenario, ctx: ScenarioContext, count = 1): Promise<BenchRequest> {
  if (scenario.setup) return scenario.setup(ctx);
  if (scenario.once) {
    const once = await scenario.once.prepare(ctx, count);
    const [first] = once;
    if (!first) throw new Error(`scenario "${scenario.name}" prepared no requests`);
    return { method: scenario.method ?? "POST", ...first, once };
  }
  if (!scenario.method || !scenario.path) throw new Error(`scenario "${scenario.name}" needs method and path, or a setup hook`);
  const headers = { ...scenario.headers };
  if (scenario.auth === "tenant") headers.authorization = `Bearer ${ctx.fixtures.tenantKey}`;
  if (scenario.auth === "owner") headers.authorization = `Bearer ${ctx.fixtures.ownerKey}`;
  return { method: scenario.method, path: scenario.path, headers, body: scenario.body ?? scenario.bodies?.[0], bodies: scenario.bodies };
}
