import { execFile } from "node:child_process";
import { promisify } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { airportIndex } from "../../src/locations/airport-index";
import { MIN_STOPOVER_MINUTES } from "../../src/connectors/simulated/timetable/journeys";
import { pickBestMix, type Rankable } from "../../src/connectors/simulated/timetable/selection";
import { MAX_OFFERS_PER_SEARCH, SimulatedTimetable } from "../../src/connectors/simulated/timetable/simulated-timetable";
import type { CabinClass, PassengerType } from "../../src/gateway/contract/air";
import type { SupplierOffer, SupplierSearch, SupplierSegment } from "../../src/gateway/contract/offers";

const index = airportIndex();
const airline = new SimulatedTimetable({ airportByIata: (code) => index.getByIata(code) });
const MINUTE_MS = 60_000;

interface SearchOptions {
  passengers?: PassengerType[];
  cabinClass?: CabinClass;
  maxConnections?: number;
}

/** A search from [origin code, destination code, date] triples; codes may be city codes. */
function searchFor(slices: [string, string, string][], options: SearchOptions = {}): SupplierSearch {
  return {
    slices: slices.map(([origin, destination, departureDate]) => ({
      origins: index.airportsForCode(origin),
      destinations: index.airportsForCode(destination),
      departureDate,
    })),
    passengers: (options.passengers ?? ["adult"]).map((type, i) => ({ id: `pas_${i}`, type })),
    cabinClass: options.cabinClass ?? "economy",
    maxConnections: options.maxConnections ?? 1,
    tenantId: "ten_test",
    environment: "sandbox",
  };
}

const search = (slices: [string, string, string][], options?: SearchOptions) =>
  airline.search(searchFor(slices, options));

const segmentsOf = (offers: SupplierOffer[]): SupplierSegment[] =>
  offers.flatMap((offer) => offer.slices.flatMap((slice) => slice.segments));

/** Minutes between UTC and the local time shown, i.e. the zone offset the supplier applied. */
const shownOffsetMinutes = (localIso: string, utcIso: string) =>
  (Date.parse(`${localIso}Z`) - Date.parse(utcIso)) / MINUTE_MS;

describe("simulated airline: determinism", () => {
  const roundTrip = searchFor(
    [
      ["LON", "NYC", "2026-12-01"],
      ["NYC", "LON", "2026-12-08"],
    ],
    { passengers: ["adult", "child", "infant_without_seat"] },
  );

  it("gives the same offers for the same search, on the same and on a new instance", async () => {
    const first = await airline.search(roundTrip);
    expect(first.length).toBeGreaterThan(0);
    expect(await airline.search(roundTrip)).toEqual(first);
    const another = new SimulatedTimetable({ airportByIata: (code) => index.getByIata(code) });
    expect(await another.search(roundTrip)).toEqual(first);
  });

  it("gives the same offers after the modules are loaded afresh, as after a restart", async () => {
    const first = await airline.search(roundTrip);
    vi.resetModules();
    const fresh = await import("../../src/connectors/simulated/timetable/simulated-timetable");
    const freshIndex = (await import("../../src/locations/airport-index")).airportIndex();
    const restarted = new fresh.SimulatedTimetable({ airportByIata: (code) => freshIndex.getByIata(code) });
    const slices = roundTrip.slices.map((slice) => ({
      ...slice,
      origins: slice.origins.map((airport) => freshIndex.getByIata(airport.iataCode)!),
      destinations: slice.destinations.map((airport) => freshIndex.getByIata(airport.iataCode)!),
    }));
    expect(await restarted.search({ ...roundTrip, slices })).toEqual(first);
  });

  it("gives the same offers in another process", async () => {
    const script = `
      import { airportIndex } from "./src/locations/airport-index.ts";
      import { SimulatedTimetable } from "./src/connectors/simulated/timetable/simulated-timetable.ts";
      const index = airportIndex();
      const airline = new SimulatedTimetable({ airportByIata: (code) => index.getByIata(code) });
      const request = JSON.parse(process.argv[1]);
      for (const slice of request.slices) {
        slice.origins = index.airportsForCode(slice.origins);
        slice.destinations = index.airportsForCode(slice.destinations);
      }
      process.stdout.write(JSON.stringify(await airline.search(request)));
    `;
    const oneWay = searchFor([["LON", "NYC", "2026-12-01"]], { passengers: ["adult", "child", "infant_without_seat"] });
    const request = { ...oneWay, slices: [{ origins: "LON", destinations: "NYC", departureDate: "2026-12-01" }] };
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ["--import", "tsx", "--input-type=module", "--eval", script, JSON.stringify(request)],
      { cwd: process.cwd(), maxBuffer: 16 * 2 ** 20 },
    );
    const offers = await airline.search(oneWay);
    expect(offers.length).toBeGreaterThan(0);
    expect(JSON.parse(stdout)).toEqual(JSON.parse(JSON.stringify(offers)));
  });
});

