import { describe, expect, it } from "vitest";
import { airportIdFor, type Airport } from "../../src/locations/airport";
import { AirportIndex } from "../../src/locations/airport-index";
import { toLocationView } from "../../src/locations/location-view";
import { foldForSearch } from "../../src/locations/search-text";

function airport(
  iataCode: string,
  name: string,
  cityName: string,
  sizeRank: number,
  iataCityCode = iataCode,
): Airport {
  return {
    id: airportIdFor(iataCode),
    iataCode,
    icaoCode: `X${iataCode}`,
    name,
    cityName,
    iataCityCode,
    iataCountryCode: "DE",
    latitude: 50,
    longitude: 10,
    timeZone: "Europe/Berlin",
    sizeRank,
  };
}

const index = new AirportIndex([
  airport("OBF", "Oberpfaffenhofen Airport", "Wessling", 900),
  airport("BRN", "Bern Airport", "Bern", 20),
  airport("BER", "Berlin Brandenburg Airport", "Berlin", 10),
  airport("GBE", "Grand Bernina Airport", "Pontresina", 50),
  airport("SXB", "Strasbourg Airport", "Strasbourg", 30),
  airport("LHR", "London Heathrow Airport", "London", 100, "LON"),
  airport("LGW", "London Gatwick Airport", "London", 80, "LON"),
  airport("LYR", "Longyearbyen Airport", "Longyearbyen", 1000),
]);
const search = (query: string, limit = 10): string[] => index.search(query, limit).map((a) => a.iataCode);

describe("airport codes", () => {
  it("resolve an airport code to the airport and a metro code to its airports, biggest first", () => {
    expect(index.airportsForCode("lgw").map((a) => a.iataCode)).toEqual(["LGW"]);
    expect(index.airportsForCode("LON").map((a) => a.iataCode)).toEqual(["LHR", "LGW"]);
    expect(index.airportsForCode("PAR")).toEqual([]);
    expect(["LON", "ber", "PAR"].map((code) => index.isKnownCode(code))).toEqual([true, true, false]);
  });
});

describe("airport search ranking", () => {
  it("ranks exact code, then name or city prefix, then word prefix, then substring", () => {
    // OBF is the biggest but only contains "ber"; GBE has a word starting with it.
    expect(search("ber")).toEqual(["BER", "BRN", "GBE", "OBF"]);
  });

  it("breaks ties by size", () => {
    expect(search("london")).toEqual(["LHR", "LGW"]);
    expect(search("airport")).toEqual(["LYR", "OBF", "LHR", "LGW", "GBE", "SXB", "BRN", "BER"]);
  });

  it("lists a metropolitan code's airports before name matches", () => {
    // LON is London's metro code; the bigger Longyearbyen only starts with it.
    expect(search("LON")).toEqual(["LHR", "LGW", "LYR"]);
  });

  it("lists each airport once, at its best rank", () => {
    // LHR matches as a code, and "london" is the start of both its name and its city.
    expect(search("lhr")).toEqual(["LHR"]);
  });

  it("folds case, accents and punctuation", () => {
    expect(search("STRASBOURG")).toEqual(["SXB"]);
    expect(search("  Bérn  ")).toEqual(["BRN", "GBE"]);
    expect(search("heathrow-airport")).toEqual(["LHR"]);
  });

  it("returns at most `limit` airports, the best ones", () => {
    expect(search("airport", 2)).toEqual(["LYR", "OBF"]);
    expect(search("ber", 1)).toEqual(["BER"]);
    expect(search("ber", 0)).toEqual([]);
  });

  it("finds nothing for an unknown or empty query", () => {
    expect(search("zz")).toEqual([]);
    expect(search(" - ")).toEqual([]);
  });

  it("gives the same answer when asked again", () => {
    expect(search("ber")).toEqual(search("ber"));
  });
});

describe("search folding", () => {
  it("drops case, accents and punctuation, and spells out letters without a base form", () => {
    expect(foldForSearch("Zürich")).toBe("zurich");
    expect(foldForSearch("São Paulo-Guarulhos")).toBe("sao paulo guarulhos");
    expect(foldForSearch("Lutselk'e")).toBe("lutselke");
    expect(foldForSearch("Straße")).toBe("strasse");
    expect(foldForSearch("Ørland")).toBe("orland");
    expect(foldForSearch("  Łódź  ")).toBe("lodz");
  });
});

describe("location view", () => {
  it("is the snake_case Location object", () => {
    expect(toLocationView(airport("BER", "Berlin Brandenburg Airport", "Berlin", 10))).toEqual({
      id: "arp_ber",
      type: "airport",
      iata_code: "BER",
      icao_code: "XBER",
      name: "Berlin Brandenburg Airport",
      city_name: "Berlin",
      iata_city_code: "BER",
      iata_country_code: "DE",
      latitude: 50,
      longitude: 10,
      time_zone: "Europe/Berlin",
      airports: null,
      city: null,
    });
  });
});
