import { describe, expect, it } from "vitest";
import type { Tenant } from "../../src/db/models";
import { airportIndex } from "../../src/locations/airport-index";
import { FareCalendarService } from "../../src/search/fare-calendar.service";
import { parseFareCalendarRequest } from "../../src/search/fare-calendar.inputs";
import type { FareSource } from "../../src/gateway/contract/gateway";
import type { FareQuote, SupplierSearch } from "../../src/gateway/contract/offers";
import { scopeOf } from "../../src/tenancy/tenant-scope";
import type { PricingRule } from "../../src/pricing/pricing-rule";

/**
 * The fare calendar's merging rules, with suppliers made up here: every supplier able to quote
 * contributes and a day shows the lowest, naming its supplier; a supplier that cannot quote
 * cheaply is not asked; a fare on a flight whose holds leave too few seats is passed over for the
 * next, as a search's sold-out offers are. Dates count from today, so any day of any year.
 */

const index = airportIndex();
const DAY_MS = 86_400_000;
const daysAhead = (days: number) => new Date(Date.now() + days * DAY_MS).toISOString().slice(0, 10);

const scope = scopeOf({ id: "ten_unit", environment: "sandbox", defaultCurrency: "USD", clockOffsetSeconds: 0 } as Tenant, { actingAsOwner: false, mayReadWallet: true });

/** A quote of `adultFare` cents per passenger on one flight with `seats` for sale. */
function quote(search: SupplierSearch, flightKey: string, adultFare: number, seats = 100): FareQuote {
  return { passengerFares: search.passengers.map(() => adultFare), flights: [{ flightKey, cabinClass: "economy", seatsForSale: seats }] };
}

/**
 * A supplier quoting `fares(date)` (cheapest first) with `held` seats held per flight key, as the
 * gateway hands it to the calendar; null for one that cannot quote cheaply (the gateway lists it
 * among no fare sources).
 */
function fakeSupplier(name: string, fares: ((search: SupplierSearch) => FareQuote[]) | null, held: Record<string, number> = {}): FareSource | null {
  if (!fares) return null;
  return {
    ref: { id: name, name },
    lowestFares: async (search) => fares(search),
    destinationsFrom: () => [],
    nonstopFaresTo: async () => [],
    sellableFares: async (groups, party) => groups.map((group) => group.find((quote) => quote.flights.every((flight) => flight.seatsForSale - (held[flight.flightKey] ?? 0) >= party.seatsNeeded)) ?? null),
  };
}

const calendar = (suppliers: Array<FareSource | null>, params: Record<string, string>, rules: PricingRule[] = []) =>
  new FareCalendarService(
    suppliers.filter((supplier) => supplier !== null),
    index,
    { rulesFor: async () => rules },
  ).calendar(scope, parseFareCalendarRequest({ origin: "LHR", destination: "JFK", ...params }));

/** A platform-wide rule of the tenant's fees. */
function feeRule(id: string, match: PricingRule["match"], fee: Partial<PricingRule["fee"]>): PricingRule {
  const at = new Date("2027-01-01T00:00:00Z");
  return { id, tenantId: null, name: id, match, fee: { percent: null, fixedAmount: null, fixedCurrency: null, per: "order", ...fee }, priority: 0, refundable: false, active: true, createdAt: at, updatedAt: at };
}