describe("simulated airline: time zones", () => {
  // US clocks go forward on 2026-03-08, the UK's only on 2026-03-29: London–New York is
  // 5 hours apart on 2026-03-07 and 4 hours apart on 2026-03-14 (both Saturdays).
  const dates = [
    { date: "2026-03-07", newYorkOffset: -300 },
    { date: "2026-03-14", newYorkOffset: -240 },
  ];

  it("shows LHR→JFK local times consistent with each airport's offset either side of the US change", async () => {
    for (const { date, newYorkOffset } of dates) {
      const segments = segmentsOf(await search([["LHR", "JFK", date]], { maxConnections: 0 }));
      expect(segments.length).toBeGreaterThan(0);
      for (const segment of segments) {
        expect(segment.origin.iataCode).toBe("LHR");
        expect(segment.destination.iataCode).toBe("JFK");
        expect(segment.departingAtLocal.slice(0, 10)).toBe(date);
        const elapsed = (Date.parse(segment.arrivingAtUtc) - Date.parse(segment.departingAtUtc)) / MINUTE_MS;
        expect(elapsed).toBe(segment.durationMinutes);
        expect(shownOffsetMinutes(segment.departingAtLocal, segment.departingAtUtc)).toBe(0);
        expect(shownOffsetMinutes(segment.arrivingAtLocal, segment.arrivingAtUtc)).toBe(newYorkOffset);
        // Westbound across the Atlantic takes about 7–8½ hours.
        expect(segment.durationMinutes).toBeGreaterThanOrEqual(420);
        expect(segment.durationMinutes).toBeLessThanOrEqual(510);
      }
    }
  });

  it("keeps a flight's local departure and duration across the change, so it lands an hour later", async () => {
    const [before, after] = await Promise.all(
      dates.map(async ({ date }) => segmentsOf(await search([["LHR", "JFK", date]], { maxConnections: 0 }))),
    );
    const timeOfDay = (localIso: string) => localIso.slice(11);
    const minutesOfDay = (localIso: string) => Number(localIso.slice(11, 13)) * 60 + Number(localIso.slice(14, 16));
    let compared = 0;
    for (const early of before!) {
      const flightNumber = early.marketingCarrierFlightNumber;
      const late = after!.find((segment) => segment.marketingCarrierFlightNumber === flightNumber);
      if (!late) continue;
      compared++;
      expect(timeOfDay(late.departingAtLocal)).toBe(timeOfDay(early.departingAtLocal));
      expect(late.durationMinutes).toBe(early.durationMinutes);
      const shift = (minutesOfDay(late.arrivingAtLocal) - minutesOfDay(early.arrivingAtLocal) + 1440) % 1440;
      expect(shift).toBe(60);
    }
    expect(compared).toBeGreaterThan(0);
  });

  it("flies eastbound faster than westbound (jet stream)", async () => {
    const west = segmentsOf(await search([["LHR", "JFK", "2026-06-01"]], { maxConnections: 0 }));
    const east = segmentsOf(await search([["JFK", "LHR", "2026-06-01"]], { maxConnections: 0 }));
    expect(Math.min(...west.map((s) => s.durationMinutes))).toBeGreaterThan(
      Math.max(...east.map((s) => s.durationMinutes)),
    );
  });
});

describe("simulated airline: connections", () => {
  it("offers only nonstop flights with max_connections 0", async () => {
    const offers = await search([["LON", "NYC", "2026-06-01"]], { maxConnections: 0 });
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) expect(offer.slices[0]!.segments).toHaveLength(1);
  });

  it("adds connections through the owner's hubs with max_connections 1 and 2", async () => {
    const oneStop = await search([["LHR", "JFK", "2026-06-01"]], { maxConnections: 1 });
    expect(oneStop.some((offer) => offer.slices[0]!.segments.length === 2)).toBe(true);
    expect(oneStop.every((offer) => offer.slices[0]!.segments.length <= 2)).toBe(true);
    const twoStops = await search([["LHR", "SYD", "2026-06-01"]], { maxConnections: 2 });
    expect(twoStops.some((offer) => offer.slices[0]!.segments.length === 3)).toBe(true);
  });

  it("searches every airport of a city code", async () => {
    const offers = await search([["LON", "NYC", "2026-06-01"]]);
    const origins = new Set(offers.map((offer) => offer.slices[0]!.origin.iataCode));
    const destinations = new Set(offers.map((offer) => offer.slices[0]!.destination.iataCode));
    expect(origins.size).toBeGreaterThan(1);
    expect(destinations.size).toBeGreaterThan(1);
    for (const code of origins) expect(index.airportsForCode("LON").map((a) => a.iataCode)).toContain(code);
    for (const code of destinations) expect(index.airportsForCode("NYC").map((a) => a.iataCode)).toContain(code);
  });

  it(`returns at most ${MAX_OFFERS_PER_SEARCH} offers`, async () => {
    const offers = await search([["LON", "NYC", "2026-06-01"]], { maxConnections: 2 });
    expect(offers.length).toBeLessThanOrEqual(MAX_OFFERS_PER_SEARCH);
  });

  it("returns nothing, not an error, where no carrier flies", async () => {
    expect(await search([["INV", "BHX", "2026-06-01"]], { maxConnections: 0 })).toEqual([]);
  });
});

