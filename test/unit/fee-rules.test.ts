import { describe, expect, it } from "vitest";
import { chooseRule, feeAmount, offerFee, percentOf, type FeeSubject } from "../../src/pricing/fee-rules";
import type { PricingRule } from "../../src/pricing/pricing-rule";

/**
 * The fee rule (docs/running-the-platform.md#fees), pure: which rule applies to an offer — a rule of
 * its tenant whatever the priority of platform-wide ones, then the highest priority, then the
 * newest — and what it adds: percent of the total and a fixed amount converted at the static rate
 * table, each rounded half up, per order or per passenger.
 */

const at = (minute: number) => new Date(Date.UTC(2027, 0, 1, 0, minute));

function rule(overrides: Partial<PricingRule> & { id: string }): PricingRule {
  return {
    tenantId: null,
    name: overrides.id,
    match: {},
    fee: { percent: "1", fixedAmount: null, fixedCurrency: null, per: "order" },
    priority: 0,
    refundable: false,
    active: true,
    createdAt: at(0),
    updatedAt: at(0),
    ...overrides,
  };
}

const subject: FeeSubject = {
  tenantId: "ten_a",
  environment: "live",
  supplier: "simulated",
  carrier: "ZA",
  origin: { airport: "LHR", city: "LON", country: "GB" },
  destination: { airport: "JFK", city: "NYC", country: "US" },
  cabinClass: "business",
  passengerFares: [40_000, 30_000, 4_000],
  currency: "USD",
};

describe("which rule applies", () => {
  it("takes a rule of the offer's tenant over any platform-wide one, whatever their priorities", () => {
    const own = rule({ id: "prr_own", tenantId: "ten_a", priority: -5 });
    const platform = rule({ id: "prr_platform", priority: 100 });
    expect(chooseRule([platform, own], subject)?.id).toBe("prr_own");
  });

  it("falls back to the platform-wide rules when none of the tenant's matches, and never uses another tenant's", () => {
    const own = rule({ id: "prr_own", tenantId: "ten_a", match: { carrier: "XX" } });
    const other = rule({ id: "prr_other", tenantId: "ten_b", priority: 50 });
    const platform = rule({ id: "prr_platform" });
    expect(chooseRule([own, other, platform], subject)?.id).toBe("prr_platform");
    expect(chooseRule([own, other], subject)).toBeNull();
  });

  it("takes the highest priority, and of equal priorities the newer rule", () => {
    const low = rule({ id: "prr_low", priority: 1, createdAt: at(9) });
    const older = rule({ id: "prr_older", priority: 5, createdAt: at(1) });
    const newer = rule({ id: "prr_newer", priority: 5, createdAt: at(2) });
    expect(chooseRule([low, newer, older], subject)?.id).toBe("prr_newer");
    expect(chooseRule([older, low, newer], subject)?.id).toBe("prr_newer");
  });

  it("passes over inactive rules", () => {
    expect(chooseRule([rule({ id: "prr_off", active: false })], subject)).toBeNull();
  });

  it("matches places by airport, city or country, the first slice's origin and the last slice's destination", () => {
    for (const origin of ["LHR", "LON", "GB"]) expect(chooseRule([rule({ id: "prr", match: { origin } })], subject), origin).not.toBeNull();
    for (const destination of ["JFK", "NYC", "US"]) expect(chooseRule([rule({ id: "prr", match: { destination } })], subject), destination).not.toBeNull();
    for (const origin of ["LGW", "PAR", "US"]) expect(chooseRule([rule({ id: "prr", match: { origin } })], subject), origin).toBeNull();
    expect(chooseRule([rule({ id: "prr", match: { destination: "GB" } })], subject)).toBeNull();
  });

  it("matches the supplier, the carrier, the cabin and the environment, each only when named", () => {
    const names = { supplier: "simulated", carrier: "ZA", cabinClass: "business", environment: "live" } as const;
    expect(chooseRule([rule({ id: "prr", match: names })], subject)).not.toBeNull();
    for (const miss of [{ supplier: "duffel" }, { carrier: "BA" }, { cabinClass: "economy" as const }, { environment: "sandbox" as const }]) {
      expect(chooseRule([rule({ id: "prr", match: { ...names, ...miss } })], subject), JSON.stringify(miss)).toBeNull();
    }
    expect(chooseRule([rule({ id: "prr", match: { carrier: "ZA" } })], { ...subject, carrier: null }), "an unknown carrier matches no carrier rule").toBeNull();
  });
});

describe("what a rule adds", () => {
  it("rounds a percent of the total half up to the minor unit", () => {
    expect(percentOf(12_345, "10")).toBe(1_235); // 1234.5 → 1235
    expect(percentOf(12_344, "10")).toBe(1_234); // 1234.4
    expect(percentOf(1, "50")).toBe(1); // 0.5 → 1
    expect(percentOf(99_999, "0.0001")).toBe(0); // 0.09999
    expect(percentOf(74_000, "100")).toBe(74_000);
    expect(percentOf(Number.MAX_SAFE_INTEGER, "100")).toBe(Number.MAX_SAFE_INTEGER);
  });

  it("adds percent and fixed amount, the fixed amount converted to the offer's currency at the static rate table", () => {
    const both = rule({ id: "prr", fee: { percent: "2.5", fixedAmount: 500, fixedCurrency: "EUR", per: "order" } });
    // 2.5 % of 740.00 = 18.50; 5.00 EUR at 0.92 per USD = 5.434… → 5.43 USD.
    expect(feeAmount(both, subject)).toBe(1_850 + 543);
    // In yen: 2.5 % of ¥111,000 = ¥2,775; 5.00 EUR = ¥815.2… → ¥815.
    expect(feeAmount(both, { passengerFares: [111_000], currency: "JPY" })).toBe(2_775 + 815);
  });

  it("per passenger: each passenger's fare priced on its own, the fixed amount once each", () => {
    const perPassenger = rule({ id: "prr", fee: { percent: "1.5", fixedAmount: 300, fixedCurrency: "USD", per: "passenger" } });
    // 600 + 450 + 60 (1.5 % of each) + 3 × 300.
    expect(feeAmount(perPassenger, subject)).toBe(600 + 450 + 60 + 900);
    const perOrder = rule({ id: "prr", fee: { ...perPassenger.fee, per: "order" } });
    expect(feeAmount(perOrder, subject)).toBe(1_110 + 300);
  });

  it("names the rule and whether it is refundable, or is null when no rule applies", () => {
    expect(offerFee([rule({ id: "prr_r", refundable: true })], subject)).toEqual({ amount: 740, ruleId: "prr_r", refundable: true });
    expect(offerFee([], subject)).toBeNull();
  });
});
