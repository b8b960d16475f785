import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clock, setClock } from "../../src/clock";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { expectError, expectSameAnswer } from "../helpers/expect-error";
import { expectTotalIsSumOfFares, intlOffsetMinutes, isoDurationMinutes, timedSegment, toMinor } from "../helpers/flight-checks";
import { daysAhead } from "../helpers/offers";
import { createOrderA, searchForBooking } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** Single-offer retrieval (docs/rest-api.md#search-and-offers, docs/authentication.md#tenancy) and time zones end to end. */

const DAY_MS = 86_400_000;
const MINUTE_MS = 60_000;

/** `YYYY-MM-DD` of a UTC day number. */
const isoDay = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** Midnight UTC of the `n`th (1-based) Sunday of a month, or the last one when `n` is "last". */
function sundayOf(year: number, month: number, n: number | "last"): number {
  if (n === "last") {
    const lastDay = Date.UTC(year, month + 1, 0);
    return lastDay - new Date(lastDay).getUTCDay() * DAY_MS;
  }
  const first = Date.UTC(year, month, 1);
  return first + ((7 - new Date(first).getUTCDay()) % 7) * DAY_MS + (n - 1) * 7 * DAY_MS;
}

/**
 * Dates for LHR → JFK where the two zones' offsets differ by an unusual amount, the earliest
 * still ahead (and so within the year the airline sells): one in the weeks between US DST start
 * (2nd Sunday of March) and UK DST start (last Sunday of March), when London is UTC+0 and New
 * York UTC−4; and one after both have changed (UTC+1 and UTC−4), before mid-October.
 */
function dstDates(): { between: string; after: string } {
  const earliest = Date.now() + 2 * DAY_MS;
  const firstIn = (window: (year: number) => [number, number]) => {
    for (let year = new Date(earliest).getUTCFullYear(); ; year++) {
      const [from, to] = window(year);
      const date = Math.max(earliest, from);
      if (date <= to) return isoDay(date);
    }
  };
  return {
    between: firstIn((year) => [sundayOf(year, 2, 2) + 3 * DAY_MS, sundayOf(year, 2, "last") - 2 * DAY_MS]),
    after: firstIn((year) => [sundayOf(year, 2, "last") + 3 * DAY_MS, Date.UTC(year, 9, 15)]),
  };
}

describe("offers", () => {
  let server: TestServer;
  let alice: TenantFixture;
  let bob: TenantFixture;
  let searched: any;
  beforeAll(async () => {
    server = await startTestServer();
    alice = await createTenant(server, { name: "Alice Travel" });
    bob = await createTenant(server, { name: "Bob Tours" });
    const response = await call(server, "POST", "/v1/air/search", {
      key: alice.key,
      body: {
        slices: [
          { origin: "LHR", destination: "JFK", departure_date: daysAhead(30) },
          { origin: "JFK", destination: "LHR", departure_date: daysAhead(37) },
        ],
        passengers: [{ type: "adult", id: "grown-up" }, { type: "child" }, { type: "infant_without_seat" }],
      },
    });
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
    searched = response.body.data;
    expect(searched.offers.length).toBeGreaterThan(0);
  });
  afterAll(() => server.close());

  const getOffer = (id: string, key: string, query = "", headers: Record<string, string> = {}) =>
    call(server, "GET", `/v1/air/offers/${id}${query}`, { key, headers });

  describe("GET /v1/air/offers/:id", () => {
    it("returns the Variant A offer in data, as the search returned it, plus payment_requirements", async () => {
      for (const offer of searched.offers.slice(0, 3)) {
        const response = await getOffer(offer.id, alice.key);
        expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
        expect(response.body).toMatchObject({ success: true, message: expect.any(String) });
        const { payment_requirements, ...rest } = response.body.data;
        expect(rest).toEqual(offer);
        expect(payment_requirements).toEqual({ requires_instant_payment: expect.any(Boolean), price_guarantee_expires_at: expect.any(String) });
        expect(payment_requirements.price_guarantee_expires_at).toBe(new Date(Date.parse(payment_requirements.price_guarantee_expires_at)).toISOString());
        expect(payment_requirements.price_guarantee_expires_at).toBe(offer.expires_at);
        expect(response.body.data.available_services).toBeUndefined();
        expectTotalIsSumOfFares(response.body.data);
      }
    });

    it("with return_available_services=false leaves services out", async () => {
      const response = await getOffer(searched.offers[0].id, alice.key, "?return_available_services=false");
      expect(response.status).toBe(200);
      expect(response.body.data.available_services).toBeUndefined();
    });

    it("with return_available_services=true lists services naming the offer's passengers and segments, with the same ids on every read", async () => {
      const offer = searched.offers[0];
      const first = await getOffer(offer.id, alice.key, "?return_available_services=true");
      expect(first.status).toBe(200);
      const services = first.body.data.available_services;
      expect(Array.isArray(services)).toBe(true);
      expect(services.length).toBeGreaterThan(0);
      const passengerIds = new Set(offer.passengers.map((p: any) => p.id));
      const segmentIds = new Set(offer.slices.flatMap((s: any) => s.segments.map((g: any) => g.id)));
      const infantId = offer.passengers.find((p: any) => p.type === "infant_without_seat").id;
      for (const service of services) {
        expect(Object.keys(service).sort()).toEqual(["id", "maximum_quantity", "passenger_ids", "segment_ids", "total_amount", "total_currency", "type"]);
        expect(service.id).toEqual(expect.any(String));
        expect(["baggage", "seat"]).toContain(service.type);
        expect(service.total_currency).toBe(offer.total_currency);
        expect(toMinor(service.total_amount, service.total_currency)).toBeGreaterThan(0);
        expect(Number.isInteger(service.maximum_quantity) && service.maximum_quantity >= 1).toBe(true);
        expect(service.passenger_ids.length).toBeGreaterThan(0);
        expect(service.segment_ids.length).toBeGreaterThan(0);
        for (const id of service.passenger_ids) expect(passengerIds.has(id), id).toBe(true);
        for (const id of service.segment_ids) expect(segmentIds.has(id), id).toBe(true);
        if (service.type === "seat") expect(service.passenger_ids).not.toContain(infantId); // a lap infant has no seat
      }
      expect(new Set(services.map((s: any) => s.id)).size).toBe(services.length);
      expect(new Set(services.map((s: any) => s.type))).toEqual(new Set(["baggage", "seat"]));
      // Every passenger may add a bag.
      const withBaggage = new Set(services.filter((s: any) => s.type === "baggage").flatMap((s: any) => s.passenger_ids));
      expect(withBaggage).toEqual(passengerIds);

      const second = await getOffer(offer.id, alice.key, "?return_available_services=true");
      expect(second.body.data.available_services).toEqual(services);
    });

    it("refuses an unknown return_available_services value with 400 validation_failed", async () => {
      expectError(await getOffer(searched.offers[0].id, alice.key, "?return_available_services=maybe"), 400, "validation_failed", "return_available_services");
    });

    it("answers another tenant's offer with 404 not_found, exactly as for an id that never existed", async () => {
      const offerId: string = searched.offers[0].id;
      const foreign = await getOffer(offerId, bob.key);
      expectError(foreign, 404, "not_found");
      const neverExisted = `off_${"0".repeat(offerId.length - 4)}`;
      const missing = await getOffer(neverExisted, bob.key);
      expectError(missing, 404, "not_found");
      expectSameAnswer(foreign, missing);
      // Nor with services asked for.
      expectSameAnswer(await getOffer(offerId, bob.key, "?return_available_services=true"), await getOffer(neverExisted, bob.key, "?return_available_services=true"));
    });

    it("lets the owner read it with Service-Tenant naming its tenant, and only then", async () => {
      const offer = searched.offers[0];
      const asOwner = await getOffer(offer.id, server.ownerKey, "", { "service-tenant": alice.tenantId });
      expect(asOwner.status, JSON.stringify(asOwner.body).slice(0, 300)).toBe(200);
      const asTenant = await getOffer(offer.id, alice.key);
      expect(asOwner.body.data).toEqual(asTenant.body.data);

      const forOtherTenant = await getOffer(offer.id, server.ownerKey, "", { "service-tenant": bob.tenantId });
      expectError(forOtherTenant, 404, "not_found");
      expectError(await getOffer(offer.id, server.ownerKey), 400, "tenant_required");
    });

    it("keeps the offer out of another tenant's listing", async () => {
      const listed = await call(server, "GET", "/v1/air/offers?limit=100", { key: bob.key });
      expect(listed.status).toBe(200);
      expect(listed.body.data.items.map((item: any) => item.id)).not.toContain(searched.offers[0].id);
    });

    it("is readable through GraphQL with expired false while valid", async () => {
      const offer = searched.offers[0];
      const response = await graphql(server, `query($id: ID!) { offer(id: $id) { id totalAmount totalCurrency expiresAt expired paymentRequirements { requiresInstantPayment priceGuaranteeExpiresAt } } }`, { id: offer.id }, { key: alice.key });
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data.offer).toEqual({
        id: offer.id,
        totalAmount: offer.total_amount,
        totalCurrency: offer.total_currency,
        expiresAt: offer.expires_at,
        expired: false,
        paymentRequirements: { requiresInstantPayment: expect.any(Boolean), priceGuaranteeExpiresAt: offer.expires_at },
      });
    });
  });

  describe("an expired offer", () => {
    let shortLived: TestServer;
    let tenant: TenantFixture;
    beforeAll(async () => {
      shortLived = await startTestServer({ env: { OFFER_TTL_SECONDS: "1" } });
      tenant = await createTenant(shortLived);
    });
    afterAll(() => shortLived.close());

    it("stays readable after expires_at, over REST and GraphQL (expired: true)", async () => {
      const before = Date.now();
      const search = await call(shortLived, "POST", "/v1/air/search", {
        key: tenant.key,
        body: { slices: [{ origin: "LHR", destination: "JFK", departure_date: daysAhead(30) }], passengers: [{ type: "adult" }] },
      });
      expect(search.status).toBe(200);
      const offer = search.body.data.offers[0];
      const expiresAt = Date.parse(offer.expires_at);
      // The test server runs in this process, on the same clock.
      expect(expiresAt).toBeGreaterThanOrEqual(before + 1000);
      expect(expiresAt).toBeLessThanOrEqual(Date.now() + 1000);

      // Poll (each poll is a real request) until the server says it has expired, with a deadline.
      const deadline = Date.now() + 20_000;
      let expired = false;
      let polls = 0;
      while (!expired) {
        expect(Date.now(), "the offer should have expired by now").toBeLessThan(deadline);
        const response = await graphql(shortLived, `query($id: ID!) { offer(id: $id) { id expired expiresAt } }`, { id: offer.id }, { key: tenant.key });
        expect(response.body.errors).toBeUndefined();
        expect(response.body.data.offer).toMatchObject({ id: offer.id, expiresAt: offer.expires_at });
        expired = response.body.data.offer.expired;
        polls++;
      }
      expect(Date.now()).toBeGreaterThanOrEqual(expiresAt);
      expect(polls).toBeGreaterThan(0);

      const read = await call(shortLived, "GET", `/v1/air/offers/${offer.id}?return_available_services=true`, { key: tenant.key });
      expect(read.status).toBe(200);
      const { payment_requirements, available_services, ...rest } = read.body.data;
      expect(rest).toEqual(offer);
      expect(Date.parse(read.body.data.expires_at)).toBeLessThanOrEqual(Date.now());
      expect(payment_requirements.price_guarantee_expires_at).toBe(offer.expires_at);
      expect(available_services.length).toBeGreaterThan(0);
      // Still listed as well.
      const listed = await call(shortLived, "GET", "/v1/air/offers", { key: tenant.key });
      expect(listed.body.data.items.map((item: any) => item.id)).toContain(offer.id);
    });
  });

  describe("on the product's clock", () => {
    // The server runs in this process: moving the clock moves it for the server too.
    afterEach(() => setClock(new Date()));

    it("an offer booked after its expires_at is offer_no_longer_available, and reads expired: true", async () => {
      const [offer] = await searchForBooking(server, alice.key);
      setClock(new Date(Date.parse(offer.expires_at) + 1000));
      expectError(await createOrderA(server, alice.key, offer), 422, "offer_no_longer_available");
      const read = await graphql(server, `query($id: ID!) { offer(id: $id) { expired } }`, { id: offer.id }, { key: alice.key });
      expect(read.body.data.offer.expired).toBe(true);
      setClock(new Date(Date.parse(offer.expires_at) - 60_000));
      expect((await createOrderA(server, alice.key, offer)).status, "a minute before expiry it books").toBe(201);
      expect(clock.nowMs()).toBeLessThan(Date.parse(offer.expires_at));
    });
  });

  describe("time zones end to end (LHR → JFK around the DST changes)", () => {
    const { between, after } = dstDates();

    /** Direct LHR → JFK offers on a date, with each segment's UTC instants from GraphQL. */
    async function directOffers(date: string) {
      const response = await call(server, "POST", "/v1/air/search", {
        key: alice.key,
        body: { slices: [{ origin: "LHR", destination: "JFK", departure_date: date }], passengers: [{ type: "adult" }], max_connections: 0 },
      });
      expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
      expect(response.body.data.offers.length, `direct LHR-JFK offers on ${date}`).toBeGreaterThan(0);
      return response.body.data.offers as any[];
    }

    async function utcTimes(offerId: string): Promise<Array<{ id: string; departingAtUtc: string; arrivingAtUtc: string }>> {
      const response = await graphql(server, `query($id: ID!) { offer(id: $id) { slices { segments { id departingAtUtc arrivingAtUtc } } } }`, { id: offerId }, { key: alice.key });
      expect(response.body.errors).toBeUndefined();
      return response.body.data.offer.slices.flatMap((s: any) => s.segments);
    }

    it.each([
      ["between the US and the UK DST starts", () => between, 0, -240],
      ["after both DST starts", () => after, 60, -240],
    ])("%s: local times, durations and offsets agree with Intl", async (_label, date, londonOffset, newYorkOffset) => {
      const offers = await directOffers(date());
      for (const offer of offers) {
        const utc = await utcTimes(offer.id);
        for (const segment of offer.slices[0].segments) {
          expect([segment.origin.iata_code, segment.destination.iata_code]).toEqual(["LHR", "JFK"]);
          // (arriving local − departing local) = duration + (destination offset − origin offset).
          const timed = timedSegment(segment);
          const localMinutes = (Date.parse(`${segment.arriving_at}Z`) - Date.parse(`${segment.departing_at}Z`)) / MINUTE_MS;
          expect(localMinutes).toBe(isoDurationMinutes(segment.duration) + newYorkOffset - londonOffset);
          // The offsets are Intl's for those zones at those instants, and are the ones this date is about.
          expect(timed.departureOffset).toBe(intlOffsetMinutes("Europe/London", timed.departureMs));
          expect(timed.arrivalOffset).toBe(intlOffsetMinutes("America/New_York", timed.arrivalMs));
          expect([timed.departureOffset, timed.arrivalOffset]).toEqual([londonOffset, newYorkOffset]);
          // The server's own UTC instants are the same.
          const instants = utc.find((u) => u.id === segment.id)!;
          expect(Date.parse(instants.departingAtUtc)).toBe(timed.departureMs);
          expect(Date.parse(instants.arrivingAtUtc)).toBe(timed.arrivalMs);
          expect((timed.arrivalMs - timed.departureMs) / MINUTE_MS).toBe(isoDurationMinutes(segment.duration));
        }
      }
    });

    it.each([
      ["between the US and the UK DST starts", () => between, "+00:00", "-04:00"],
      ["after both DST starts", () => after, "+01:00", "-04:00"],
    ])("Variant B times carry the right UTC offsets %s", async (_label, date, londonOffset, newYorkOffset) => {
      const response = await call(server, "POST", "/v1/air/search", {
        key: alice.key,
        body: { data: { slices: [{ origin: "LHR", destination: "JFK", departure_date: date() }], passengers: [{ type: "adult" }], cabin_class: "economy", max_connections: 0 } },
      });
      expect(response.status).toBe(200);
      expect(response.body.data.length).toBeGreaterThan(0);
      const format = (minutes: number) => `${minutes < 0 ? "-" : "+"}${String(Math.floor(Math.abs(minutes) / 60)).padStart(2, "0")}:${String(Math.abs(minutes) % 60).padStart(2, "0")}`;
      for (const offer of response.body.data) {
        for (const segment of offer.slices[0].segments) {
          expect(segment.departure_time.slice(0, 10)).toBe(date());
          expect(segment.departure_time.slice(19)).toBe(londonOffset);
          expect(segment.arrival_time.slice(19)).toBe(newYorkOffset);
          expect(segment.departure_time.slice(19)).toBe(format(intlOffsetMinutes("Europe/London", Date.parse(segment.departure_time))));
          expect(segment.arrival_time.slice(19)).toBe(format(intlOffsetMinutes("America/New_York", Date.parse(segment.arrival_time))));
        }
      }
    });
  });
});