describe("simulated airline: multi-slice searches", () => {
  it("builds round trips from one carrier, the return leaving after the outbound lands", async () => {
    const offers = await search([
      ["LHR", "JFK", "2026-03-07"],
      ["JFK", "LHR", "2026-03-14"],
    ]);
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) {
      const [outbound, inbound] = offer.slices;
      expect(offer.slices).toHaveLength(2);
      expect([outbound!.origin.iataCode, outbound!.destination.iataCode]).toEqual(["LHR", "JFK"]);
      expect([inbound!.origin.iataCode, inbound!.destination.iataCode]).toEqual(["JFK", "LHR"]);
      expect(outbound!.departureDate).toBe("2026-03-07");
      expect(inbound!.departureDate).toBe("2026-03-14");
      expect(inbound!.segments[0]!.departingAtLocal.slice(0, 10)).toBe("2026-03-14");
      for (const segment of [...outbound!.segments, ...inbound!.segments]) {
        expect(segment.marketingCarrier).toEqual(offer.owner);
      }
    }
  });

  it("orders multi-city slices in time, even on the same day", async () => {
    const itineraries: [string, string, string][][] = [
      [
        ["LON", "NYC", "2026-06-01"],
        ["NYC", "LAX", "2026-06-03"],
        ["LAX", "LON", "2026-06-08"],
      ],
      [
        ["LHR", "FRA", "2026-06-01"],
        ["FRA", "IST", "2026-06-01"],
      ],
    ];
    for (const slices of itineraries) {
      const offers = await search(slices);
      expect(offers.length).toBeGreaterThan(0);
      for (const offer of offers) {
        expect(offer.slices.map((slice) => slice.departureDate)).toEqual(slices.map(([, , date]) => date));
        for (let i = 1; i < offer.slices.length; i++) {
          const previous = offer.slices[i - 1]!.segments.at(-1)!;
          const next = offer.slices[i]!.segments[0]!;
          const gap = (Date.parse(next.departingAtUtc) - Date.parse(previous.arrivingAtUtc)) / MINUTE_MS;
          expect(gap).toBeGreaterThanOrEqual(MIN_STOPOVER_MINUTES);
        }
      }
    }
  });
});

