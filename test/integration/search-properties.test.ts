import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type TenantFixture, call, startServerWithTenant } from "../helpers/client";
import { expectChainedSlices, expectTotalIsSumOfFares, toMinor } from "../helpers/flight-checks";
import { daysAhead } from "../helpers/offers";
import type { TestServer } from "../helpers/test-server";

/**
 * Property-based, through the HTTP API: any valid search among big airports succeeds, and
 * every offer it returns is a coherent itinerary (segments chained in space and in UTC time,
 * computed from local times and Intl's offsets) whose total is the sum of its fares.
 */

const NUM_RUNS = 30;

/** Big airports, most of them hubs of the simulated carriers, on every continent. */
const AIRPORTS = [
  "LHR", "LGW", "CDG", "FRA", "MAD", "IST", "BER", "DXB", "DEL", "BOM", "NBO", "SIN",
  "HKG", "ICN", "HND", "SYD", "LAX", "JFK", "ORD", "MIA", "DFW", "YYZ", "GRU",
] as const;
const CABINS = ["economy", "premium_economy", "business", "first"] as const;

const route = fc
  .tuple(fc.constantFrom(...AIRPORTS), fc.constantFrom(...AIRPORTS))
  .filter(([origin, destination]) => origin !== destination);

/** Dates 1–60 days ahead (1, not 0: "today" at an origin east of UTC may already be tomorrow). */
const searchArbitrary = fc
  .record({
    outbound: route,
    roundTrip: fc.boolean(),
    days: fc.tuple(fc.integer({ min: 1, max: 60 }), fc.integer({ min: 1, max: 60 })).map(([a, b]) => [Math.min(a, b), Math.max(a, b)] as const),
    adults: fc.integer({ min: 1, max: 4 }),
    children: fc.integer({ min: 0, max: 4 }),
    infants: fc.integer({ min: 0, max: 4 }),
    clientIds: fc.boolean(),
    cabin: fc.constantFrom(...CABINS),
    maxConnections: fc.integer({ min: 0, max: 2 }),
  })
  .map((r) => {
    const infants = Math.min(r.infants, r.adults);
    const children = Math.min(r.children, 9 - r.adults - infants);
    const types = [...Array(r.adults).fill("adult"), ...Array(children).fill("child"), ...Array(infants).fill("infant_without_seat")] as string[];
    const [origin, destination] = r.outbound;
    const slices = [{ origin, destination, departure_date: daysAhead(r.days[0]) }];
    if (r.roundTrip) slices.push({ origin: destination, destination: origin, departure_date: daysAhead(r.days[1]) });
    return {
      slices,
      passengers: types.map((type, i) => (r.clientIds ? { type, id: `p${i}` } : { type })),
      cabin_class: r.cabin,
      max_connections: r.maxConnections,
    };
  });

describe("search properties", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => ({ server, tenant } = await startServerWithTenant()));
  afterAll(() => server.close());

  it(
    "every valid search answers 200 with chained, correctly totalled offers",
    async () => {
      let withOffers = 0;
      await fc.assert(
        fc.asyncProperty(searchArbitrary, async (search) => {
          const response = await call(server, "POST", "/v1/air/search", { key: tenant.key, body: search });
          expect(response.status, JSON.stringify(response.body).slice(0, 400)).toBe(200);
          const data = response.body.data;
          expect(data.slices).toEqual(search.slices);
          expect(data.passengers.map((p: any) => p.type)).toEqual(search.passengers.map((p) => p.type));
          const passengerIds = data.passengers.map((p: any) => p.id);
          expect(new Set(passengerIds).size).toBe(passengerIds.length);
          // Each supplier answers at most 50 offers; the gateway's answer is their merge.
          const perSupplier = new Map<string, number>();
          for (const offer of data.offers) perSupplier.set(offer.supplier.id, (perSupplier.get(offer.supplier.id) ?? 0) + 1);
          for (const count of perSupplier.values()) expect(count).toBeLessThanOrEqual(50);
          if (data.offers.length > 0) withOffers++;

          for (const offer of data.offers) {
            expect(offer.slices).toHaveLength(search.slices.length);
            offer.slices.forEach((slice: any, i: number) => {
              expect([slice.origin.iata_code, slice.destination.iata_code, slice.departure_date]).toEqual([
                search.slices[i]!.origin,
                search.slices[i]!.destination,
                search.slices[i]!.departure_date,
              ]);
              expect(slice.segments[0].departing_at.slice(0, 10), "departs on the searched local date").toBe(slice.departure_date);
              expect(slice.segments.length).toBeLessThanOrEqual(search.max_connections + 1);
              for (const segment of slice.segments) {
                for (const passenger of segment.passengers) expect(CABINS.indexOf(passenger.cabin_class)).toBeLessThanOrEqual(CABINS.indexOf(search.cabin_class));
              }
            });
            expectChainedSlices(offer);

            expect(offer.total_currency).toBe("USD");
            expect(offer.passengers.map((p: any) => p.id)).toEqual(passengerIds);
            expectTotalIsSumOfFares(offer);
            const adultFare = toMinor(offer.passengers[0].fare_amount, "USD");
            for (const passenger of offer.passengers) {
              const share = { adult: 100, child: 75, infant_without_seat: 10 }[passenger.type as "adult"];
              expect(Math.abs(toMinor(passenger.fare_amount, "USD") * 100 - adultFare * share)).toBeLessThanOrEqual(100);
            }
          }
        }),
        { numRuns: NUM_RUNS },
      );
      // The generator is not degenerate: most searches among these airports find flights.
      expect(withOffers).toBeGreaterThan(NUM_RUNS / 3);
    },
    120_000,
  );
});
