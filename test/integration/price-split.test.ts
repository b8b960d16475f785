import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { formatMinor } from "../../src/money/format";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { toMinor } from "../helpers/flight-checks";
import { daysAhead } from "../helpers/offers";
import { createOrderA, flightsOfOffer, getOrder, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Offers and orders split their total into base fare and taxes (Duffel's `base_amount` and
 * `tax_amount`): exactly, in every currency's minor unit, for any route, cabin and passenger mix;
 * an order keeps its offer's taxes as booked, services count as base; REST and GraphQL agree.
 */

type PassengerType = "adult" | "child" | "infant_without_seat";

interface SplitSearch {
  slices: Array<[origin: string, destination: string, days: number]>;
  cabin: "economy" | "premium_economy" | "business" | "first";
  passengers: PassengerType[];
}

const SEARCHES: SplitSearch[] = [
  { slices: [["LHR", "JFK", 30]], cabin: "economy", passengers: ["adult"] },
  { slices: [["LHR", "CDG", 31]], cabin: "economy", passengers: ["adult", "child", "infant_without_seat"] },
  { slices: [["JFK", "LAX", 32]], cabin: "business", passengers: ["adult", "adult", "child"] },
  { slices: [["SIN", "SYD", 33]], cabin: "first", passengers: ["adult", "infant_without_seat"] },
  { slices: [["LON", "NYC", 34], ["NYC", "LON", 41]], cabin: "premium_economy", passengers: ["adult", "child", "infant_without_seat"] },
];

/** A zero-decimal, two two-decimal and two three-decimal currencies. */
const CURRENCIES = ["USD", "EUR", "JPY", "KWD", "BHD"];

interface Split {
  total: number;
  base: number;
  tax: number;
}

/** A Variant A offer's or order's split in minor units, after checking its currencies and format. */
function restSplit(record: any): Split {
  const currency = record.total_currency;
  expect([record.base_currency, record.tax_currency]).toEqual([currency, currency]);
  return { total: toMinor(record.total_amount, currency), base: toMinor(record.base_amount, currency), tax: toMinor(record.tax_amount, currency) };
}

function expectExactSplit(split: Split, what: string): void {
  expect(split.base + split.tax, `${what}: base + tax = total`).toBe(split.total);
  expect(split.tax, `${what}: some taxes`).toBeGreaterThan(0);
  expect(split.tax, `${what}: taxes within the total`).toBeLessThan(split.total);
}

describe("base fare and taxes", () => {
  let server: TestServer;
  const tenants = new Map<string, TenantFixture>();

  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0" } });
    for (const currency of CURRENCIES) {
      const tenant = await createTenant(server, { name: `${currency} Travel` });
      const changed = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { default_currency: currency } });
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      tenants.set(currency, tenant);
    }
  });
  afterAll(() => server.close());

  const tenant = (currency: string) => tenants.get(currency)!;

  it("splits every offer's total exactly into base and taxes, for routes, cabins, passenger mixes and currencies of 0, 2 and 3 decimals", async () => {
    let offersChecked = 0;
    for (const currency of CURRENCIES) {
      for (const search of SEARCHES) {
        const response = await call(server, "POST", "/v1/air/search", {
          key: tenant(currency).key,
          body: {
            slices: search.slices.map(([origin, destination, days]) => ({ origin, destination, departure_date: daysAhead(days) })),
            passengers: search.passengers.map((type) => ({ type })),
            cabin_class: search.cabin,
          },
        });
        expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
        const offers: any[] = response.body.data.offers;
        expect(offers.length, `${currency} ${JSON.stringify(search)}`).toBeGreaterThan(0);
        for (const offer of offers) {
          expect(offer.total_currency).toBe(currency);
          expectExactSplit(restSplit(offer), `${currency} ${offer.id}`);
          offersChecked++;
        }
        // Reading the stored offer back shows the same split.
        const read = await call(server, "GET", `/v1/air/offers/${offers[0].id}`, { key: tenant(currency).key });
        expect(read.status).toBe(200);
        expect(restSplit(read.body.data)).toEqual(restSplit(offers[0]));
      }
    }
    expect(offersChecked).toBeGreaterThan(100);
  });

  it("taxes a lap infant less than an adult, and the same itinerary the same in every search", async () => {
    const search = (passengers: PassengerType[]) =>
      call(server, "POST", "/v1/air/search", {
        key: tenant("USD").key,
        body: { slices: [{ origin: "LHR", destination: "JFK", departure_date: daysAhead(50) }], passengers: passengers.map((type) => ({ type })) },
      });
    const adult = (await search(["adult"])).body.data.offers as any[];
    const withInfant = (await search(["adult", "infant_without_seat"])).body.data.offers as any[];
    const again = (await search(["adult", "infant_without_seat"])).body.data.offers as any[];
    expect(again.map((offer) => offer.tax_amount)).toEqual(withInfant.map((offer) => offer.tax_amount));
    const itinerary = (offer: any) => JSON.stringify(flightsOfOffer(offer));
    const adultTax = new Map(adult.map((offer) => [itinerary(offer), restSplit(offer).tax]));
    let compared = 0;
    for (const offer of withInfant) {
      const alone = adultTax.get(itinerary(offer));
      if (alone === undefined) continue;
      const infantTax = restSplit(offer).tax - alone;
      expect(infantTax).toBeGreaterThan(0);
      expect(infantTax).toBeLessThan(alone);
      compared++;
    }
    expect(compared).toBeGreaterThan(0);
  });

  for (const currency of ["USD", "JPY", "KWD"]) {
    it(`keeps the offer's taxes on the order as booked (${currency}): services count as base, through ticketing, and GraphQL agrees with REST`, async () => {
      const { key } = tenant(currency);
      const [offer] = await searchForBooking(server, key, { passengers: ["adult", "child", "infant_without_seat"] });
      const offerSplit = restSplit(offer);
      const services = (await call(server, "GET", `/v1/air/offers/${offer.id}?return_available_services=true`, { key })).body.data.available_services;
      const bag = services.find((service: any) => service.type === "baggage");
      const total = offerSplit.total + toMinor(bag.total_amount, currency);
      const created = await createOrderA(server, key, offer, {
        body: { services: [{ id: bag.id, quantity: 1 }], payments: [{ type: "balance", currency, amount: formatMinor(total, currency) }] },
      });
      expect(created.status, JSON.stringify(created.body).slice(0, 500)).toBe(201);
      const order = created.body.data;
      expect(restSplit(order)).toEqual({ total, base: total - offerSplit.tax, tax: offerSplit.tax });

      expect((await ticketOrder(server, key, order.id)).status).toBe(200);
      const read = await waitForStatus(server, key, order.id, ["TICKETED"]);
      expect(restSplit(read.body.data)).toEqual(restSplit(order));
      expect(restSplit(read.body.data.offer)).toEqual(offerSplit);
      const listed = await call(server, "GET", "/v1/air/orders?limit=100", { key });
      expect(restSplit(listed.body.data.items.find((item: any) => item.id === order.id))).toEqual(restSplit(order));

      const viaGraphQL = await graphql(
        server,
        `query Split($order: ID!, $offer: ID!) {
          order(id: $order) { totalAmount baseAmount taxAmount offer { totalAmount baseAmount taxAmount } }
          offer(id: $offer) { totalAmount baseAmount taxAmount }
        }`,
        { order: order.id, offer: offer.id },
        { key },
      );
      expect(viaGraphQL.body.errors).toBeUndefined();
      const asRest = (record: any) => ({ total_amount: record.totalAmount, base_amount: record.baseAmount, tax_amount: record.taxAmount });
      const { order: gqlOrder, offer: gqlOffer } = viaGraphQL.body.data;
      expect(asRest(gqlOrder)).toEqual({ total_amount: order.total_amount, base_amount: order.base_amount, tax_amount: order.tax_amount });
      expect(asRest(gqlOrder.offer)).toEqual({ total_amount: offer.total_amount, base_amount: offer.base_amount, tax_amount: offer.tax_amount });
      expect(asRest(gqlOffer)).toEqual(asRest(gqlOrder.offer));
    });
  }

  it("keeps the offer's split on a BHD order with a lap infant, read back by id", async () => {
    const { key } = tenant("BHD");
    const [offer] = await searchForBooking(server, key, { passengers: ["adult", "infant_without_seat"] });
    const created = await createOrderA(server, key, offer);
    expect(created.status, JSON.stringify(created.body).slice(0, 500)).toBe(201);
    const read = await getOrder(server, key, created.body.data.id);
    expect(read.status).toBe(200);
    expect(restSplit(read.body.data)).toEqual(restSplit(offer));
    expectExactSplit(restSplit(read.body.data), "BHD order");
  });
});