describe("simulated airline: fares, seats and cabins", () => {
  it("prices a child at 75 % and a lap infant at 10 % of the adult fare, totalling exactly", async () => {
    const offers = await search([["LHR", "JFK", "2026-06-01"]], {
      passengers: ["adult", "adult", "child", "infant_without_seat"],
    });
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) {
      const [adult, secondAdult, child, infant] = offer.passengers;
      expect(offer.passengers.map((p) => p.id)).toEqual(["pas_0", "pas_1", "pas_2", "pas_3"]);
      expect(secondAdult!.fareAmount).toBe(adult!.fareAmount);
      expect(child!.fareAmount).toBe(Math.round(adult!.fareAmount * 0.75));
      expect(infant!.fareAmount).toBe(Math.round(adult!.fareAmount * 0.1));
      expect(offer.totalAmount).toBe(offer.passengers.reduce((sum, p) => sum + p.fareAmount, 0));
      expect(offer.baseCurrency).toBe("USD");
      expect(offer.passengerIdentityDocumentsRequired).toBe(true);
    }
  });

  it("charges change and refund penalties per seated passenger", async () => {
    const conditionsByOwner = async (passengers: PassengerType[]) =>
      new Map(
        (await search([["LHR", "JFK", "2026-06-01"]], { passengers })).map((o) => [o.owner.iataCode, o.conditions]),
      );
    const single = await conditionsByOwner(["adult"]);
    const family = await conditionsByOwner(["adult", "adult", "child", "infant_without_seat"]);
    expect(family.size).toBeGreaterThan(0);
    for (const [owner, conditions] of family) {
      const one = single.get(owner)!;
      for (const kind of ["changeBeforeDeparture", "refundBeforeDeparture"] as const) {
        expect(conditions[kind].allowed).toBe(one[kind].allowed);
        expect(conditions[kind].penaltyAmount).toBe(one[kind].allowed ? 3 * one[kind].penaltyAmount! : null);
      }
    }
  });

  it("needs no identity documents within one country", async () => {
    const offers = await search([["JFK", "ORD", "2026-06-01"]], { maxConnections: 0 });
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) expect(offer.passengerIdentityDocumentsRequired).toBe(false);
  });

  it("prices higher cabins higher", async () => {
    const cheapest = async (cabinClass: CabinClass) =>
      Math.min(
        ...(await search([["LHR", "JFK", "2026-06-01"]], { cabinClass, maxConnections: 0 })).map((o) => o.totalAmount),
      );
    const economy = await cheapest("economy");
    const business = await cheapest("business");
    expect(business).toBeGreaterThan(2 * economy);
  });

  it("sells the best lower cabin where the aircraft has none of the requested", async () => {
    const offers = await search([["LHR", "CDG", "2026-06-01"]], { cabinClass: "first", maxConnections: 0 });
    expect(offers.length).toBeGreaterThan(0);
    for (const offer of offers) {
      for (const segment of offer.slices[0]!.segments) expect(segment.cabinClass).toBe("business");
      expect(offer.fareBrandName).toMatch(/Business/);
    }
  });

  it("leaves out value carriers from premium cabins", async () => {
    const economy = await search([["LGW", "BCN", "2026-06-01"]], { maxConnections: 0 });
    expect(economy.some((offer) => offer.owner.iataCode === "ZV")).toBe(true);
    const business = await search([["LGW", "BCN", "2026-06-01"]], { cabinClass: "business", maxConnections: 0 });
    expect(business.some((offer) => offer.owner.iataCode === "ZV")).toBe(false);
  });

  it("leaves out flights with fewer seats left than passengers needing a seat", async () => {
    const nine: PassengerType[] = ["adult", "adult", "adult", "adult", "adult", "child", "child", "child", "child"];
    let found = false;
    for (let day = 1; day <= 28 && !found; day++) {
      const date = `2026-07-${String(day).padStart(2, "0")}`;
      const forOne = segmentsOf(await search([["LON", "NYC", date]], { maxConnections: 0 }));
      const scarce = forOne.find((segment) => segment.seatsLeft < nine.length);
      if (!scarce) continue;
      found = true;
      const forNine = segmentsOf(await search([["LON", "NYC", date]], { passengers: nine, maxConnections: 0 }));
      expect(forNine.map((segment) => segment.flightKey)).not.toContain(scarce.flightKey);
      for (const segment of forNine) expect(segment.seatsLeft).toBeGreaterThanOrEqual(nine.length);
      // Lap infants need no seat: nine adults' worth of seats is not needed for 1 adult + 1 infant.
      const withInfant = segmentsOf(
        await search([["LON", "NYC", date]], { passengers: ["adult", "infant_without_seat"], maxConnections: 0 }),
      );
      expect(withInfant.map((segment) => segment.flightKey)).toContain(scarce.flightKey);
    }
    expect(found).toBe(true);
  });

  it("keeps a flight's seats and identity the same in every search that includes it", async () => {
    const direct = segmentsOf(await search([["LHR", "JFK", "2026-06-01"]], { maxConnections: 0 }));
    const viaCity = segmentsOf(await search([["LON", "NYC", "2026-06-01"]], { maxConnections: 1 }));
    let compared = 0;
    for (const segment of direct) {
      const same = viaCity.find((other) => other.flightKey === segment.flightKey);
      if (!same) continue;
      compared++;
      expect(same).toEqual(segment);
    }
    expect(compared).toBeGreaterThan(0);
  });
});

describe("pickBestMix", () => {
  const option = (key: string, price: number, durationMinutes: number, connections: number): Rankable => ({
    key,
    price,
    durationMinutes,
    connections,
  });

  it("takes the cheapest, the fastest and the most direct in turn", () => {
    const options = [
      option("cheap-slow", 100, 900, 2),
      option("mid", 300, 600, 1),
      option("fast-pricey", 900, 400, 0),
      option("direct-slow", 800, 700, 0),
      option("worst", 1000, 1000, 2),
    ];
    expect(pickBestMix(options, 3).map((o) => o.key)).toEqual(["cheap-slow", "fast-pricey", "direct-slow"]);
    expect(pickBestMix(options, 10)).toHaveLength(5);
    expect(pickBestMix(options, 4).map((o) => o.key)).not.toContain("worst");
  });

  it("breaks ties by key, whatever the input order", () => {
    const options = [option("b", 100, 100, 0), option("a", 100, 100, 0), option("c", 100, 100, 0)];
    expect(pickBestMix(options, 2).map((o) => o.key)).toEqual(["a", "b"]);
    expect(pickBestMix([...options].reverse(), 2).map((o) => o.key)).toEqual(["a", "b"]);
  });
});
