import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, startServerWithTenant, type TenantFixture } from "../helpers/client";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { daysAhead } from "../helpers/offers";
import type { TestServer } from "../helpers/test-server";

/**
 * The fare calendar and destination ideas (docs/fare-calendar.md): indicative prices from the
 * simulated airline's schedules and fares, nothing stored. The lowest price shown for a day is
 * exactly what the cheapest offer of a search that day totals. Dates are counted from today, so
 * the suite passes on any day of any year (2 days ahead at least: "today" east of UTC may be tomorrow).
 */

const CALENDAR = "/v1/air/fare_calendar";
const DESTINATIONS = "/v1/air/destinations";

const FARE_CALENDAR_QUERY = `query ($origin: IataCode!, $destination: IataCode!, $from: LocalDate!, $to: LocalDate!, $cabinClass: CabinClass, $adults: Int, $stayDays: Int) {
  fareCalendar(origin: $origin, destination: $destination, from: $from, to: $to, cabinClass: $cabinClass, adults: $adults, stayDays: $stayDays) {
    departureDate returnDate lowestTotalAmount totalCurrency supplier
  }
}`;

const DESTINATIONS_QUERY = `query ($origin: IataCode!, $month: YearMonth!, $maxPrice: DecimalAmount) {
  destinations(origin: $origin, month: $month, maxPrice: $maxPrice) {
    destination { iataCode cityName } departureDate lowestTotalAmount totalCurrency supplier
  }
}`;

/** The month (`YYYY-MM`) of the day `days` ahead. */
const monthAhead = (days: number) => daysAhead(days).slice(0, 7);

function query(params: Record<string, string | number | undefined>): string {
  const entries = Object.entries(params).filter((entry): entry is [string, string | number] => entry[1] !== undefined);
  return new URLSearchParams(entries.map(([name, value]): [string, string] => [name, String(value)])).toString();
}

