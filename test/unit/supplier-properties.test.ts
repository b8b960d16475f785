import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { Airport } from "../../src/locations/airport";
import { airportIndex } from "../../src/locations/airport-index";
import { CARRIERS } from "../../src/connectors/simulated/timetable/carriers";
import { MIN_STOPOVER_MINUTES } from "../../src/connectors/simulated/timetable/journeys";
import { MAX_LAYOVER_MINUTES } from "../../src/connectors/simulated/timetable/hub-connections";
import { MAX_OFFERS_PER_SEARCH, SimulatedTimetable } from "../../src/connectors/simulated/timetable/simulated-timetable";
import { CABIN_CLASSES, type PassengerType } from "../../src/gateway/contract/air";
import { type SupplierOffer, type SupplierSearch } from "../../src/gateway/contract/offers";

const index = airportIndex();
const airline = new SimulatedTimetable({ airportByIata: (code) => index.getByIata(code) });
const MINUTE_MS = 60_000;
const DAY_MS = 86_400_000;

/** Big airports on every continent, and city codes that stand for several. */
const CODES = [
  "LHR", "LGW", "MAN", "CDG", "FRA", "AMS", "MAD", "BCN", "FCO", "MUC", "BER", "IST", "DXB", "DEL",
  "BOM", "SIN", "HKG", "HND", "ICN", "SYD", "LAX", "SFO", "ORD", "DFW", "ATL", "MIA", "JFK", "YYZ",
  "SEA", "GRU", "MEX", "JNB", "NBO", "LON", "NYC", "PAR", "TYO",
];

/** Local wall time of an instant straight from Intl, independent of the supplier's own time code. */
const wallClocks = new Map<string, Intl.DateTimeFormat>();
function intlLocalIso(timeZone: string, utcIso: string): string {
  let format = wallClocks.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat("en-CA", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    });
    wallClocks.set(timeZone, format);
  }
  const parts = Object.fromEntries(format.formatToParts(Date.parse(utcIso)).map((part) => [part.type, part.value]));
  return `${parts.year}-${parts.month}-${parts.day}T${parts.hour}:${parts.minute}:${parts.second}`;
}

/** The minimum connection time the carrier table promises at a hub, checked independently. */
function minimumConnection(owner: string, hub: Airport, from: Airport, to: Airport): number | undefined {
  const profile = CARRIERS.find((carrier) => carrier.iataCode === owner)?.hubs.find((h) => h.iataCode === hub.iataCode);
  if (!profile) return undefined;
  const domestic = from.iataCountryCode === hub.iataCountryCode && to.iataCountryCode === hub.iataCountryCode;
  return domestic ? profile.minConnectionMinutes.domestic : profile.minConnectionMinutes.international;
}

const isoDate = (ms: number) => new Date(ms).toISOString().slice(0, 10);
const airportsFor = (code: string) => index.airportsForCode(code);

const sliceArbitrary = fc
  .tuple(fc.constantFrom(...CODES), fc.constantFrom(...CODES), fc.integer({ min: 0, max: 10 }))
  .filter(([origin, destination]) => {
    const origins = new Set(airportsFor(origin).map((airport) => airport.id));
    return airportsFor(destination).every((airport) => !origins.has(airport.id));
  });

const passengersArbitrary = fc
  .tuple(fc.integer({ min: 1, max: 4 }), fc.integer({ min: 0, max: 3 }), fc.integer({ min: 0, max: 4 }))
  .map(([adults, children, infants]): PassengerType[] => [
    ...Array<PassengerType>(adults).fill("adult"),
    ...Array<PassengerType>(children).fill("child"),
    ...Array<PassengerType>(Math.min(infants, adults)).fill("infant_without_seat"),
  ]);

/** A search by code and date, so that a counterexample reads well; `toRequest` resolves it. */
interface SearchSpec {
  slices: { origin: string; destination: string; departureDate: string }[];
  passengers: PassengerType[];
  cabinClass: SupplierSearch["cabinClass"];
  maxConnections: number;
}

const searchArbitrary = fc
  .record({
    firstDay: fc.integer({ min: 0, max: 700 }),
    slices: fc.array(sliceArbitrary, { minLength: 1, maxLength: 3 }),
    passengers: passengersArbitrary,
    cabinClass: fc.constantFrom(...CABIN_CLASSES),
    maxConnections: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ firstDay, slices, passengers, cabinClass, maxConnections }): SearchSpec => {
    let day = Date.UTC(2026, 0, 1) / DAY_MS + firstDay;
    return {
      slices: slices.map(([origin, destination, daysLater]) => {
        day += daysLater;
        return { origin, destination, departureDate: isoDate(day * DAY_MS) };
      }),
      passengers,
      cabinClass,
      maxConnections,
    };
  });

