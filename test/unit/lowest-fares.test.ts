import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { airportIndex } from "../../src/locations/airport-index";
import { SimulatedTimetable } from "../../src/connectors/simulated/timetable/simulated-timetable";
import { CABIN_CLASSES, type PassengerType } from "../../src/gateway/contract/air";
import { type SupplierSearch } from "../../src/gateway/contract/offers";

/**
 * The simulated airline's lowest fares (the fare calendar's and destination ideas' source) are
 * exactly its search's cheapest offers, in the same order, for one-way and round trips, with and
 * without connections (nonstop ones are priced without working out the flights' times). Dates
 * count from today, so any day of any year.
 */

const index = airportIndex();
const airline = new SimulatedTimetable({ airportByIata: (code) => index.getByIata(code) });
const DAY_MS = 86_400_000;
const daysAhead = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

const CODES = ["LHR", "LGW", "MAN", "CDG", "FRA", "AMS", "MAD", "IST", "DXB", "SIN", "HND", "LAX", "ORD", "JFK", "YYZ", "GRU", "LON", "NYC", "PAR"];
const CITY: Record<string, string> = { LHR: "LON", LGW: "LON", JFK: "NYC", CDG: "PAR" };
const cityOf = (code: string) => CITY[code] ?? code;

const searchArbitrary = fc
  .record({
    route: fc.tuple(fc.constantFrom(...CODES), fc.constantFrom(...CODES)).filter(([a, b]) => cityOf(a) !== cityOf(b)),
    days: fc.integer({ min: 2, max: 340 }),
    stay: fc.option(fc.integer({ min: 0, max: 14 }), { nil: undefined }),
    passengers: fc.array(fc.constantFrom<PassengerType>("adult", "adult", "child", "infant_without_seat"), { minLength: 1, maxLength: 6 }),
    cabinClass: fc.constantFrom(...CABIN_CLASSES),
    maxConnections: fc.integer({ min: 0, max: 2 }),
  })
  .map(({ route: [origin, destination], days, stay, passengers, cabinClass, maxConnections }): SupplierSearch => ({
    slices: [
      { origins: index.airportsForCode(origin), destinations: index.airportsForCode(destination), departureDate: daysAhead(days) },
      ...(stay === undefined ? [] : [{ origins: index.airportsForCode(destination), destinations: index.airportsForCode(origin), departureDate: daysAhead(days + stay) }]),
    ],
    passengers: passengers.map((type, i) => ({ id: `p${i}`, type })),
    cabinClass,
    maxConnections,
    tenantId: "ten_test",
    environment: "sandbox",
  }));

describe("simulated airline: lowest fares", () => {
  it("are the search's three cheapest offers: the same fares per passenger and the same flights, in order", async () => {
    let withOffers = 0;
    await fc.assert(
      fc.asyncProperty(searchArbitrary, async (search) => {
        const offers = await airline.search(search);
        const fares = await airline.lowestFares(search, 3);
        if (offers.length > 0) withOffers++;
        expect(fares).toEqual(
          offers.slice(0, 3).map((offer) => ({
            passengerFares: offer.passengers.map((passenger) => passenger.fareAmount),
            flights: offer.slices.flatMap((slice) => slice.segments.map((segment) => ({ flightKey: segment.flightKey, cabinClass: segment.cabinClass, seatsForSale: segment.seatsLeft }))),
            // What the platform's fees match on, as the offer shows it.
            route: { owner: offer.owner.iataCode, origin: offer.slices[0]!.origin.iataCode, destination: offer.slices.at(-1)!.destination.iataCode },
          })),
        );
      }),
      { numRuns: 150 },
    );
    expect(withOffers).toBeGreaterThan(50);
  });

  it("names nonstop destinations only: each one has a nonstop offer from the origin", async () => {
    const origins = index.airportsForCode("LON");
    const destinations = airline.destinationsFrom(origins, index.airports);
    expect(destinations.length).toBeGreaterThan(50);
    for (const destination of fc.sample(fc.constantFrom(...destinations), { numRuns: 10, seed: 27 })) {
      const week = await Promise.all(
        Array.from({ length: 7 }, (_, day) =>
          airline.lowestFares({ slices: [{ origins, destinations: [destination], departureDate: daysAhead(30 + day) }], passengers: [{ id: "p1", type: "adult" }], cabinClass: "economy", maxConnections: 0 }, 1),
        ),
      );
      expect(week.flat().length, destination.iataCode).toBeGreaterThan(0);
    }
  });
});
