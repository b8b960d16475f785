import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { daysAhead } from "../helpers/offers";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * A search is stored once, and every later read of one of its offers is what the search
 * answered, byte for byte: read back from the database by a server that never saw the search
 * (the same database, restarted), over REST (both variants, single and listed) and GraphQL. The
 * tenant has a pricing rule on offers from Great Britain: their fees are read back with them.
 */

const OFFER_FIELDS = `id offerRequestId totalAmount totalCurrency baseAmount taxAmount feeAmount feeCurrency expiresAt createdAt owner { iataCode name }
  slices { id origin { iataCode name } destination { iataCode } departureDate duration fareBrandName
    segments { id origin { iataCode timeZone } destination { iataCode } departingAt arrivingAt departingAtUtc arrivingAtUtc duration distanceKm
      marketingCarrier { iataCode name } marketingCarrierFlightNumber operatingCarrier { iataCode } operatingCarrierFlightNumber aircraft { iataCode name }
      cabinClass passengers { passengerId cabinClass baggages { type quantity } } } }
  passengers { id type fareAmount } passengerIdentityDocumentsRequired
  conditions { changeBeforeDeparture { allowed penaltyAmount penaltyCurrency } refundBeforeDeparture { allowed penaltyAmount penaltyCurrency } }
  paymentRequirements { requiresInstantPayment priceGuaranteeExpiresAt } availableServices { id type totalAmount maximumQuantity passengerIds segmentIds }`;

const SEARCH_A = {
  slices: [
    { origin: "LON", destination: "NYC", departure_date: daysAhead(40) },
    { origin: "NYC", destination: "LON", departure_date: daysAhead(47) },
  ],
  passengers: [{ type: "adult", id: "lead \"one\"" }, { type: "child", id: "kïd" }, { type: "infant_without_seat" }],
  cabin_class: "economy",
  max_connections: 1,
};

