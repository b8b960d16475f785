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