describe("fare calendar and destination ideas", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  let euroTenant: TenantFixture;
  beforeAll(async () => {
    ({ server, tenant } = await startServerWithTenant());
    euroTenant = await createTenant(server, { name: "Euro Agency" });
    const patched = await call(server, "PATCH", "/v1/tenant", { key: euroTenant.key, body: { default_currency: "EUR" } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
  });
  afterAll(() => server.close());

  const calendar = (key: string, params: Record<string, string | number | undefined>) => call(server, "GET", `${CALENDAR}?${query(params)}`, { key });

  /** The cheapest offer of a Variant A search, in minor units, or null when it finds none. */
  async function cheapestOffer(key: string, search: { origin: string; destination: string; date: string; back?: string; adults: number; cabin: string; maxConnections?: number }) {
    const slices = [{ origin: search.origin, destination: search.destination, departure_date: search.date }];
    if (search.back) slices.push({ origin: search.destination, destination: search.origin, departure_date: search.back });
    const response = await call(server, "POST", "/v1/air/search", {
      key,
      body: { slices, passengers: Array.from({ length: search.adults }, () => ({ type: "adult" })), cabin_class: search.cabin, max_connections: search.maxConnections },
    });
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
    const offers = response.body.data.offers as Array<{ total_amount: string; total_currency: string }>;
    if (offers.length === 0) return null;
    const currency = offers[0]!.total_currency;
    return { amount: Math.min(...offers.map((offer) => toMinor(offer.total_amount, currency))), currency };
  }

  describe("the calendar", () => {
    it("answers one item per day on sale with a price, in date order, within the range, from the simulated airline", async () => {
      const response = await calendar(tenant.key, { origin: "LON", destination: "NYC", from: daysAhead(10), to: daysAhead(23) });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const items = response.body.data as any[];
      expect(items.length).toBeGreaterThan(7);
      const dates = items.map((item) => item.departure_date);
      expect(dates).toEqual([...new Set(dates)].sort());
      for (const item of items) {
        expect(item.departure_date >= daysAhead(10) && item.departure_date <= daysAhead(23)).toBe(true);
        expect(item).toEqual({ departure_date: item.departure_date, lowest_total_amount: expect.stringMatching(/^\d+\.\d{2}$/), total_currency: "USD", supplier: expect.stringMatching(/^simulated(_lcc)?$/) });
      }
    });

    it("prices in the tenant's currency, and GraphQL's fareCalendar answers the same days and prices", async () => {
      const params = { origin: "LHR", destination: "JFK", from: daysAhead(30), to: daysAhead(36), adults: 2, cabin_class: "business" };
      const rest = (await calendar(euroTenant.key, params)).body.data as any[];
      expect(rest.length).toBeGreaterThan(0);
      expect(rest.every((item) => item.total_currency === "EUR")).toBe(true);
      const answer = await graphql(server, FARE_CALENDAR_QUERY, { origin: "LHR", destination: "JFK", from: params.from, to: params.to, adults: 2, cabinClass: "BUSINESS" }, { key: euroTenant.key });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.fareCalendar).toEqual(
        rest.map((item) => ({ departureDate: item.departure_date, returnDate: null, lowestTotalAmount: item.lowest_total_amount, totalCurrency: "EUR", supplier: item.supplier })),
      );
    });

    it("prices round trips returning stay_days after each departure", async () => {
      const items = (await calendar(tenant.key, { origin: "LON", destination: "PAR", from: daysAhead(40), to: daysAhead(44), stay_days: 7 })).body.data as any[];
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) expect(item.return_date).toBe(new Date(Date.parse(item.departure_date) + 7 * 86_400_000).toISOString().slice(0, 10));
    });

    it("stores nothing: the tenant's searches are as many after a calendar as before", async () => {
      const searches = async () => (await call(server, "GET", "/v1/air/search?limit=1", { key: tenant.key })).body.data.pagination.total as number;
      const before = await searches();
      expect((await calendar(tenant.key, { origin: "LHR", destination: "CDG", from: daysAhead(5), to: daysAhead(65) })).status).toBe(200);
      expect(await searches()).toBe(before);
    });
  });

  describe("the lowest price of a day is the cheapest offer a search that day returns", () => {
    const cityOf = (code: string) => ({ LHR: "LON", JFK: "NYC" })[code] ?? code;
    const AIRPORTS = ["LON", "LHR", "CDG", "FRA", "MAD", "IST", "DXB", "SIN", "HKG", "NYC", "JFK", "ORD", "LAX", "YYZ", "GRU", "SYD"] as const;
    const routeAndDay = fc
      .record({
        route: fc.tuple(fc.constantFrom(...AIRPORTS), fc.constantFrom(...AIRPORTS)).filter(([a, b]) => cityOf(a) !== cityOf(b)),
        days: fc.integer({ min: 2, max: 330 }),
        stay: fc.option(fc.integer({ min: 0, max: 20 }), { nil: undefined }),
        adults: fc.integer({ min: 1, max: 4 }),
        cabin: fc.constantFrom("economy", "premium_economy", "business", "first"),
        euro: fc.boolean(),
      })
      .filter((sample) => sample.days + (sample.stay ?? 0) <= 355);

    it(
      "for any route, day, party, cabin, one way or round trip, and currency",
      async () => {
        let priced = 0;
        await fc.assert(
          fc.asyncProperty(routeAndDay, async ({ route: [origin, destination], days, stay, adults, cabin, euro }) => {
            const key = euro ? euroTenant.key : tenant.key;
            const date = daysAhead(days);
            const back = stay === undefined ? undefined : daysAhead(days + stay);
            const response = await calendar(key, { origin, destination, from: date, to: date, adults, cabin_class: cabin, stay_days: stay });
            expect(response.status, JSON.stringify(response.body)).toBe(200);
            const cheapest = await cheapestOffer(key, { origin, destination, date, back, adults, cabin });
            const items = response.body.data as any[];
            if (cheapest === null) {
              expect(items).toEqual([]);
              return;
            }
            priced++;
            expect(items).toHaveLength(1);
            expect({ amount: toMinor(items[0].lowest_total_amount, items[0].total_currency), currency: items[0].total_currency }).toEqual(cheapest);
          }),
          { numRuns: 40 },
        );
        // Not degenerate: most of these routes have flights.
        expect(priced).toBeGreaterThan(15);
      },
      180_000,
    );
  });

  describe("destination ideas", () => {
    it("answers the cheapest nonstop fare of the month per destination, cheapest first, at most 50, each the cheapest offer of a nonstop search that day", async () => {
      const month = monthAhead(45);
      const response = await call(server, "GET", `${DESTINATIONS}?${query({ origin: "LON", month })}`, { key: tenant.key });
      expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
      const ideas = response.body.data as any[];
      expect(ideas.length).toBeGreaterThan(10);
      expect(ideas.length).toBeLessThanOrEqual(50);
      const amounts = ideas.map((idea) => toMinor(idea.lowest_total_amount, "USD"));
      expect(amounts).toEqual([...amounts].sort((a, b) => a - b));
      expect(new Set(ideas.map((idea) => idea.destination.iata_code)).size).toBe(ideas.length);
      for (const idea of ideas) {
        expect(idea.departure_date.slice(0, 7)).toBe(month);
        expect(idea.destination.type).toBe("airport");
        expect(["simulated", "simulated_lcc"]).toContain(idea.supplier);
      }
      // Each is what a nonstop search that day finds cheapest (the first few, to keep the suite quick).
      for (const idea of ideas.slice(0, 3)) {
        const cheapest = await cheapestOffer(tenant.key, { origin: "LON", destination: idea.destination.iata_code, date: idea.departure_date, adults: 1, cabin: "economy", maxConnections: 0 });
        expect(cheapest).toEqual({ amount: toMinor(idea.lowest_total_amount, "USD"), currency: "USD" });
      }
    });

    it("leaves out destinations dearer than max_price, and answers the same on GraphQL", async () => {
      const month = monthAhead(45);
      const all = (await call(server, "GET", `${DESTINATIONS}?${query({ origin: "LON", month })}`, { key: tenant.key })).body.data as any[];
      const cap = all[Math.floor(all.length / 2)]!.lowest_total_amount as string;
      const capped = (await call(server, "GET", `${DESTINATIONS}?${query({ origin: "LON", month, max_price: cap })}`, { key: tenant.key })).body.data as any[];
      expect(capped.length).toBeGreaterThan(0);
      expect(capped.every((idea) => toMinor(idea.lowest_total_amount, "USD") <= toMinor(cap, "USD"))).toBe(true);
      expect(capped).toEqual(all.filter((idea) => toMinor(idea.lowest_total_amount, "USD") <= toMinor(cap, "USD")));
      const answer = await graphql(server, DESTINATIONS_QUERY, { origin: "LON", month, maxPrice: cap }, { key: tenant.key });
      expect(answer.body.errors).toBeUndefined();
      expect(answer.body.data.destinations.map((idea: any) => [idea.destination.iataCode, idea.lowestTotalAmount, idea.departureDate])).toEqual(
        capped.map((idea) => [idea.destination.iata_code, idea.lowest_total_amount, idea.departure_date]),
      );
    });
  });

  describe("bad input is 400 invalid_search_params naming the field, on REST and GraphQL", () => {
    const from = daysAhead(10);
    const cases: Array<[string, Record<string, string | number | undefined>, string]> = [
      ["no origin", { destination: "NYC", from, to: from }, "origin"],
      ["an unknown code", { origin: "LON", destination: "QQX", from, to: from }, "destination"],
      ["origin and destination the same", { origin: "LON", destination: "LHR", from, to: from }, "destination"],
      ["a date that is not a date", { origin: "LON", destination: "NYC", from: "2027-02-30", to: from }, "from"],
      ["from in the past", { origin: "LON", destination: "NYC", from: daysAhead(-3), to: from }, "from"],
      ["from past the last date on sale", { origin: "LON", destination: "NYC", from: daysAhead(400), to: daysAhead(401) }, "from"],
      ["to before from", { origin: "LON", destination: "NYC", from, to: daysAhead(9) }, "to"],
      ["a range over 90 days", { origin: "LON", destination: "NYC", from, to: daysAhead(100) }, "to"],
      ["adults out of range", { origin: "LON", destination: "NYC", from, to: from, adults: 10 }, "adults"],
      ["stay_days not a number", { origin: "LON", destination: "NYC", from, to: from, stay_days: "week" }, "stay_days"],
      ["an unknown cabin", { origin: "LON", destination: "NYC", from, to: from, cabin_class: "luxury" }, "cabin_class"],
    ];
    it.each(cases)("calendar: %s", async (_name, params, field) => {
      expectError(await calendar(tenant.key, params), 400, "invalid_search_params", field);
    });

    const destinationCases: Array<[string, Record<string, string | undefined>, string]> = [
      ["an unknown origin", { origin: "QQX", month: monthAhead(30) }, "origin"],
      ["a month that is not a month", { origin: "LON", month: "2027-13" }, "month"],
      ["a month with no date on sale", { origin: "LON", month: "2001-01" }, "month"],
      ["a price that is not an amount", { origin: "LON", month: monthAhead(30), max_price: "cheap" }, "max_price"],
    ];
    it.each(destinationCases)("destinations: %s", async (_name, params, field) => {
      expectError(await call(server, "GET", `${DESTINATIONS}?${query(params)}`, { key: tenant.key }), 400, "invalid_search_params", field);
    });

    it("names GraphQL's argument (stayDays, maxPrice)", async () => {
      const calendarAnswer = await graphql(server, FARE_CALENDAR_QUERY, { origin: "LON", destination: "NYC", from, to: from, stayDays: 500 }, { key: tenant.key });
      expectGraphQLError(calendarAnswer, "invalid_search_params", { field: "stayDays" });
      const destinationsAnswer = await graphql(server, DESTINATIONS_QUERY, { origin: "LON", month: monthAhead(30), maxPrice: "1.234" }, { key: tenant.key });
      expectGraphQLError(destinationsAnswer, "invalid_search_params", { field: "maxPrice" });
    });
  });
});

