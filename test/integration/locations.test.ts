import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TenantFixture, call, graphql, startServerWithTenant } from "../helpers/client";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import type { TestServer } from "../helpers/test-server";

/** Airport lookup (docs/rest-api.md#locations) over REST and GraphQL. */

const LOCATION_FIELDS = [
  "id",
  "type",
  "iata_code",
  "icao_code",
  "name",
  "city_name",
  "iata_city_code",
  "iata_country_code",
  "latitude",
  "longitude",
  "time_zone",
  "airports",
  "city",
].sort();

const LONDON_AIRPORTS = ["LHR", "LGW", "STN", "LTN", "LCY", "SEN"];

interface Location {
  id: string;
  iata_code: string;
  iata_city_code: string;
  name: string;
  city_name: string;
  [field: string]: unknown;
}

/** A Location object (docs/rest-api.md#locations) with every field, of the right type. */
function expectLocation(location: Location): void {
  expect(Object.keys(location).sort()).toEqual(LOCATION_FIELDS);
  expect(location).toMatchObject({
    id: expect.any(String),
    type: "airport",
    iata_code: expect.stringMatching(/^[A-Z]{3}$/),
    icao_code: expect.stringMatching(/^[A-Z0-9]{4}$/),
    name: expect.any(String),
    city_name: expect.any(String),
    iata_city_code: expect.stringMatching(/^[A-Z]{3}$/),
    iata_country_code: expect.stringMatching(/^[A-Z]{2}$/),
    latitude: expect.any(Number),
    longitude: expect.any(Number),
    time_zone: expect.any(String),
    airports: null,
    city: null,
  });
  expect(location.id.length).toBeGreaterThan(0);
  expect(Math.abs(location.latitude as number)).toBeLessThanOrEqual(90);
  expect(Math.abs(location.longitude as number)).toBeLessThanOrEqual(180);
  // A real IANA zone: Intl accepts it.
  expect(() => new Intl.DateTimeFormat("en", { timeZone: location.time_zone as string })).not.toThrow();
}

/** Lower-case without accents, as a user would type it. */
const fold = (text: string) => text.normalize("NFD").replace(/\p{Diacritic}/gu, "").toLowerCase();

