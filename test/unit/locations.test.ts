import v8 from "node:v8";
import vm from "node:vm";
import { beforeAll, describe, expect, it } from "vitest";
import type { Airport } from "../../src/locations/airport";
import type { AirportIndex } from "../../src/locations/airport-index";
import { METROPOLITAN_AIRPORTS } from "../../src/locations/city-codes";
import { BUSIEST_AIRPORTS } from "../../src/locations/size-rank";

/** Grants this test process a garbage collector, so heap figures are not blurred by garbage. */
function collectGarbage(): void {
  v8.setFlagsFromString("--expose-gc");
  (vm.runInNewContext("gc") as () => void)();
}

const codes = (airports: readonly Airport[]): string[] => airports.map((airport) => airport.iataCode);

let index: AirportIndex;
let heapUsedByAirportsMb: number;

beforeAll(async () => {
  // Imported here, not at the top, so the heap measured covers the packaged data too.
  collectGarbage();
  const before = process.memoryUsage().heapUsed;
  const { airportIndex } = await import("../../src/locations/airport-index");
  index = airportIndex();
  collectGarbage();
  heapUsedByAirportsMb = (process.memoryUsage().heapUsed - before) / 1e6;
});

describe("airport index over the packaged data", () => {
  it("keeps thousands of scheduled-service airports in under 50 MB of heap", () => {
    expect(index.airports.length).toBeGreaterThan(3000);
    expect(heapUsedByAirportsMb).toBeLessThan(50);
  });

  it("is built once and shared", async () => {
    const { airportIndex } = await import("../../src/locations/airport-index");
    expect(airportIndex()).toBe(index);
  });

  it("gives every airport a time zone that Intl accepts, and a unique stable id", () => {
    const invalidZones = index.airports.filter((airport) => !acceptedByIntl(airport.timeZone));
    expect(invalidZones).toEqual([]);
    const unstableIds = index.airports.filter((a) => a.id !== `arp_${a.iataCode.toLowerCase()}`);
    expect(unstableIds).toEqual([]);
    expect(new Set(index.airports.map((airport) => airport.id)).size).toBe(index.airports.length);
  });

  it("has every airport that the hand-maintained tables name", () => {
    const named = [...Object.values(METROPOLITAN_AIRPORTS).flat(), ...BUSIEST_AIRPORTS];
    expect(named.filter((code) => index.getByIata(code) === undefined)).toEqual([]);
  });

  it("looks airports up by IATA code, case-insensitively, and by stable id", () => {
    const heathrow = index.getByIata("lhr");
    expect(heathrow).toMatchObject({
      id: "arp_lhr",
      iataCode: "LHR",
      icaoCode: "EGLL",
      cityName: "London",
      iataCityCode: "LON",
      iataCountryCode: "GB",
      timeZone: "Europe/London",
    });
    expect(index.getById("arp_lhr")).toBe(heathrow);
    expect(index.getByIata("ZRH")?.iataCityCode).toBe("ZRH");
    expect(index.getByIata("QQQ")).toBeUndefined();
    expect(index.getById("arp_qqq")).toBeUndefined();
  });

  it("expands metropolitan codes to all their airports, biggest first", () => {
    const london = codes(index.airportsForCode("LON"));
    expect(london).toEqual(expect.arrayContaining(["LHR", "LGW", "STN", "LTN", "LCY", "SEN"]));
    expect(london[0]).toBe("LHR");
    expect(codes(index.airportsForCode("nyc"))).toEqual(expect.arrayContaining(["JFK", "LGA", "EWR"]));
    expect(codes(index.airportsForCode("JFK"))).toEqual(["JFK"]);
    expect(codes(index.airportsForCode("QQQ"))).toEqual([]);
  });

  it("lets an airport code win over a metro code that shares it", () => {
    expect(codes(index.airportsForCode("BKK"))).toEqual(["BKK"]);
    expect(index.getByIata("DMK")?.iataCityCode).toBe("BKK");
  });

  it("knows airport and metro codes", () => {
    expect(index.isKnownCode("LHR")).toBe(true);
    expect(index.isKnownCode("par")).toBe(true);
    expect(index.isKnownCode("QQQ")).toBe(false);
  });

  it("puts the exact IATA code first, in any case", () => {
    expect(index.search("LHR", 10)[0]?.name).toMatch(/Heathrow/);
    expect(index.search("lhr", 10)[0]?.iataCode).toBe("LHR");
  });

  it("puts a metro code's airports right after", () => {
    expect(codes(index.search("lon", 6)).sort()).toEqual(["LCY", "LGW", "LHR", "LTN", "SEN", "STN"]);
  });

  it("is accent-insensitive both ways", () => {
    expect(index.search("zurich", 5)[0]?.iataCode).toBe("ZRH");
    expect(index.search("ZÜRICH", 5)[0]?.iataCode).toBe("ZRH");
    expect(codes(index.search("sao paulo", 3))).toContain("GRU");
    expect(codes(index.search("São Paulo", 3))).toContain("GRU");
  });

  it("is case-insensitive", () => {
    expect(codes(index.search("LONDON", 10))).toEqual(codes(index.search("london", 10)));
    expect(codes(index.search("New Y", 3)).sort()).toEqual(["EWR", "JFK", "LGA"]);
  });

  it("honours the limit and finds nothing for nonsense", () => {
    expect(index.search("a", 3)).toHaveLength(3);
    expect(codes(index.search("lon", 1))).toEqual(["LHR"]);
    expect(index.search("xqzv", 10)).toEqual([]);
    expect(index.search("--", 10)).toEqual([]);
  });
});

function acceptedByIntl(timeZone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone });
    return true;
  } catch {
    return false;
  }
}
