import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { airportIndex } from "../../src/locations/airport-index";
import { convertFromUsdMinor, USD_RATES } from "../../src/money/exchange-rates";
import { splitTotal } from "../../src/search/offer-payload";
import { priceOffer } from "../../src/search/price-offer";
import { SimulatedTimetable } from "../../src/connectors/simulated/timetable/simulated-timetable";
import type { PassengerType } from "../../src/gateway/contract/air";
import type { SupplierOffer } from "../../src/gateway/contract/offers";

/**
 * The simulated airline's fares priced into the tenant's currency keep their split: each
 * passenger's taxes converted and rounded on their own, the base what is left, so an offer's base
 * + taxes is its total exactly in every pricing currency (0, 2 and 3 decimals).
 */

const index = airportIndex();
const airline = new SimulatedTimetable({ airportByIata: (code) => index.getByIata(code) });
const CURRENCIES = Object.keys(USD_RATES);

const SEARCHES: Array<[origin: string, destination: string, cabin: "economy" | "business" | "first", passengers: PassengerType[]]> = [
  ["LHR", "CDG", "economy", ["adult", "child", "infant_without_seat"]],
  ["LHR", "JFK", "business", ["adult", "adult", "infant_without_seat"]],
  ["JFK", "LAX", "economy", ["adult", "child"]],
  ["SIN", "SYD", "first", ["adult", "infant_without_seat"]],
  ["HND", "ICN", "economy", ["child", "adult", "infant_without_seat"]],
];

/** What a stored offer must hold in `currency`: exact split, taxes within each fare and the total. */
function checkPriced(offer: SupplierOffer, currency: string): void {
  const { payload, totalAmount } = priceOffer(offer, currency);
  payload.passengers.forEach((passenger, i) => {
    expect(passenger.taxAmount).toBe(convertFromUsdMinor(offer.passengers[i]!.taxAmount, currency));
    expect(passenger.taxAmount).toBeGreaterThan(0);
    expect(passenger.taxAmount).toBeLessThan(passenger.fareAmount);
  });
  const { baseAmount, taxAmount } = splitTotal(totalAmount, payload);
  expect(baseAmount + taxAmount).toBe(totalAmount);
  expect(taxAmount).toBeGreaterThan(0);
  expect(baseAmount).toBeGreaterThan(0);
}

describe("base fare and taxes priced in the tenant's currency", () => {
  let offers: SupplierOffer[] = [];
  beforeAll(async () => {
    for (const [origin, destination, cabinClass, types] of SEARCHES) {
      const found = await airline.search({
        slices: [{ origins: index.airportsForCode(origin), destinations: index.airportsForCode(destination), departureDate: "2027-05-12" }],
        passengers: types.map((type, i) => ({ id: `pas_${i}`, type })),
        cabinClass,
        maxConnections: 1,
        tenantId: "ten_test",
        environment: "sandbox",
      });
      offers = offers.concat(found);
    }
  });

  it("splits the airline's offers exactly in every pricing currency", () => {
    expect(offers.length).toBeGreaterThan(50);
    fc.assert(
      fc.property(fc.constantFrom(...offers), fc.constantFrom(...CURRENCIES), (offer, currency) => checkPriced(offer, currency)),
      { numRuns: 1_000 },
    );
  });

  it("splits exactly at the extremes the airline allows: taxes from one cent to 60 % of fares from one dollar to a million", () => {
    const passenger = fc
      .integer({ min: 100, max: 100_000_000 })
      .chain((fareAmount) => fc.record({ fareAmount: fc.constant(fareAmount), taxAmount: fc.integer({ min: 1, max: Math.floor(fareAmount * 0.6) }) }));
    fc.assert(
      fc.property(fc.constantFrom(...offers), fc.array(passenger, { minLength: 1, maxLength: 9 }), fc.constantFrom(...CURRENCIES), (offer, fares, currency) => {
        const passengers = fares.map((fare, i) => ({ id: `pas_${i}`, type: "adult" as const, ...fare }));
        checkPriced({ ...offer, passengers, totalAmount: passengers.reduce((sum, p) => sum + p.fareAmount, 0) }, currency);
      }),
      { numRuns: 1_000 },
    );
  });
});