describe("fare calendar", () => {
  it("shows each day the lowest fare of every supplier able to quote, naming its supplier", async () => {
    const first = daysAhead(10);
    const airline = fakeSupplier("airline", (search) => [quote(search, `A@${search.slices[0]!.departureDate}`, search.slices[0]!.departureDate === first ? 50_000 : 40_000)]);
    const lowCost = fakeSupplier("low-cost", (search) => [quote(search, `L@${search.slices[0]!.departureDate}`, 45_000)]);
    const days = await calendar([airline, lowCost], { from: first, to: daysAhead(11), adults: "2" });
    expect(days).toEqual([
      { departureDate: first, returnDate: null, lowestTotalAmount: 90_000, currency: "USD", supplier: "low-cost" },
      { departureDate: daysAhead(11), returnDate: null, lowestTotalAmount: 80_000, currency: "USD", supplier: "airline" },
    ]);
  });

  it("shows each day's price with the fee an offer would carry, and the cheapest once fees are added", async () => {
    const first = daysAhead(10);
    const airline = fakeSupplier("airline", (search) => [quote(search, `A@${search.slices[0]!.departureDate}`, 40_000)]);
    const lowCost = fakeSupplier("low-cost", (search) => [quote(search, `L@${search.slices[0]!.departureDate}`, 45_000)]);
    // 10 % on the airline's fares: 2 × 400.00 + 80.00 = 880.00, dearer than the low-cost's 900.00 + 5.00 per passenger.
    const rules = [feeRule("prr_airline", { supplier: "airline" }, { percent: "10" }), feeRule("prr_lcc", { supplier: "low-cost" }, { fixedAmount: 500, fixedCurrency: "USD", per: "passenger" })];
    expect(await calendar([airline, lowCost], { from: first, to: first, adults: "2" }, rules)).toEqual([{ departureDate: first, returnDate: null, lowestTotalAmount: 88_000, currency: "USD", supplier: "airline" }]);
    rules[0] = feeRule("prr_airline", { supplier: "airline" }, { percent: "20" });
    expect(await calendar([airline, lowCost], { from: first, to: first, adults: "2" }, rules)).toEqual([{ departureDate: first, returnDate: null, lowestTotalAmount: 91_000, currency: "USD", supplier: "low-cost" }]);
    // A rule for another route adds nothing.
    const elsewhere = [feeRule("prr_cdg", { destination: "CDG" }, { percent: "50" })];
    expect(await calendar([airline], { from: first, to: first }, elsewhere)).toEqual([{ departureDate: first, returnDate: null, lowestTotalAmount: 40_000, currency: "USD", supplier: "airline" }]);
  });

  it("does not ask a supplier that cannot quote cheaply, and shows no day no supplier prices", async () => {
    const liveOnly = fakeSupplier("live-only", null);
    const airline = fakeSupplier("airline", (search) => (search.slices[0]!.departureDate === daysAhead(20) ? [] : [quote(search, "A", 30_000)]));
    const days = await calendar([liveOnly, airline], { from: daysAhead(20), to: daysAhead(22) });
    expect(days.map((day) => day.departureDate)).toEqual([daysAhead(21), daysAhead(22)]);
    expect(days.every((day) => day.supplier === "airline")).toBe(true);
  });

  it("passes over a fare whose flight the party no longer fits on, for the next; a day with none left has no price", async () => {
    const soldOutDay = daysAhead(31);
    const airline = fakeSupplier(
      "airline",
      (search) => {
        const date = search.slices[0]!.departureDate;
        return [quote(search, `cheap@${date}`, 20_000, 10), quote(search, `dear@${date}`, 35_000, date === soldOutDay ? 9 : 100)];
      },
      // Two adults: 8 of 10 seats held leaves 2, enough; 9 of 10 leaves 1, too few.
      { [`cheap@${daysAhead(30)}`]: 8, [`cheap@${soldOutDay}`]: 9, [`dear@${soldOutDay}`]: 8 },
    );
    const days = await calendar([airline], { from: daysAhead(30), to: soldOutDay, adults: "2" });
    expect(days).toEqual([{ departureDate: daysAhead(30), returnDate: null, lowestTotalAmount: 40_000, currency: "USD", supplier: "airline" }]);
  });

  it("asks for a round trip each day with its return stay_days later, and stops where the return is past the last date on sale", async () => {
    const returns: string[] = [];
    const airline = fakeSupplier("airline", (search) => {
      returns.push(search.slices[1]!.departureDate);
      return [quote(search, "A", 10_000)];
    });
    const days = await calendar([airline], { from: daysAhead(300), to: daysAhead(360), stay_days: "5" });
    expect(days.at(-1)!.returnDate! <= daysAhead(362)).toBe(true);
    expect(days.length).toBeLessThan(61);
    expect(days[0]).toMatchObject({ departureDate: daysAhead(300), returnDate: daysAhead(305) });
    expect(returns).toContain(daysAhead(305));
  });
});