/**
 * Destination ideas once stalled the whole server on a cheap request: pricing an origin's every
 * destination for a month (over 30,000 fare searches from London) ran on the event loop, and took
 * about one rate-limit token. They are priced off the event loop now (the simulated airline's fare
 * worker), charged by the searches they stand for (days × places: REST's rate-limit tokens,
 * GraphQL's operation cost), and a tenant has at most two computed at once (unit: calendar-work).
 */
describe("fare calendar work: charged by its searches, and off the event loop", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    // A full bucket of 100 tokens refilled at 1 a second: a charge shows as the refusal after it.
    ({ server, tenant } = await startServerWithTenant({ RATE_LIMIT_RPS: "1", RATE_LIMIT_BURST: "100" }));
  });
  afterAll(() => server.close());

  const ideas = (month: string, cabin = "economy") => call(server, "GET", `${DESTINATIONS}?${query({ origin: "LON", month, cabin_class: cabin })}`, { key: tenant.key });

  it("takes destination ideas' rate-limit tokens by their work: a month from London takes the whole bucket", async () => {
    const started = performance.now();
    const answered = await ideas(monthAhead(60));
    expect(answered.status, JSON.stringify(answered.body).slice(0, 300)).toBe(200);
    const next = await call(server, "GET", "/v1/tenant", { key: tenant.key });
    // What is left is what refilled meanwhile, at a token a second (it was 99 when they took one token).
    const refilled = Math.ceil((performance.now() - started) / 1000);
    if (next.status === 429) expectError(next, 429, "rate_limit_exceeded");
    else expect(Number(next.headers.get("ratelimit-remaining"))).toBeLessThanOrEqual(refilled);
  });

  it("prices GraphQL's destinations by their work too: five of them in one document are past the cost limit", async () => {
    const other = await createTenant(server);
    const month = monthAhead(90);
    const five = `{ ${["economy", "premium_economy", "business", "first", "economy"].map((cabin, i) => `d${i}: destinations(origin: "LON", month: "${month}", cabinClass: ${cabin.toUpperCase()}) { supplier }`).join(" ")} }`;
    const refused = await graphql(server, five, {}, { key: other.key });
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.[0]?.extensions).toMatchObject({ code: "query_too_complex" });
    // A fare calendar of 90 days is 90 searches: a point's worth of tokens, as a small query.
    const calendarOnly = await graphql(server, FARE_CALENDAR_QUERY, { origin: "LON", destination: "NYC", from: daysAhead(10), to: daysAhead(99) }, { key: other.key });
    expect(calendarOnly.body.errors).toBeUndefined();
    expect(Number(calendarOnly.headers.get("ratelimit-remaining"))).toBeGreaterThan(90);
  });

  it("keeps answering /healthz at once while destination ideas of a month are priced", async () => {
    const other = await createTenant(server);
    const started = performance.now();
    let pending = true;
    const pricing = call(server, "GET", `${DESTINATIONS}?${query({ origin: "LON", month: monthAhead(120), cabin_class: "business" })}`, { key: other.key }).finally(() => {
      pending = false;
    });
    // /healthz one after another for as long as the ideas are priced: each waits for nothing else.
    const waits: number[] = [];
    while (pending) {
      const sent = performance.now();
      expect((await fetch(`${server.url}/healthz`)).status).toBe(200);
      waits.push(performance.now() - sent);
    }
    expect((await pricing).status).toBe(200);
    const pricingMs = performance.now() - started;
    // On the event loop, one /healthz waited as long as the pricing itself.
    expect(Math.max(...waits), `healthz waits ${waits.map(Math.round).join(", ")} ms; the ideas took ${Math.round(pricingMs)} ms`).toBeLessThan(pricingMs / 4);
  });
});