function toRequest(search: SearchSpec): SupplierSearch {
  return {
    slices: search.slices.map(({ origin, destination, departureDate }) => ({
      origins: airportsFor(origin),
      destinations: airportsFor(destination),
      departureDate,
    })),
    passengers: search.passengers.map((type, i) => ({ id: `pas_${i}`, type })),
    cabinClass: search.cabinClass,
    maxConnections: search.maxConnections,
    tenantId: "ten_test",
    environment: "sandbox",
  };
}

function checkFares(offer: SupplierOffer, request: SupplierSearch): void {
  expect(offer.passengers.map(({ id, type }) => ({ id, type }))).toEqual(request.passengers);
  const adultFare = offer.passengers.find((p) => p.type === "adult")!.fareAmount;
  expect(Number.isInteger(adultFare) && adultFare > 0).toBe(true);
  for (const passenger of offer.passengers) {
    const percent = { adult: 100, child: 75, infant_without_seat: 10 }[passenger.type];
    expect(passenger.fareAmount).toBe(Math.round((adultFare * percent) / 100));
  }
  expect(offer.totalAmount).toBe(offer.passengers.reduce((sum, p) => sum + p.fareAmount, 0));
  checkTaxes(offer);
}

/** Taxes split each fare (never more than 60 % of it), and nobody pays more than an adult. */
function checkTaxes(offer: SupplierOffer): void {
  const adultTax = offer.passengers.find((p) => p.type === "adult")!.taxAmount;
  for (const passenger of offer.passengers) {
    expect(Number.isInteger(passenger.taxAmount) && passenger.taxAmount > 0).toBe(true);
    expect(passenger.taxAmount).toBeLessThanOrEqual(Math.floor(passenger.fareAmount * 0.6));
    if (passenger.type === "adult") expect(passenger.taxAmount).toBe(adultTax);
    if (passenger.type === "infant_without_seat") expect(passenger.taxAmount).toBeLessThan(adultTax);
    if (passenger.type === "child") expect(passenger.taxAmount).toBeLessThanOrEqual(adultTax);
  }
}

function checkItinerary(offer: SupplierOffer, request: SupplierSearch): void {
  const seated = request.passengers.filter((p) => p.type !== "infant_without_seat").length;
  const requestedCabin = CABIN_CLASSES.indexOf(request.cabinClass);
  let crossesBorder = false;
  expect(offer.slices).toHaveLength(request.slices.length);
  offer.slices.forEach((slice, s) => {
    const searched = request.slices[s]!;
    const segments = slice.segments;
    expect(segments.length).toBeGreaterThanOrEqual(1);
    expect(segments.length).toBeLessThanOrEqual(request.maxConnections + 1);
    expect(searched.origins).toContain(segments[0]!.origin);
    expect(searched.destinations).toContain(segments.at(-1)!.destination);
    expect([slice.origin, slice.destination]).toEqual([segments[0]!.origin, segments.at(-1)!.destination]);
    expect(slice.departureDate).toBe(searched.departureDate);
    expect(segments[0]!.departingAtLocal.slice(0, 10)).toBe(searched.departureDate);
    const sliceMs = Date.parse(segments.at(-1)!.arrivingAtUtc) - Date.parse(segments[0]!.departingAtUtc);
    expect(slice.durationMinutes).toBe(sliceMs / MINUTE_MS);
    const visited = new Set([segments[0]!.origin.id, ...segments.map((segment) => segment.destination.id)]);
    expect(visited.size).toBe(segments.length + 1);

    segments.forEach((segment, i) => {
      const departure = Date.parse(segment.departingAtUtc);
      const arrival = Date.parse(segment.arrivingAtUtc);
      expect((arrival - departure) / MINUTE_MS).toBe(segment.durationMinutes);
      expect(segment.departingAtLocal).toBe(intlLocalIso(segment.origin.timeZone, segment.departingAtUtc));
      expect(segment.arrivingAtLocal).toBe(intlLocalIso(segment.destination.timeZone, segment.arrivingAtUtc));
      expect(segment.marketingCarrier).toEqual(offer.owner);
      expect(segment.seatsLeft).toBeGreaterThanOrEqual(seated);
      expect(CABIN_CLASSES.indexOf(segment.cabinClass)).toBeLessThanOrEqual(requestedCabin);
      expect(segment.flightKey).toContain(`${offer.owner.iataCode}${segment.marketingCarrierFlightNumber}@`);
      if (segment.origin.iataCountryCode !== segment.destination.iataCountryCode) crossesBorder = true;
      if (i === 0) return;
      // Each flight leaves from where the previous one landed, within the hub's connection window.
      const previous = segments[i - 1]!;
      expect(segment.origin).toBe(previous.destination);
      const layover = (departure - Date.parse(previous.arrivingAtUtc)) / MINUTE_MS;
      const minimum = minimumConnection(offer.owner.iataCode, segment.origin, previous.origin, segment.destination);
      expect(minimum, `connection at ${segment.origin.iataCode} is an owner's hub`).toBeDefined();
      expect(layover).toBeGreaterThanOrEqual(minimum!);
      expect(layover).toBeLessThanOrEqual(MAX_LAYOVER_MINUTES);
    });

    if (s > 0) {
      const previousArrival = Date.parse(offer.slices[s - 1]!.segments.at(-1)!.arrivingAtUtc);
      const gap = (Date.parse(segments[0]!.departingAtUtc) - previousArrival) / MINUTE_MS;
      expect(gap).toBeGreaterThanOrEqual(MIN_STOPOVER_MINUTES);
    }
  });
  expect(offer.passengerIdentityDocumentsRequired).toBe(crossesBorder);
}