describe("locations", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => ({ server, tenant } = await startServerWithTenant()));
  afterAll(() => server.close());

  const find = (query: Record<string, string>, key = tenant.key) => call(server, "GET", `/v1/air/locations?${new URLSearchParams(query)}`, { key });

  async function locations(query: Record<string, string>, key?: string): Promise<Location[]> {
    const response = await find(query, key);
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: expect.any(String) });
    expect(Array.isArray(response.body.data), "data is the array itself").toBe(true);
    for (const location of response.body.data) expectLocation(location);
    return response.body.data;
  }

  describe("REST GET /v1/air/locations", () => {
    it("returns Location objects with every field, airports and city present and null", async () => {
      const found = await locations({ query: "LHR" });
      expect(found.length).toBeGreaterThan(0);
      expect(found[0]).toMatchObject({
        type: "airport",
        iata_code: "LHR",
        icao_code: "EGLL",
        city_name: "London",
        iata_city_code: "LON",
        iata_country_code: "GB",
        time_zone: "Europe/London",
        airports: null,
        city: null,
      });
      expect(found[0]!.latitude).toBeCloseTo(51.47, 1);
      expect(found[0]!.longitude).toBeCloseTo(-0.45, 1);
    });

    it("puts the airport whose IATA code is the query first, whatever the case", async () => {
      for (const [query, code] of [
        ["JFK", "JFK"],
        ["jfk", "JFK"],
        ["cdg", "CDG"],
        ["Sin", "SIN"],
      ] as const) {
        const found = await locations({ query });
        expect(found[0]?.iata_code, query).toBe(code);
      }
    });

    it("keeps the same stable id for an airport across searches", async () => {
      const byCode = await locations({ query: "ZRH" });
      const byName = await locations({ query: "zurich" });
      const zrh = byName.find((location) => location.iata_code === "ZRH");
      expect(zrh?.id).toBe(byCode[0]!.id);
    });

    it("is accent-insensitive: 'zurich' finds Zürich's airport", async () => {
      const found = await locations({ query: "zurich" });
      const zrh = found.find((location) => location.iata_code === "ZRH");
      expect(zrh, JSON.stringify(found.map((location) => location.iata_code))).toBeDefined();
      expect(zrh!.time_zone).toBe("Europe/Zurich");
      expect(fold(`${zrh!.name} ${zrh!.city_name}`)).toContain("zurich");
      // Typed with the accent, it finds the same airport.
      expect((await locations({ query: "Zürich" })).map((location) => location.iata_code)).toContain("ZRH");
    });

    it("every result matches the query in its code, name or city (case- and accent-insensitive)", async () => {
      for (const query of ["heathrow", "PARIS", "Málaga", "São Paulo", "kennedy", "reykjavík"]) {
        const found = await locations({ query });
        expect(found.length, query).toBeGreaterThan(0);
        for (const location of found) {
          const haystack = fold(`${location.iata_code} ${location.iata_city_code} ${location.name} ${location.city_name}`);
          expect(haystack, `${query} → ${location.iata_code}`).toContain(fold(query));
        }
      }
    });

    it("ranks a name or city prefix before a substring match", async () => {
      const found = await locations({ query: "paris", limit: "15" });
      const firstNonPrefix = found.findIndex(
        (location) => !fold(location.name).startsWith("paris") && !fold(location.city_name).startsWith("paris"),
      );
      const prefixAfter = found.findIndex(
        (location, index) => index > firstNonPrefix && (fold(location.name).startsWith("paris") || fold(location.city_name).startsWith("paris")),
      );
      expect(found.slice(0, 2).map((location) => location.iata_city_code)).toEqual(["PAR", "PAR"]);
      if (firstNonPrefix !== -1) expect(prefixAfter, JSON.stringify(found.map((location) => location.name))).toBe(-1);
    });

    it("the city code LON returns London's airports, first", async () => {
      const found = await locations({ query: "LON", limit: "15" });
      const leading = found.slice(0, LONDON_AIRPORTS.length);
      expect(leading.map((location) => location.iata_code).sort()).toEqual([...LONDON_AIRPORTS].sort());
      for (const location of leading) expect(location.iata_city_code).toBe("LON");
      // The biggest first.
      expect(leading[0]!.iata_code).toBe("LHR");
    });

    it("honours limit, and defaults to 10", async () => {
      expect(await locations({ query: "international" })).toHaveLength(10);
      expect(await locations({ query: "international", limit: "3" })).toHaveLength(3);
      expect(await locations({ query: "international", limit: "1" })).toHaveLength(1);
      expect(await locations({ query: "international", limit: "15" })).toHaveLength(15);
      const three = await locations({ query: "international", limit: "3" });
      const ten = await locations({ query: "international" });
      expect(ten.slice(0, 3)).toEqual(three);
    });

    it("answers a query that matches nothing with success and an empty list", async () => {
      const response = await find({ query: "qxqxzz" });
      expect(response.status).toBe(200);
      expect(response.body).toEqual({ success: true, message: expect.any(String), data: [] });
    });

    it("refuses a query shorter than 2 characters with 400 validation_failed naming query", async () => {
      expectError(await find({ query: "z" }), 400, "validation_failed", "query");
      expectError(await find({ query: "" }), 400, "validation_failed", "query");
      expectError(await find({ query: " a " }), 400, "validation_failed", "query");
    });

    it("refuses a missing query with 400 validation_failed naming query", async () => {
      expectError(await find({}), 400, "validation_failed", "query");
      expectError(await find({ limit: "5" }), 400, "validation_failed", "query");
    });

    it.each(["0", "16", "abc", "-1", "1.5", "100", "1e1", "0x0A", "10.0", ""])("refuses limit=%s with 400 LIMIT_OUT_OF_RANGE naming limit", async (limit) => {
      expectError(await find({ query: "london", limit }), 400, "LIMIT_OUT_OF_RANGE", "limit");
    });

    it("says and suggests the lookup's own range, 1 to 15 (not the 1 to 100 of paged lists), on REST and GraphQL", async () => {
      const refused = await find({ query: "london", limit: "20" });
      expect(refused.body).toMatchObject({ message: "limit: must be between 1 and 15", suggestedAction: "Send a limit from 1 to 15." });
      const viaGraphQL = await graphql(server, "{ locations(query: \"london\", limit: 20) { id } }", {}, { key: tenant.key });
      expect(viaGraphQL.body.errors?.[0]).toMatchObject({ message: "limit: must be between 1 and 15", extensions: { code: "LIMIT_OUT_OF_RANGE", field: "limit" } });
    });

    it("may be called with the owner key, without Service-Tenant", async () => {
      const asOwner = await locations({ query: "LHR" }, server.ownerKey);
      expect(asOwner).toEqual(await locations({ query: "LHR" }));
    });

    it("needs a key", async () => {
      expectError(await call(server, "GET", "/v1/air/locations?query=LHR"), 401, "unauthorized");
    });
  });

  describe("GraphQL locations(query, limit)", () => {
    const LOCATIONS = `query Find($query: String!, $limit: Int) {
      locations(query: $query, limit: $limit) { id type iataCode icaoCode name cityName iataCityCode iataCountryCode latitude longitude timeZone }
    }`;
    const run = (variables: Record<string, unknown>, key = tenant.key) => graphql(server, LOCATIONS, variables, { key });

    it("returns the same airports, in the same order, as REST", async () => {
      const response = await run({ query: "LON", limit: 8 });
      expect(response.status).toBe(200);
      expect(response.body.errors).toBeUndefined();
      const rest = await locations({ query: "LON", limit: "8" });
      expect(response.body.data.locations).toEqual(
        rest.map((location) => ({
          id: location.id,
          type: "airport",
          iataCode: location.iata_code,
          icaoCode: location.icao_code,
          name: location.name,
          cityName: location.city_name,
          iataCityCode: location.iata_city_code,
          iataCountryCode: location.iata_country_code,
          latitude: location.latitude,
          longitude: location.longitude,
          timeZone: location.time_zone,
        })),
      );
    });

    it("defaults to 10 results and honours limit", async () => {
      expect((await run({ query: "international" })).body.data.locations).toHaveLength(10);
      expect((await run({ query: "international", limit: 2 })).body.data.locations).toHaveLength(2);
    });

    it("is accent-insensitive and answers no match with an empty list", async () => {
      const zurich = await run({ query: "zurich" });
      expect(zurich.body.data.locations.map((location: { iataCode: string }) => location.iataCode)).toContain("ZRH");
      const none = await run({ query: "qxqxzz" });
      expect(none.body).toEqual({ data: { locations: [] } });
    });

    it("works for the owner without Service-Tenant", async () => {
      const response = await run({ query: "JFK", limit: 1 }, server.ownerKey);
      expect(response.body.errors).toBeUndefined();
      expect(response.body.data.locations[0].iataCode).toBe("JFK");
    });

    it("refuses a short query with validation_failed and a bad limit with LIMIT_OUT_OF_RANGE", async () => {
      expectGraphQLError(await run({ query: "z" }), "validation_failed", { statusCode: 400, field: "query" });
      expectGraphQLError(await run({ query: "london", limit: 0 }), "LIMIT_OUT_OF_RANGE", { statusCode: 400, field: "limit" });
      expectGraphQLError(await run({ query: "london", limit: 16 }), "LIMIT_OUT_OF_RANGE", { statusCode: 400, field: "limit" });
    });
  });
});
