import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock } from "../../src/clock";
import { call, graphql, startServerWithTenant, type TenantFixture } from "../helpers/client";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { type TestServer } from "../helpers/test-server";

/**
 * Departure dates are bounded: the airline sells 361 days ahead, counted from
 * today at the origin, so a later departure is 422 `departure_date_out_of_range` naming the field,
 * on REST (both variants) and GraphQL. Dates are computed from the product's clock.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
const SALES_HORIZON_DAYS = 361;

/** Today at London (the origin of these searches), on the product's clock, `days` ahead. */
function londonDate(days: number): string {
  const today = new Intl.DateTimeFormat("en-CA", { timeZone: "Europe/London" }).format(clock.now());
  return new Date(Date.parse(`${today}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);
}

describe("search date bounds", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    ({ server, tenant } = await startServerWithTenant());
  });
  afterAll(() => server.close());

  const searchA = (slices: Array<{ departure_date: string }>) =>
    call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: { slices: slices.map((slice, index) => ({ origin: index % 2 ? "JFK" : "LHR", destination: index % 2 ? "LHR" : "JFK", ...slice })), passengers: [{ type: "adult" }] },
    });

  it(`sells departures up to ${SALES_HORIZON_DAYS} days ahead at the origin`, async () => {
    const response = await searchA([{ departure_date: londonDate(SALES_HORIZON_DAYS) }]);
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
  });

  it("refuses a departure past the horizon with 422 naming the field (Variant A, B and a later slice)", async () => {
    expectError(await searchA([{ departure_date: londonDate(SALES_HORIZON_DAYS + 1) }]), 422, "departure_date_out_of_range", "slices[0].departure_date");
    expectError(await searchA([{ departure_date: "9999-12-31" }]), 422, "departure_date_out_of_range", "slices[0].departure_date");
    expectError(
      await searchA([{ departure_date: londonDate(30) }, { departure_date: londonDate(SALES_HORIZON_DAYS + 30) }]),
      422,
      "departure_date_out_of_range",
      "slices[1].departure_date",
    );
    const variantB = await call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: { data: { slices: [{ origin: "LHR", destination: "JFK", departure_date: "9999-12-31" }], passengers: [{ type: "adult" }], cabin_class: "economy" } },
    });
    expectError(variantB, 422, "departure_date_out_of_range", "data.slices[0].departure_date");
  });

  it("refuses it on GraphQL searchFlights too", async () => {
    const response = await graphql(
      server,
      `mutation ($input: SearchFlightsInput!) { searchFlights(input: $input) { offers { id } } }`,
      { input: { slices: [{ origin: "LHR", destination: "JFK", departureDate: "9999-12-31" }], passengers: [{ type: "ADULT" }] } },
      { key: tenant.key },
    );
    expectGraphQLError(response, "departure_date_out_of_range", { statusCode: 422, field: "slices[0].departureDate" });
  });
});

/**
 * Years 0001–0099 are dates JavaScript reads as 1900–1999 (Date.UTC), so they once reached the
 * time arithmetic and answered 500. Every date before 1900 is invalid input, named by its field,
 * wherever a date comes in: searches (both variants, GraphQL, batch offer requests), the fare
 * calendar and destination ideas.
 */
describe("dates before 1900", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    ({ server, tenant } = await startServerWithTenant());
  });
  afterAll(() => server.close());

  const oneWay = (departure_date: string) => ({ slices: [{ origin: "LHR", destination: "JFK", departure_date }], passengers: [{ type: "adult" }] });

  it("refuses them in searches with 400 invalid_search_params naming the field", async () => {
    for (const date of ["0099-01-15", "0001-01-01", "1899-12-31"]) {
      expectError(await call(server, "POST", "/v1/air/search", { key: tenant.key, body: oneWay(date) }), 400, "invalid_search_params", "slices[0].departure_date");
      const variantB = await call(server, "POST", "/v1/air/search", { key: tenant.key, body: { data: { ...oneWay(date), cabin_class: "economy" } } });
      expectError(variantB, 400, "invalid_search_params", "data.slices[0].departure_date");
      expectError(await call(server, "POST", "/v1/air/batch_offer_requests", { key: tenant.key, body: oneWay(date) }), 400, "invalid_search_params", "slices[0].departure_date");
    }
    const response = await graphql(
      server,
      `mutation ($input: SearchFlightsInput!) { searchFlights(input: $input) { offers { id } } }`,
      { input: { slices: [{ origin: "LHR", destination: "JFK", departureDate: "0099-01-15" }], passengers: [{ type: "ADULT" }] } },
      { key: tenant.key },
    );
    expectGraphQLError(response, "invalid_search_params", { statusCode: 400, field: "slices[0].departureDate" });
    expect(response.body.errors?.[0]?.extensions?.retryable).toBe(false);
  });

  it("refuses them in the fare calendar and destination ideas", async () => {
    const calendar = await call(server, "GET", "/v1/air/fare_calendar?origin=LON&destination=NYC&from=0099-01-15&to=0099-01-20", { key: tenant.key });
    expectError(calendar, 400, "invalid_search_params", "from");
    const to = await call(server, "GET", `/v1/air/fare_calendar?origin=LON&destination=NYC&from=${londonDate(3)}&to=0099-01-20`, { key: tenant.key });
    expectError(to, 400, "invalid_search_params", "to");
    const destinations = await call(server, "GET", "/v1/air/destinations?origin=LON&month=0099-07&cabin_class=premium_economy", { key: tenant.key });
    expectError(destinations, 400, "invalid_search_params", "month");
    const viaGraphQL = await graphql(server, `{ destinations(origin: "LON", month: "0099-07") { destination { iataCode } } }`, {}, { key: tenant.key });
    expectGraphQLError(viaGraphQL, "invalid_search_params", { statusCode: 400, field: "month" });
  });
});
