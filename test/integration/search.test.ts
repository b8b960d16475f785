import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { USD_RATES } from "../../src/money/exchange-rates";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { expectChainedSlices, expectTotalIsSumOfFares, toMinor } from "../helpers/flight-checks";
import { daysAhead } from "../helpers/offers";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** Flight search (docs/rest-api.md#search-and-offers, docs/rest-api.md#two-interface-variants) over REST, both variants. */

const OFFER_TTL_SECONDS = 1800;
const LONDON = ["LHR", "LGW", "STN", "LTN", "LCY", "SEN"];
const NEW_YORK = ["JFK", "EWR", "LGA"];

type Body = Record<string, unknown>;
interface SearchSlice {
  origin: string;
  destination: string;
  departure_date: string;
}
const slice = (origin: string, destination: string, days: number): SearchSlice => ({ origin, destination, departure_date: daysAhead(days) });
const ADULT = [{ type: "adult" }];

/** What identifies a flight itinerary and its price, whatever the offer's id. */
function itinerary(offer: any): string {
  const flights = offer.slices.map((s: any) =>
    s.segments.map((g: any) => `${g.marketing_carrier.iata_code}${g.marketing_carrier_flight_number} ${g.origin.iata_code}${g.departing_at}-${g.destination.iata_code}${g.arriving_at}`).join(","),
  );
  return `${flights.join(" | ")} ${offer.total_amount} ${offer.passengers.map((p: any) => p.fare_amount).join("/")}`;
}

describe("flight search", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ env: { OFFER_TTL_SECONDS: String(OFFER_TTL_SECONDS) } });
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  const search = (body: unknown, key = tenant.key) => call(server, "POST", "/v1/air/search", { key, body });

  /** A successful Variant A search: its `data`. */
  async function searchA(body: Body, key = tenant.key): Promise<any> {
    const response = await search(body, key);
    expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: expect.any(String) });
    return response.body.data;
  }

  /** A Variant A search expected to find offers. */
  async function offersFor(body: Body, key = tenant.key): Promise<any[]> {
    const data = await searchA(body, key);
    expect(data.offers.length, `offers for ${JSON.stringify(body)}`).toBeGreaterThan(0);
    return data.offers;
  }

  describe("Variant A", () => {
    it("echoes slices and passengers (client ids kept, others assigned pas_) and returns Variant A offers", async () => {
      const before = Date.now();
      const body = {
        slices: [slice("LHR", "JFK", 30)],
        passengers: [{ type: "adult", id: "lead-adult" }, { type: "adult" }, { type: "child", id: "kid-1" }, { type: "infant_without_seat" }],
      };
      const data = await searchA(body);
      const after = Date.now();

      expect(data.slices).toEqual(body.slices);
      expect(data.passengers).toHaveLength(4);
      expect(data.passengers.map((p: any) => p.type)).toEqual(["adult", "adult", "child", "infant_without_seat"]);
      expect(data.passengers[0].id).toBe("lead-adult");
      expect(data.passengers[2].id).toBe("kid-1");
      expect(data.passengers[1].id).toMatch(/^pas_[a-z0-9]+$/);
      expect(data.passengers[3].id).toMatch(/^pas_[a-z0-9]+$/);
      expect(data.passengers[1].id).not.toBe(data.passengers[3].id);
      const passengerIds = data.passengers.map((p: any) => p.id);

      expect(data.offers.length).toBeGreaterThan(0);
      const offerIds = data.offers.map((offer: any) => offer.id);
      expect(new Set(offerIds).size).toBe(offerIds.length);
      for (const offer of data.offers) {
        expect(offer.id).toMatch(/^off_[a-z0-9]+$/);
        expect(offer.total_amount).toMatch(/^\d+\.\d{2}$/);
        expect(offer.total_currency).toBe("USD");
        const expiresAt = Date.parse(offer.expires_at);
        expect(offer.expires_at).toBe(new Date(expiresAt).toISOString());
        // now + OFFER_TTL_SECONDS; the test server runs in this process, on the same clock.
        expect(expiresAt).toBeGreaterThanOrEqual(before + OFFER_TTL_SECONDS * 1000);
        expect(expiresAt).toBeLessThanOrEqual(after + OFFER_TTL_SECONDS * 1000);
        expect(offer.owner).toEqual({ iata_code: expect.stringMatching(/^[A-Z0-9]{2}$/), name: expect.any(String) });
        expect(offer.passenger_identity_documents_required).toBe(true); // LHR → JFK crosses a border
        expect(offer.passengers.map((p: any) => p.id)).toEqual(passengerIds);

        expect(offer.slices).toHaveLength(1);
        const [only] = offer.slices;
        expect(only).toMatchObject({
          id: expect.any(String),
          origin: { type: "airport", iata_code: "LHR", time_zone: "Europe/London", airports: null, city: null },
          destination: { type: "airport", iata_code: "JFK", time_zone: "America/New_York", airports: null, city: null },
          departure_date: body.slices[0]!.departure_date,
          duration: expect.stringMatching(/^PT(\d+H)?(\d+M)?$/),
        });
        expect(only.segments.length).toBeGreaterThanOrEqual(1);
        expect(only.segments[0].departing_at.slice(0, 10)).toBe(body.slices[0]!.departure_date);
        for (const segment of only.segments) {
          expect(segment).toMatchObject({
            id: expect.any(String),
            origin: { type: "airport", iata_code: expect.any(String) },
            destination: { type: "airport", iata_code: expect.any(String) },
            departing_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
            arriving_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
            duration: expect.stringMatching(/^PT(\d+H)?(\d+M)?$/),
            marketing_carrier: { iata_code: offer.owner.iata_code, name: offer.owner.name },
            marketing_carrier_flight_number: expect.stringMatching(/^\d{1,4}$/),
            operating_carrier: { iata_code: expect.any(String), name: expect.any(String) },
            aircraft: { iata_code: expect.any(String), name: expect.any(String) },
          });
          expect(segment.passengers.map((p: any) => p.passenger_id)).toEqual(passengerIds);
          for (const passenger of segment.passengers) {
            expect(passenger.cabin_class).toBe("economy");
            expect(Array.isArray(passenger.baggages)).toBe(true);
            for (const bag of passenger.baggages) expect(bag).toEqual({ type: expect.stringMatching(/^(checked|carry_on)$/), quantity: expect.any(Number) });
          }
        }
        expectChainedSlices(offer);
        expectTotalIsSumOfFares(offer);
      }
    });

    it("does not require identity documents on a domestic itinerary", async () => {
      const offers = await offersFor({ slices: [slice("JFK", "ORD", 30)], passengers: ADULT, max_connections: 0 });
      for (const offer of offers) {
        expect(offer.passenger_identity_documents_required).toBe(false);
        for (const segment of offer.slices[0].segments) expect([segment.origin.iata_country_code, segment.destination.iata_country_code]).toEqual(["US", "US"]);
      }
    });

    it("accepts lower-case codes", async () => {
      const data = await searchA({ slices: [slice("lhr", "jfk", 30)], passengers: ADULT });
      expect(data.offers.length).toBeGreaterThan(0);
      expect(data.offers[0].slices[0].origin.iata_code).toBe("LHR");
    });

    it("is deterministic: the same search twice gives the same flights, times and prices under new offer ids", async () => {
      const body = { slices: [slice("LON", "NYC", 40)], passengers: [{ type: "adult" }, { type: "child" }], cabin_class: "business" };
      const first = await offersFor(body);
      const second = await offersFor(body);
      expect(second.map(itinerary).sort()).toEqual(first.map(itinerary).sort());
      const firstIds = new Set(first.map((offer) => offer.id));
      for (const offer of second) expect(firstIds.has(offer.id)).toBe(false);
    });

    it("max_connections 0 gives direct flights only: every slice has exactly one segment", async () => {
      for (const body of [
        { slices: [slice("LON", "NYC", 31)], passengers: ADULT, max_connections: 0 },
        { slices: [slice("FRA", "SIN", 31), slice("SIN", "FRA", 38)], passengers: ADULT, max_connections: 0 },
      ]) {
        const offers = await offersFor(body);
        for (const offer of offers) for (const s of offer.slices) expect(s.segments, offer.id).toHaveLength(1);
      }
    });

    it("with connections allowed, some offers connect, each through at most max_connections stops", async () => {
      const offers = await offersFor({ slices: [slice("FRA", "SIN", 32)], passengers: ADULT, max_connections: 2 });
      const counts = offers.map((offer) => offer.slices[0].segments.length);
      expect(Math.max(...counts)).toBeGreaterThan(1);
      expect(Math.max(...counts)).toBeLessThanOrEqual(3);
      for (const offer of offers) expectChainedSlices(offer);
    });

    it("round trip: two slices, the return departing after the outbound lands", async () => {
      const body = { slices: [slice("LHR", "JFK", 30), slice("JFK", "LHR", 37)], passengers: ADULT };
      const data = await searchA(body);
      expect(data.slices).toEqual(body.slices);
      expect(data.offers.length).toBeGreaterThan(0);
      for (const offer of data.offers) {
        expect(offer.slices).toHaveLength(2);
        expect(offer.slices.map((s: any) => [s.origin.iata_code, s.destination.iata_code, s.departure_date])).toEqual([
          ["LHR", "JFK", body.slices[0]!.departure_date],
          ["JFK", "LHR", body.slices[1]!.departure_date],
        ]);
        const [outbound, inbound] = expectChainedSlices(offer);
        expect(inbound![0]!.departureMs).toBeGreaterThan(outbound!.at(-1)!.arrivalMs);
        expectTotalIsSumOfFares(offer);
      }
    });

    it("multi-city: three slices in order, each departing after the previous lands", async () => {
      const body = { slices: [slice("LHR", "JFK", 30), slice("JFK", "ORD", 33), slice("ORD", "LHR", 36)], passengers: ADULT };
      const offers = await offersFor(body);
      for (const offer of offers) {
        expect(offer.slices.map((s: any) => `${s.origin.iata_code}-${s.destination.iata_code}`)).toEqual(["LHR-JFK", "JFK-ORD", "ORD-LHR"]);
        const timed = expectChainedSlices(offer);
        for (let i = 1; i < timed.length; i++) expect(timed[i]![0]!.departureMs).toBeGreaterThan(timed[i - 1]!.at(-1)!.arrivalMs);
      }
    });

    it("accepts two slices on the same date", async () => {
      const data = await searchA({ slices: [slice("LHR", "CDG", 30), slice("CDG", "FRA", 30)], passengers: ADULT });
      for (const offer of data.offers) expectChainedSlices(offer);
    });

    it("a city code searches all its airports: LON → NYC has offers from and to several airports", async () => {
      const data = await searchA({ slices: [slice("LON", "NYC", 30)], passengers: ADULT });
      expect(data.slices).toEqual([slice("LON", "NYC", 30)]);
      const origins = new Set<string>();
      const destinations = new Set<string>();
      for (const offer of data.offers) {
        const [only] = offer.slices;
        origins.add(only.origin.iata_code);
        destinations.add(only.destination.iata_code);
        expect(only.origin.iata_city_code).toBe("LON");
        expect(only.destination.iata_city_code).toBe("NYC");
        expectChainedSlices(offer);
      }
      expect(origins.size, [...origins].join()).toBeGreaterThan(1);
      expect(destinations.size, [...destinations].join()).toBeGreaterThan(1);
      for (const code of origins) expect(LONDON).toContain(code);
      for (const code of destinations) expect(NEW_YORK).toContain(code);
    });

    it("every offer's total is exactly the sum of its passengers' fares (minor units)", async () => {
      const offers = await offersFor({
        slices: [slice("LHR", "JFK", 45), slice("JFK", "LHR", 52)],
        passengers: [{ type: "adult" }, { type: "adult" }, { type: "child" }, { type: "child" }, { type: "infant_without_seat" }],
        cabin_class: "premium_economy",
      });
      for (const offer of offers) expectTotalIsSumOfFares(offer);
    });

    it("prices a child at 75 % and a lap infant at 10 % of the adult fare on the same offer", async () => {
      const offers = await offersFor({
        slices: [slice("LHR", "JFK", 30)],
        passengers: [{ type: "adult" }, { type: "child" }, { type: "infant_without_seat" }],
      });
      for (const offer of offers) {
        const fare = (type: string) => toMinor(offer.passengers.find((p: any) => p.type === type).fare_amount, offer.total_currency);
        const adult = fare("adult");
        expect(adult).toBeGreaterThan(0);
        // Rounded to the minor unit: within one minor unit of the exact share.
        expect(Math.abs(fare("child") * 100 - adult * 75), `${offer.id} child`).toBeLessThanOrEqual(100);
        expect(Math.abs(fare("infant_without_seat") * 100 - adult * 10), `${offer.id} infant`).toBeLessThanOrEqual(100);
      }
    });

    it("sells the cabin asked for", async () => {
      const offers = await offersFor({ slices: [slice("LHR", "JFK", 30)], passengers: ADULT, cabin_class: "business" });
      const cabins = new Set(offers.flatMap((offer) => offer.slices[0].segments.flatMap((g: any) => g.passengers.map((p: any) => p.cabin_class))));
      expect(cabins.has("business")).toBe(true);
      for (const cabin of cabins) expect(["economy", "premium_economy", "business"]).toContain(cabin);
    });
  });

  describe("pricing in the tenant's currency", () => {
    it("prices in EUR after PATCH /v1/tenant default_currency EUR, at the static rate", async () => {
      const euro = await createTenant(server, { name: "Euro Agency" });
      const patched = await call(server, "PATCH", "/v1/tenant", { key: euro.key, body: { default_currency: "EUR" } });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      const body = { slices: [slice("LHR", "JFK", 35)], passengers: [{ type: "adult" }, { type: "child" }] };
      const inEuro = await offersFor(body, euro.key);
      const inDollars = await offersFor(body); // the USD tenant, same deterministic flights
      const dollarsByFlight = new Map(inDollars.map((offer) => [itinerary({ ...offer, total_amount: "", passengers: [] }), offer]));
      for (const offer of inEuro) {
        expect(offer.total_currency).toBe("EUR");
        expect(offer.total_amount).toMatch(/^\d+\.\d{2}$/);
        expectTotalIsSumOfFares(offer);
        const dollars = dollarsByFlight.get(itinerary({ ...offer, total_amount: "", passengers: [] }));
        expect(dollars, "the same flights are offered to both tenants").toBeDefined();
        // Each passenger's fare is converted on its own and rounded: at most half a cent off each.
        const expected = toMinor(dollars.total_amount, "USD") * USD_RATES.EUR!;
        expect(Math.abs(toMinor(offer.total_amount, "EUR") - expected)).toBeLessThanOrEqual(offer.passengers.length * 0.5 + 1e-6);
      }
      // Variant B offers are in the tenant's currency too.
      const b = await search({ data: { ...body, cabin_class: "economy" } }, euro.key);
      expect(b.status).toBe(200);
      for (const offer of b.body.data) expect(offer.currency).toBe("EUR");
    });

    it("prices in JPY without decimals", async () => {
      const yen = await createTenant(server, { name: "Yen Agency" });
      const patched = await call(server, "PATCH", "/v1/tenant", { key: yen.key, body: { default_currency: "JPY" } });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      const offers = await offersFor({ slices: [slice("LHR", "JFK", 30)], passengers: [{ type: "adult" }, { type: "child" }] }, yen.key);
      for (const offer of offers) {
        expect(offer.total_currency).toBe("JPY");
        expect(offer.total_amount).toMatch(/^[1-9]\d*$/);
        for (const passenger of offer.passengers) expect(passenger.fare_amount).toMatch(/^[1-9]\d*$/);
        expectTotalIsSumOfFares(offer);
      }
    });
  });

  describe("Variant B", () => {
    const bBody = (overrides: Body = {}) => ({
      data: { slices: [slice("LHR", "JFK", 30)], passengers: ADULT, cabin_class: "economy" },
      ...overrides,
    });

    it("a body with a top-level data object gets Variant B offers as the data array", async () => {
      const response = await search(bBody({ return_offers: true, supplier_timeout: 10 }));
      expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(200);
      expect(response.body).toMatchObject({ success: true, message: expect.any(String) });
      expect(Array.isArray(response.body.data)).toBe(true);
      expect(response.body.data.length).toBeGreaterThan(0);
      for (const offer of response.body.data) {
        expect(offer).toMatchObject({
          id: expect.stringMatching(/^off_/),
          object: "offer",
          total_amount: expect.stringMatching(/^\d+\.\d{2}$/),
          currency: "USD",
          expires_at: expect.any(String),
        });
        expect(offer.total_currency, "B names it currency").toBeUndefined();
        expect(Number.isNaN(Date.parse(offer.expires_at))).toBe(false);
        expect(offer.passengers).toEqual([{ id: expect.any(String), type: "adult", fare_amount: offer.total_amount }]);
        expect(offer.slices).toHaveLength(1);
        expect(offer.slices[0]).toMatchObject({ origin: "LHR", destination: "JFK" });
        const segments = offer.slices[0].segments;
        expect(segments[0].departure_airport).toBe("LHR");
        expect(segments.at(-1).arrival_airport).toBe("JFK");
        for (const [i, segment] of segments.entries()) {
          expect(Object.keys(segment).sort()).toEqual(["airline", "arrival_airport", "arrival_time", "departure_airport", "departure_time", "flight_number"]);
          expect(segment.departure_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
          expect(segment.arrival_time).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}[+-]\d{2}:\d{2}$/);
          expect(Date.parse(segment.arrival_time)).toBeGreaterThan(Date.parse(segment.departure_time));
          expect(segment.airline).toMatch(/^[A-Z0-9]{2}$/);
          expect(segment.flight_number).toMatch(new RegExp(`^${segment.airline}\\d{1,4}$`));
          if (i > 0) {
            expect(segment.departure_airport).toBe(segments[i - 1].arrival_airport);
            expect(Date.parse(segment.departure_time)).toBeGreaterThan(Date.parse(segments[i - 1].arrival_time));
          }
        }
      }
    });

    it("return_offers: false returns the offer request, whose offers are listed by offer_request_id in pages", async () => {
      const response = await search({ data: { slices: [slice("LON", "NYC", 30)], passengers: ADULT, cabin_class: "economy" }, return_offers: false });
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      const request = response.body.data;
      expect(request).toMatchObject({ id: expect.stringMatching(/^orq_/), object: "offer_request", offer_count: expect.any(Number) });
      expect(request.offers).toBeUndefined();
      expect(request.offer_count).toBeGreaterThan(7);

      const items: any[] = [];
      const pages: any[] = [];
      let cursor: string | null = null;
      do {
        const query = new URLSearchParams({ offer_request_id: request.id, limit: "7", ...(cursor ? { cursor } : {}) });
        const page = await call(server, "GET", `/v1/air/offers?${query}`, { key: tenant.key });
        expect(page.status, JSON.stringify(page.body)).toBe(200);
        expect(page.body).toMatchObject({ success: true, message: expect.any(String) });
        expect(Object.keys(page.body.data).sort()).toEqual(["items", "pagination"]);
        pages.push(page.body.data.pagination);
        items.push(...page.body.data.items);
        cursor = page.body.data.pagination.nextCursor as string | null;
        expect(pages.length).toBeLessThan(50);
      } while (cursor !== null);

      expect(items).toHaveLength(request.offer_count);
      expect(new Set(items.map((item) => item.id)).size).toBe(items.length);
      pages.forEach((pagination, index) => {
        const last = index === pages.length - 1;
        expect(pagination).toEqual({
          total: request.offer_count,
          limit: 7,
          hasMore: !last,
          nextCursor: last ? null : expect.any(String),
          prevCursor: index === 0 ? null : expect.any(String),
        });
      });
      for (const item of items) {
        expect(item).toMatchObject({ id: expect.stringMatching(/^off_/), object: "offer", currency: "USD" });
        expect(LONDON).toContain(item.slices[0].origin);
        expect(NEW_YORK).toContain(item.slices[0].destination);
      }
      // Each listed offer is readable on its own.
      const single = await call(server, "GET", `/v1/air/offers/${items[0].id}`, { key: tenant.key });
      expect(single.status).toBe(200);
      expect(single.body.data.id).toBe(items[0].id);
    });

    it("an unknown offer_request_id is 404 not_found", async () => {
      expectError(await call(server, "GET", "/v1/air/offers?offer_request_id=orq_neverexisted", { key: tenant.key }), 404, "not_found");
    });

    it("GET /v1/air/search lists the tenant's offer requests, newest first", async () => {
      const own = await createTenant(server, { name: "Lister" });
      const a = await search({ slices: [slice("LHR", "JFK", 30)], passengers: ADULT }, own.key);
      const b = await search(bBody({ return_offers: false }), own.key);
      const c = await search(bBody(), own.key);
      expect([a.status, b.status, c.status]).toEqual([200, 200, 200]);
      const orqId = b.body.data.id;

      const list = await call(server, "GET", "/v1/air/search", { key: own.key });
      expect(list.status, JSON.stringify(list.body)).toBe(200);
      expect(list.body.data.pagination).toEqual({ total: 3, limit: 20, hasMore: false, nextCursor: null, prevCursor: null });
      const items = list.body.data.items;
      expect(items).toHaveLength(3);
      for (const item of items) {
        expect(item).toMatchObject({
          id: expect.stringMatching(/^orq_/),
          object: "offer_request",
          slices: [slice("LHR", "JFK", 30)],
          offer_count: expect.any(Number),
          created_at: expect.any(String),
        });
      }
      expect(items.map((item: any) => item.id)).toContain(orqId);
      for (let i = 1; i < items.length; i++) expect(items[i - 1].created_at >= items[i].created_at).toBe(true);

      const firstPage = await call(server, "GET", "/v1/air/search?limit=2", { key: own.key });
      expect(firstPage.body.data.items).toEqual(items.slice(0, 2));
      expect(firstPage.body.data.pagination).toMatchObject({ total: 3, limit: 2, hasMore: true, nextCursor: expect.any(String), prevCursor: null });
      const secondPage = await call(server, "GET", `/v1/air/search?limit=2&after=${encodeURIComponent(firstPage.body.data.pagination.nextCursor)}`, { key: own.key });
      expect(secondPage.body.data.items).toEqual(items.slice(2));
      expect(secondPage.body.data.pagination.hasMore).toBe(false);

      // Another tenant sees none of them.
      const other = await call(server, "GET", "/v1/air/search", { key: (await createTenant(server)).key });
      expect(other.body.data).toEqual({ items: [], pagination: { total: 0, limit: 20, hasMore: false, nextCursor: null, prevCursor: null } });
    });

    it("refuses limit 0 on the listings with LIMIT_OUT_OF_RANGE", async () => {
      expectError(await call(server, "GET", "/v1/air/search?limit=0", { key: tenant.key }), 400, "LIMIT_OUT_OF_RANGE", "limit");
      expectError(await call(server, "GET", "/v1/air/offers?limit=101", { key: tenant.key }), 400, "LIMIT_OUT_OF_RANGE", "limit");
    });
  });

  describe("validation: 400 invalid_search_params naming the field", () => {
    const valid = () => ({ slices: [slice("LHR", "JFK", 30)], passengers: ADULT });
    const withSlices = (...slices: SearchSlice[]) => ({ slices, passengers: ADULT });
    const withPassengers = (...passengers: Body[]) => ({ slices: [slice("LHR", "JFK", 30)], passengers });

    const cases: Array<[string, () => unknown, string]> = [
      ["missing slices", () => ({ passengers: ADULT }), "slices"],
      ["0 slices", () => withSlices(), "slices"],
      ["5 slices", () => withSlices(slice("LHR", "JFK", 30), slice("JFK", "LHR", 31), slice("LHR", "CDG", 32), slice("CDG", "LHR", 33), slice("LHR", "JFK", 34)), "slices"],
      ["an unknown origin code XXX", () => withSlices(slice("XXX", "JFK", 30)), "slices[0].origin"],
      ["an unknown destination code in the second slice", () => withSlices(slice("LHR", "JFK", 30), slice("JFK", "QQQ", 35)), "slices[1].destination"],
      ["a code that is not three letters", () => withSlices(slice("LHRX", "JFK", 30)), "slices[0].origin"],
      ["origin equal to destination", () => withSlices(slice("LHR", "LHR", 30)), "slices[0].destination"],
      ["a destination airport inside the origin city", () => withSlices(slice("LON", "LHR", 30)), "slices[0].destination"],
      ["a bad date 2026-13-01", () => withSlices({ origin: "LHR", destination: "JFK", departure_date: "2026-13-01" }), "slices[0].departure_date"],
      ["a date that does not exist (Feb 30)", () => withSlices({ origin: "LHR", destination: "JFK", departure_date: `${new Date().getUTCFullYear() + 1}-02-30` }), "slices[0].departure_date"],
      ["a date not written YYYY-MM-DD", () => withSlices({ origin: "LHR", destination: "JFK", departure_date: daysAhead(30).split("-").reverse().join("/") }), "slices[0].departure_date"],
      ["a date in the past", () => withSlices(slice("LHR", "JFK", -1)), "slices[0].departure_date"],
      ["a second slice before the first", () => withSlices(slice("LHR", "JFK", 30), slice("JFK", "LHR", 29)), "slices[1].departure_date"],
      ["a slice missing its departure_date", () => withSlices({ origin: "LHR", destination: "JFK" } as SearchSlice), "slices[0].departure_date"],
      ["0 passengers", () => withPassengers(), "passengers"],
      ["missing passengers", () => ({ slices: [slice("LHR", "JFK", 30)] }), "passengers"],
      ["10 passengers", () => withPassengers(...Array.from({ length: 10 }, () => ({ type: "adult" }))), "passengers"],
      ["no adult", () => withPassengers({ type: "child" }, { type: "child" }), "passengers"],
      ["2 infants with 1 adult", () => withPassengers({ type: "adult" }, { type: "infant_without_seat" }, { type: "infant_without_seat" }), "passengers"],
      ["duplicate passenger ids", () => withPassengers({ type: "adult", id: "p1" }, { type: "child", id: "p1" }), "passengers"],
      ["an unknown passenger type", () => withPassengers({ type: "senior" }), "passengers[0].type"],
      ["max_connections 3", () => ({ ...valid(), max_connections: 3 }), "max_connections"],
      ["max_connections -1", () => ({ ...valid(), max_connections: -1 }), "max_connections"],
      ["max_connections 1.5", () => ({ ...valid(), max_connections: 1.5 }), "max_connections"],
      ["cabin_class luxury", () => ({ ...valid(), cabin_class: "luxury" }), "cabin_class"],
      ["an unknown top-level field", () => ({ ...valid(), sort: "price" }), "sort"],
      ["an unknown slice field", () => withSlices({ ...slice("LHR", "JFK", 30), via: "ORD" } as SearchSlice), "slices[0].via"],
      ["slices as a string", () => ({ slices: "LHR-JFK", passengers: ADULT }), "slices"],
      ["passengers as an object", () => ({ slices: [slice("LHR", "JFK", 30)], passengers: { type: "adult" } }), "passengers"],
      ["origin as a number", () => withSlices({ origin: 123, destination: "JFK", departure_date: daysAhead(30) } as unknown as SearchSlice), "slices[0].origin"],
      ["departure_date as a number", () => withSlices({ origin: "LHR", destination: "JFK", departure_date: 20261201 } as unknown as SearchSlice), "slices[0].departure_date"],
      ["max_connections as a string", () => ({ ...valid(), max_connections: "1" }), "max_connections"],
      ["cabin_class as a number", () => ({ ...valid(), cabin_class: 1 }), "cabin_class"],
      ["a passenger id that is not a string", () => withPassengers({ type: "adult", id: 7 }), "passengers[0].id"],
    ];

    it.each(cases)("refuses %s", async (_name, body, field) => {
      expectError(await search(body()), 400, "invalid_search_params", field);
    });

    const casesB: Array<[string, () => unknown, string]> = [
      ["an unknown origin", () => ({ data: { ...withSlices(slice("XXX", "JFK", 30)), cabin_class: "economy" } }), "data.slices[0].origin"],
      ["a missing origin", () => ({ data: { slices: [{ destination: "JFK", departure_date: daysAhead(30) }], passengers: ADULT, cabin_class: "economy" } }), "data.slices[0].origin"],
      ["a past date", () => ({ data: { ...withSlices(slice("LHR", "JFK", -1)), cabin_class: "economy" } }), "data.slices[0].departure_date"],
      ["origin equal to destination", () => ({ data: { ...withSlices(slice("JFK", "JFK", 30)), cabin_class: "economy" } }), "data.slices[0].destination"],
      ["no adult", () => ({ data: { ...withPassengers({ type: "child" }), cabin_class: "economy" } }), "data.passengers"],
      ["a missing cabin_class (required in B)", () => ({ data: valid() }), "data.cabin_class"],
      ["max_connections 3", () => ({ data: { ...valid(), cabin_class: "economy", max_connections: 3 } }), "data.max_connections"],
      ["supplier_timeout 1", () => ({ data: { ...valid(), cabin_class: "economy" }, supplier_timeout: 1 }), "supplier_timeout"],
      ["supplier_timeout as a string", () => ({ data: { ...valid(), cabin_class: "economy" }, supplier_timeout: "10" }), "supplier_timeout"],
      ["return_offers as a string", () => ({ data: { ...valid(), cabin_class: "economy" }, return_offers: "false" }), "return_offers"],
      ["an unknown field beside data", () => ({ data: { ...valid(), cabin_class: "economy" }, page: 2 }), "page"],
    ];

    it.each(casesB)("Variant B: refuses %s", async (_name, body, field) => {
      expectError(await search(body()), 400, "invalid_search_params", field);
    });

    it("stores nothing for a refused search", async () => {
      const fresh = await createTenant(server);
      expect((await search({ ...valid(), max_connections: 3 }, fresh.key)).status).toBe(400);
      expect((await search(withSlices(slice("XXX", "JFK", 30)), fresh.key)).status).toBe(400);
      const list = await call(server, "GET", "/v1/air/search", { key: fresh.key });
      expect(list.body.data.pagination.total).toBe(0);
      const offers = await call(server, "GET", "/v1/air/offers", { key: fresh.key });
      expect(offers.body.data.pagination.total).toBe(0);
    });
  });

  describe("usage", () => {
    it("counts each successful search in the tenant's usage", async () => {
      const counted = await createTenant(server, { name: "Counted" });
      const usage = async () => {
        const response = await call(server, "GET", `/v1/tenants/${counted.tenantId}/usage`, { key: server.ownerKey });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        return response.body.data.searches as number;
      };
      const before = await usage();
      expect(before).toBe(0);
      expect((await search({ slices: [slice("LHR", "JFK", 30)], passengers: ADULT }, counted.key)).status).toBe(200);
      expect((await search({ data: { slices: [slice("LHR", "JFK", 31)], passengers: ADULT, cabin_class: "economy" }, return_offers: false }, counted.key)).status).toBe(200);
      expect((await search({ slices: [slice("XXX", "JFK", 30)], passengers: ADULT }, counted.key)).status).toBe(400);
      expect(await usage()).toBe(before + 2);
      expect((await search({ slices: [slice("LHR", "JFK", 32)], passengers: ADULT }, counted.key)).status).toBe(200);
      expect(await usage()).toBe(before + 3);
    });
  });
});