/** The body's text as it came over the wire. */
async function rawCall(server: TestServer, method: string, path: string, key: string, body?: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(server.url + path, {
    method,
    headers: { authorization: `Bearer ${key}`, ...(body === undefined ? {} : { "content-type": "application/json" }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: response.status, text: await response.text() };
}

describe("a search stored once, read back exactly", { timeout: 60_000 }, () => {
  let database: TestDatabase;
  let server: TestServer;
  let tenant: TenantFixture;
  let searchText: string;
  let searchedGraphQL: any[];
  let searchedB: any[];
  const restart = async () => {
    await server.close();
    server = await startTestServer({ database, ownerKey: server.ownerKey });
  };

  beforeAll(async () => {
    database = await createTestDatabase();
    server = await startTestServer({ database });
    tenant = await createTenant(server);
    const rule = await call(server, "POST", "/v1/pricing_rules", { key: server.ownerKey, body: { tenant_id: tenant.tenantId, name: "From GB", match: { origin: "GB" }, fee: { percent: "3.5", fixed_amount: "2.00", fixed_currency: "EUR", per: "passenger" } } });
    expect(rule.status).toBe(201);
    const searched = await rawCall(server, "POST", "/v1/air/search", tenant.key, SEARCH_A);
    expect(searched.status, searched.text.slice(0, 300)).toBe(200);
    searchText = searched.text;
    expect((JSON.parse(searchText).data.offers as any[]).every((offer) => offer.fee_amount !== "0.00")).toBe(true);
    const gql = await graphql(
      server,
      `mutation { searchFlights(input: { slices: [{ origin: "LHR", destination: "JFK", departureDate: "${daysAhead(41)}" }], passengers: [{ type: ADULT }, { type: CHILD }] }) { offers { ${OFFER_FIELDS} } } }`,
      {},
      { key: tenant.key },
    );
    expect(gql.body.errors, JSON.stringify(gql.body.errors)).toBeUndefined();
    searchedGraphQL = gql.body.data.searchFlights.offers;
    const b = await call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: { data: { slices: [{ origin: "PAR", destination: "NYC", departure_date: daysAhead(42) }], passengers: [{ type: "adult" }], cabin_class: "business" }, return_offers: true },
    });
    expect(b.status).toBe(200);
    searchedB = b.body.data;
    await restart();
  });
  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  it("answers each offer of the search in the bytes a later GET answers it in, from the database", async () => {
    const offers = JSON.parse(searchText).data.offers as any[];
    expect(offers.length).toBeGreaterThan(20);
    for (const offer of offers) {
      const offerText = JSON.stringify(offer);
      expect(searchText.includes(offerText), `the search's bytes hold ${offer.id} as serialised`).toBe(true);
      const read = await rawCall(server, "GET", `/v1/air/offers/${offer.id}`, tenant.key);
      expect(read.status).toBe(200);
      const guarantee = JSON.stringify({ requires_instant_payment: false, price_guarantee_expires_at: offer.expires_at });
      expect(read.text).toBe(`{"success":true,"message":"OK","data":${offerText.slice(0, -1)},"payment_requirements":${guarantee}}}`);
    }
  });

  it("answers GraphQL offer(id) as searchFlights answered it, every field", async () => {
    const ids = searchedGraphQL.map((offer) => offer.id);
    const document = `query(${ids.map((_, i) => `$id${i}: ID!`).join(", ")}) { ${ids.map((_, i) => `o${i}: offer(id: $id${i}) { ${OFFER_FIELDS} }`).join(" ")} }`;
    const read = await graphql(server, document, Object.fromEntries(ids.map((id, i) => [`id${i}`, id])), { key: tenant.key });
    expect(read.body.errors, JSON.stringify(read.body.errors)).toBeUndefined();
    expect(ids.map((_, i) => read.body.data[`o${i}`])).toEqual(searchedGraphQL);
  });

  it("lists Variant B offers as the Variant B search answered them", async () => {
    const listed: any[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await call(server, "GET", `/v1/air/offers?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: tenant.key });
      expect(page.status).toBe(200);
      listed.push(...page.body.data.items);
      cursor = page.body.data.pagination.nextCursor;
    } while (cursor);
    const byId = new Map(listed.map((offer) => [offer.id, offer]));
    expect(searchedB.length).toBeGreaterThan(0);
    for (const offer of searchedB) expect(JSON.stringify(byId.get(offer.id))).toBe(JSON.stringify(offer));
  });

  it("lists the tenant's offers across its searches newest first, each once, forwards and back", async () => {
    const total = JSON.parse(searchText).data.offers.length + searchedGraphQL.length + searchedB.length;
    const forwards: any[] = [];
    const pages: any[] = [];
    let cursor: string | null = null;
    do {
      const page: any = await call(server, "GET", `/v1/air/offers?limit=7${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: tenant.key });
      expect(page.status).toBe(200);
      expect(page.body.data.pagination.total).toBe(total);
      pages.push(page.body.data);
      forwards.push(...page.body.data.items.map((offer: any) => offer.id));
      cursor = page.body.data.pagination.nextCursor;
    } while (cursor);
    expect(forwards).toHaveLength(total);
    expect(new Set(forwards).size).toBe(total);
    // Newest search first; within a search, the last offer first (ids sort as they were made).
    expect([...forwards].sort().reverse()).toEqual(forwards);

    const backwards: string[] = [];
    cursor = pages.at(-1).pagination.prevCursor;
    while (cursor) {
      const page: any = await call(server, "GET", `/v1/air/offers?limit=7&cursor=${encodeURIComponent(cursor)}`, { key: tenant.key });
      backwards.unshift(...page.body.data.items.map((offer: any) => offer.id));
      cursor = page.body.data.pagination.prevCursor;
    }
    expect([...backwards, ...pages.at(-1).items.map((offer: any) => offer.id)]).toEqual(forwards);
  });
});