describe("simulated airline: properties over valid searches", () => {
  it("chains segments and slices in place and time, totals the passengers' fares, and keeps taxes within each fare", async () => {
    let searchesWithOffers = 0;
    await fc.assert(
      fc.asyncProperty(searchArbitrary, async (search) => {
        const request = toRequest(search);
        const offers = await airline.search(request);
        expect(offers.length).toBeLessThanOrEqual(MAX_OFFERS_PER_SEARCH);
        if (offers.length > 0) searchesWithOffers++;
        for (const offer of offers) {
          checkFares(offer, request);
          checkItinerary(offer, request);
        }
      }),
      { numRuns: 200 },
    );
    // The property must not hold vacuously.
    expect(searchesWithOffers).toBeGreaterThan(50);
  });
});

describe("simulated airline: daylight-saving switch days", () => {
  /** Days the clocks change somewhere on these routes (Europe, the US, Sydney), both ways. */
  const SWITCH_DAYS = ["2027-03-14", "2027-03-28", "2027-10-31", "2027-11-07", "2028-03-31", "2028-04-01", "2028-04-02", "2028-10-01"];
  const ROUTES = [["ORD", "SYD"], ["LAX", "SYD"], ["SYD", "LHR"], ["JFK", "LHR"], ["LHR", "JFK"], ["SYD", "ORD"], ["CDG", "ORD"]];

  it("never departs or arrives at a local time that happens twice or never: local times, UTC and duration agree", async () => {
    let segments = 0;
    for (const departureDate of SWITCH_DAYS) {
      for (const [origin, destination] of ROUTES) {
        const offers = await airline.search(toRequest({ slices: [{ origin: origin!, destination: destination!, departureDate }], passengers: ["adult"], cabinClass: "economy", maxConnections: 1 }));
        for (const segment of offers.flatMap((offer) => offer.slices.flatMap((slice) => slice.segments))) {
          segments++;
          for (const [local, utc, zone] of [
            [segment.departingAtLocal, segment.departingAtUtc, segment.origin.timeZone],
            [segment.arrivingAtLocal, segment.arrivingAtUtc, segment.destination.timeZone],
          ] as const) {
            expect(intlLocalIso(zone, utc), `${segment.flightKey} local time`).toBe(local);
            // The same wall time an hour earlier or later would mean the local time is ambiguous.
            for (const shift of [-3_600_000, 3_600_000]) {
              expect(intlLocalIso(zone, new Date(Date.parse(utc) + shift).toISOString()), `${segment.flightKey} ${local} in ${zone} happens once`).not.toBe(local);
            }
          }
          expect((Date.parse(segment.arrivingAtUtc) - Date.parse(segment.departingAtUtc)) / MINUTE_MS).toBe(segment.durationMinutes);
        }
      }
    }
    expect(segments).toBeGreaterThan(100);
  });
});
