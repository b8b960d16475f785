import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../src/ids";
import { offerIdOf } from "../../src/search/offer-ids";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { expectGraphQLError } from "../helpers/expect-error";
import { localToInstant, toMinor } from "../helpers/flight-checks";
import { daysAhead } from "../helpers/offers";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** Search and offers over GraphQL (docs/graphql.md#conventions): searchFlights, offer, offers, and the DataLoader. */

const LOCATION = "{ id type iataCode icaoCode name cityName iataCityCode iataCountryCode latitude longitude timeZone }";

const SEARCH = `mutation Search($input: SearchFlightsInput!) {
  searchFlights(input: $input) {
    offerRequestId
    passengers { id type }
    offers {
      id offerRequestId totalAmount totalCurrency expiresAt expired
      owner { iataCode name }
      passengers { id type fareAmount }
      slices {
        id departureDate duration
        origin ${LOCATION}
        destination ${LOCATION}
        segments {
          id departingAt arrivingAt departingAtUtc arrivingAtUtc duration
          origin ${LOCATION}
          destination ${LOCATION}
          marketingCarrier { iataCode name }
          marketingCarrierFlightNumber
          passengers { passengerId cabinClass }
        }
      }
    }
  }
}`;

const LONDON = ["LHR", "LGW", "STN", "LTN", "LCY", "SEN"];
const NEW_YORK = ["JFK", "EWR", "LGA"];

describe("GraphQL search and offers", () => {
  let server: TestServer;
  let alice: TenantFixture;
  let bob: TenantFixture;
  beforeAll(async () => {
    // Usage counters are written on a timer; keep that write out of the query counts below.
    server = await startTestServer({ env: { USAGE_FLUSH_MS: "3600000" } });
    alice = await createTenant(server, { name: "Alice Travel" });
    bob = await createTenant(server, { name: "Bob Tours" });
  });
  afterAll(() => server.close());

  const input = (overrides: Record<string, unknown> = {}) => ({
    slices: [{ origin: "LON", destination: "NYC", departureDate: daysAhead(30) }],
    passengers: [{ type: "ADULT", id: "lead" }, { type: "CHILD" }],
    cabinClass: "ECONOMY",
    maxConnections: 1,
    ...overrides,
  });

  async function searchFlights(key: string, overrides: Record<string, unknown> = {}) {
    const response = await graphql(server, SEARCH, { input: input(overrides) }, { key });
    expect(response.status).toBe(200);
    expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
    return response.body.data.searchFlights;
  }

  describe("Mutation.searchFlights", () => {
    it("returns the offer request id, the passengers with their ids, and offers with slices, segments and Location objects", async () => {
      const result = await searchFlights(alice.key);
      expect(result.offerRequestId).toMatch(/^orq_/);
      expect(result.passengers).toEqual([
        { id: "lead", type: "ADULT" },
        { id: expect.stringMatching(/^pas_/), type: "CHILD" },
      ]);
      const passengerIds = result.passengers.map((p: any) => p.id);
      expect(result.offers.length).toBeGreaterThan(0);
      const origins = new Set<string>();
      for (const offer of result.offers) {
        expect(offer).toMatchObject({
          id: expect.stringMatching(/^off_/),
          offerRequestId: result.offerRequestId,
          totalAmount: expect.stringMatching(/^\d+\.\d{2}$/),
          totalCurrency: "USD",
          expired: false,
          owner: { iataCode: expect.any(String), name: expect.any(String) },
        });
        expect(offer.passengers.map((p: any) => p.id)).toEqual(passengerIds);
        const fares = offer.passengers.reduce((sum: number, p: any) => sum + toMinor(p.fareAmount, "USD"), 0);
        expect(toMinor(offer.totalAmount, "USD")).toBe(fares);
        const [slice] = offer.slices;
        expect(slice.departureDate).toBe(daysAhead(30));
        expect(LONDON).toContain(slice.origin.iataCode);
        expect(NEW_YORK).toContain(slice.destination.iataCode);
        expect(slice.origin).toMatchObject({ type: "airport", iataCityCode: "LON", timeZone: "Europe/London", iataCountryCode: "GB" });
        expect(slice.destination).toMatchObject({ type: "airport", iataCityCode: "NYC", timeZone: "America/New_York", iataCountryCode: "US" });
        origins.add(slice.origin.iataCode);
        slice.segments.forEach((segment: any, i: number) => {
          expect(segment.origin).toEqual({
            id: expect.any(String),
            type: "airport",
            iataCode: expect.stringMatching(/^[A-Z]{3}$/),
            icaoCode: expect.any(String),
            name: expect.any(String),
            cityName: expect.any(String),
            iataCityCode: expect.any(String),
            iataCountryCode: expect.any(String),
            latitude: expect.any(Number),
            longitude: expect.any(Number),
            timeZone: expect.any(String),
          });
          if (i > 0) {
            expect(segment.origin.iataCode).toBe(slice.segments[i - 1].destination.iataCode);
            expect(Date.parse(segment.departingAtUtc)).toBeGreaterThan(Date.parse(slice.segments[i - 1].arrivingAtUtc));
          }
          // Local times are the UTC instants read in each airport's zone.
          expect(localToInstant(segment.departingAt, segment.origin.timeZone).instantMs).toBe(Date.parse(segment.departingAtUtc));
          expect(localToInstant(segment.arrivingAt, segment.destination.timeZone).instantMs).toBe(Date.parse(segment.arrivingAtUtc));
          expect(segment.marketingCarrier).toEqual(offer.owner);
          expect(segment.passengers.map((p: any) => p.passengerId)).toEqual(passengerIds);
        });
        expect(slice.segments[0].origin.iataCode).toBe(slice.origin.iataCode);
        expect(slice.segments.at(-1).destination.iataCode).toBe(slice.destination.iataCode);
      }
      expect(origins.size).toBeGreaterThan(1);
    });

    it("stores the offers: REST reads the same offer, and the offer request is listed", async () => {
      const result = await searchFlights(alice.key, { slices: [{ origin: "LHR", destination: "JFK", departureDate: daysAhead(31) }] });
      const offer = result.offers[0];
      const rest = await call(server, "GET", `/v1/air/offers/${offer.id}`, { key: alice.key });
      expect(rest.status).toBe(200);
      expect(rest.body.data).toMatchObject({ id: offer.id, total_amount: offer.totalAmount, total_currency: offer.totalCurrency, expires_at: offer.expiresAt });
      const requests = await call(server, "GET", "/v1/air/search?limit=100", { key: alice.key });
      expect(requests.body.data.items.map((item: any) => item.id)).toContain(result.offerRequestId);
    });

    it("works for the owner acting with Service-Tenant, storing the offers for that tenant", async () => {
      const response = await graphql(server, SEARCH, { input: input() }, { key: server.ownerKey, headers: { "service-tenant": bob.tenantId } });
      expect(response.body.errors).toBeUndefined();
      const offerId = response.body.data.searchFlights.offers[0].id;
      const asBob = await graphql(server, `query($id: ID!) { offer(id: $id) { id } }`, { id: offerId }, { key: bob.key });
      expect(asBob.body.data.offer).toEqual({ id: offerId });
    });

    it.each([
      ["an unknown origin", { slices: [{ origin: "XXX", destination: "JFK", departureDate: daysAhead(30) }] }, "slices[0].origin"],
      ["origin equal to destination", { slices: [{ origin: "JFK", destination: "JFK", departureDate: daysAhead(30) }] }, "slices[0].destination"],
      ["a past date", { slices: [{ origin: "LHR", destination: "JFK", departureDate: daysAhead(-1) }] }, "slices[0].departureDate"],
      ["no slices", { slices: [] }, "slices"],
      ["no adult", { passengers: [{ type: "CHILD" }] }, "passengers"],
      ["two infants for one adult", { passengers: [{ type: "ADULT" }, { type: "INFANT_WITHOUT_SEAT" }, { type: "INFANT_WITHOUT_SEAT" }] }, "passengers"],
      ["ten passengers", { passengers: Array.from({ length: 10 }, () => ({ type: "ADULT" })) }, "passengers"],
      ["maxConnections 3", { maxConnections: 3 }, "maxConnections"],
    ])("refuses %s with invalid_search_params naming the input field", async (_label, overrides, field) => {
      const response = await graphql(server, SEARCH, { input: input(overrides) }, { key: alice.key });
      expectGraphQLError(response, "invalid_search_params", { statusCode: 400, field });
      expect(response.body.data).toBeNull();
    });

    it.each([
      ["a date that is no date", { slices: [{ origin: "LHR", destination: "JFK", departureDate: "2026-13-01" }] }],
      ["a code of four letters", { slices: [{ origin: "LHRX", destination: "JFK", departureDate: daysAhead(30) }] }],
    ])("refuses %s while reading the variables (the input's scalars), 400 validation_failed", async (_label, overrides) => {
      const response = await graphql(server, SEARCH, { input: input(overrides) }, { key: alice.key });
      expectGraphQLError(response, "validation_failed", { httpStatus: 400, statusCode: 400 });
    });

    it("refuses an unknown cabin class before running (GraphQL enum validation)", async () => {
      expectGraphQLError(await graphql(server, SEARCH, { input: input({ cabinClass: "LUXURY" }) }, { key: alice.key }), "validation_failed", { httpStatus: 400, statusCode: 400 });
    });
  });

  describe("Query.offer and Query.offers", () => {
    let aliceOffers: string[];
    let requestId: string;
    beforeAll(async () => {
      const result = await searchFlights(alice.key, { slices: [{ origin: "LHR", destination: "JFK", departureDate: daysAhead(33) }] });
      aliceOffers = result.offers.map((offer: any) => offer.id);
      requestId = result.offerRequestId;
    });

    const OFFER = `query($id: ID!) { offer(id: $id) { id totalAmount slices { segments { origin { iataCode } } } } }`;

    it("returns the tenant's offer", async () => {
      const response = await graphql(server, OFFER, { id: aliceOffers[0] }, { key: alice.key });
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data.offer.id).toBe(aliceOffers[0]);
    });

    it("is null, without an error, for an unknown id and for another tenant's offer", async () => {
      for (const id of ["off_neverexisted", aliceOffers[0]]) {
        const response = await graphql(server, OFFER, { id }, { key: bob.key });
        expect(response.status).toBe(200);
        expect(response.body).toEqual({ data: { offer: null } });
      }
    });

    it("lists the tenant's offers as a connection with totalCount, by offer request too", async () => {
      const OFFERS = `query($requestId: ID, $first: Int, $after: String) {
        offers(offerRequestId: $requestId, first: $first, after: $after) {
          totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id offerRequestId } } nodes { id }
        }
      }`;
      const ofRequest = await graphql(server, OFFERS, { requestId, first: 100 }, { key: alice.key });
      expect(ofRequest.body.errors).toBeUndefined();
      const connection = ofRequest.body.data.offers;
      expect(connection.totalCount).toBe(aliceOffers.length);
      expect(connection.nodes.map((node: any) => node.id).sort()).toEqual([...aliceOffers].sort());
      expect(connection.edges.map((edge: any) => edge.node.id)).toEqual(connection.nodes.map((node: any) => node.id));
      for (const edge of connection.edges) expect(edge.node.offerRequestId).toBe(requestId);
      expect(connection.pageInfo.hasNextPage).toBe(false);

      // Walk all of Alice's offers two at a time.
      const all = await graphql(server, OFFERS, { first: 100 }, { key: alice.key });
      const total = all.body.data.offers.totalCount;
      expect(total).toBeGreaterThanOrEqual(aliceOffers.length);
      const seen: string[] = [];
      let after: string | null = null;
      for (let page = 0; ; page++) {
        expect(page).toBeLessThan(200);
        const response: any = await graphql(server, OFFERS, { first: 25, after }, { key: alice.key });
        expect(response.body.errors).toBeUndefined();
        expect(response.body.data.offers.totalCount).toBe(total);
        seen.push(...response.body.data.offers.nodes.map((node: any) => node.id));
        if (!response.body.data.offers.pageInfo.hasNextPage) break;
        after = response.body.data.offers.pageInfo.endCursor;
      }
      expect(seen).toHaveLength(total);
      expect(new Set(seen).size).toBe(total);
      expect(seen).toEqual(all.body.data.offers.nodes.map((node: any) => node.id));

      // Bob sees none of them.
      const bobs = await graphql(server, OFFERS, { requestId }, { key: bob.key });
      expect(bobs.body.data?.offers ?? null).toBeNull();
      expectGraphQLError(bobs, "not_found", { statusCode: 404 });
    });
  });

  describe("database queries per operation (DataLoader, no N+1)", () => {
    let counted: TenantFixture;
    let ids: string[];
    beforeAll(async () => {
      counted = await createTenant(server, { name: "Counted" });
      ids = [];
      for (const day of [40, 41]) {
        const result = await searchFlights(counted.key, { slices: [{ origin: "LON", destination: "NYC", departureDate: daysAhead(day) }] });
        ids.push(...result.offers.map((offer: any) => offer.id));
      }
      expect(ids.length).toBeGreaterThanOrEqual(50);
    });

    /**
     * SQL statements the server sent while answering `document`, after a warm-up run. The
     * smaller of two runs: an API-key cache entry expiring (60 s) between them adds a query to
     * one run, which is not what is being measured.
     */
    async function queriesFor(document: string, key = counted.key) {
      const run = () =>
        server.recordQueries(async () => {
          const response = await graphql(server, document, {}, { key });
          expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
          return response.body.data;
        });
      await run();
      const [first, second] = [await run(), await run()];
      return first.queries.length <= second.queries.length ? first : second;
    }

    it("an offers list with its slices and segments costs the same queries for 5 as for 50 offers", async () => {
      const listOf = (size: number) => `{ offers(first: ${size}) { nodes { slices { segments { origin { iataCode } } } } } }`;
      const five = await queriesFor(listOf(5));
      const fifty = await queriesFor(listOf(50));
      expect(five.result.offers.nodes).toHaveLength(5);
      expect(fifty.result.offers.nodes).toHaveLength(50);
      for (const node of fifty.result.offers.nodes) expect(node.slices[0].segments[0].origin.iataCode).toMatch(/^[A-Z]{3}$/);
      expect(fifty.queries.length, fifty.queries.join("\n")).toBe(five.queries.length);
      // A page query and a count, nothing per offer, slice or segment.
      expect(fifty.queries.length, fifty.queries.join("\n")).toBeLessThanOrEqual(3);
    });

    it("several offer(id:) fields in one operation are one batched query", async () => {
      const [a, b, c] = ids;
      // Offers of searches never made: not in any cache, so each run reads them (those searched are in memory).
      const [x, y] = [offerIdOf(newId("orq"), 0), offerIdOf(newId("orq"), 3)];
      const document = `{ a: offer(id: "${a}") { id } b: offer(id: "${b}") { id } x: offer(id: "${x}") { id } c: offer(id: "${c}") { id } y: offer(id: "${y}") { id } }`;
      const { result, queries } = await queriesFor(document);
      expect(result).toEqual({ a: { id: a }, b: { id: b }, x: null, c: { id: c }, y: null });
      // One read of both searches; on SQLite it is a prepared statement of its own, which Prisma's log does not see.
      expect(queries, queries.join("\n")).toHaveLength(server.provider === "postgresql" ? 1 : 0);
      for (const query of queries) expect(query).toMatch(/"OfferRequest"/);
    });

    it("the batched query stays within the caller's tenant", async () => {
      const [a, b] = ids;
      const response = await graphql(server, `{ a: offer(id: "${a}") { id } b: offer(id: "${b}") { id } }`, {}, { key: alice.key });
      expect(response.body).toEqual({ data: { a: null, b: null } });
    });
  });
});
