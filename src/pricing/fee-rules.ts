import { convertMinor } from "../money/exchange-rates";
import type { CabinClass } from "../gateway/contract/air";
import type { PricingRule, RuleMatch } from "./pricing-rule";

/**
 * THE fee rule (docs/running-the-platform.md#fees), pure: which of the owner's rules applies to an
 * offer, and what it adds. Search (every offer), the fare calendar and destination ideas (their
 * indicative prices) all price through here.
 */

/** A place as a rule's `origin` or `destination` can name it. */
export interface PlaceCodes {
  airport: string;
  city: string;
  /** ISO 3166-1 alpha-2. */
  country: string;
}

/** An airport's codes as a rule can name them. */
export function placeCodes(airport: { iataCode: string; iataCityCode: string; iataCountryCode: string }): PlaceCodes {
  return { airport: airport.iataCode, city: airport.iataCityCode, country: airport.iataCountryCode };
}

/** What a rule is matched against and what its fee is worked out on: an offer as the tenant sees it. */
export interface FeeSubject {
  tenantId: string;
  environment: "sandbox" | "live";
  supplier: string;
  /** The IATA code of the airline owning the offer; null where it is not known (an indicative fare), which only rules naming no carrier match. */
  carrier: string | null;
  /** Where its first slice leaves from. */
  origin: PlaceCodes;
  /** Where its last slice arrives. */
  destination: PlaceCodes;
  cabinClass: CabinClass;
  /** Each passenger's fare, taxes included, in minor units of `currency`: the offer's total is their sum. */
  passengerFares: readonly number[];
  /** The offer's currency: the tenant's. */
  currency: string;
}

/** The fee an offer carries, fixed when it is searched: what it is, which rule made it, and whether a refund gives it back. */
export interface OfferFee {
  /** Minor units of the offer's currency, positive. */
  amount: number;
  ruleId: string;
  refundable: boolean;
}

/**
 * The rule that applies: the highest-priority active rule among those naming the subject's
 * tenant (whatever the priority of platform-wide ones), else among the platform-wide ones; ties
 * go to the newer rule. Null when none matches.
 */
export function chooseRule(rules: readonly PricingRule[], subject: FeeSubject): PricingRule | null {
  let own: PricingRule | null = null;
  let platform: PricingRule | null = null;
  for (const rule of rules) {
    if (!rule.active || !matches(rule.match, subject)) continue;
    if (rule.tenantId === subject.tenantId) own = preferred(own, rule);
    else if (rule.tenantId === null) platform = preferred(platform, rule);
  }
  return own ?? platform;
}

function preferred(current: PricingRule | null, candidate: PricingRule): PricingRule {
  if (!current) return candidate;
  if (candidate.priority !== current.priority) return candidate.priority > current.priority ? candidate : current;
  const newer = candidate.createdAt.getTime() - current.createdAt.getTime() || (candidate.id > current.id ? 1 : -1);
  return newer > 0 ? candidate : current;
}

/** Whether every field the match names is the subject's. */
export function matches(match: RuleMatch, subject: FeeSubject): boolean {
  return (
    (match.supplier === undefined || match.supplier === subject.supplier) &&
    (match.carrier === undefined || match.carrier === subject.carrier) &&
    (match.origin === undefined || isIn(match.origin, subject.origin)) &&
    (match.destination === undefined || isIn(match.destination, subject.destination)) &&
    (match.cabinClass === undefined || match.cabinClass === subject.cabinClass) &&
    (match.environment === undefined || match.environment === subject.environment)
  );
}

function isIn(code: string, place: PlaceCodes): boolean {
  return code.length === 2 ? place.country === code : place.airport === code || place.city === code;
}

/**
 * The fee the rule adds to the subject, in minor units of its currency: `percent` of the total
 * plus `fixed_amount` converted from its currency at the static rate table, each rounded half up
 * to the currency's minor unit. Per passenger, that is worked out on each passenger's fare (the
 * fixed amount once per passenger) and added up.
 */
export function feeAmount(rule: Pick<PricingRule, "fee">, subject: Pick<FeeSubject, "passengerFares" | "currency">): number {
  const { fee } = rule;
  const fixed = fee.fixedAmount === null || fee.fixedCurrency === null ? 0 : convertMinor(fee.fixedAmount, fee.fixedCurrency, subject.currency);
  const bases = fee.per === "passenger" ? subject.passengerFares : [subject.passengerFares.reduce((sum, fare) => sum + fare, 0)];
  return bases.reduce((sum, base) => sum + percentOf(base, fee.percent) + fixed, 0);
}

/** The fee of the rule that applies to the subject, or null when none does. */
export function offerFee(rules: readonly PricingRule[], subject: FeeSubject): OfferFee | null {
  const rule = chooseRule(rules, subject);
  if (!rule) return null;
  return { amount: feeAmount(rule, subject), ruleId: rule.id, refundable: rule.refundable };
}

/** Decimals a rule's percent may have: ten-thousandths of a percent ("2.5" is 25,000 of them). */
export const PERCENT_DECIMALS = 4;
const PERCENT_SCALE = 10n ** BigInt(PERCENT_DECIMALS);

/** `percent` (decimal text) of `amount` minor units, rounded half up; exact (integer arithmetic). */
export function percentOf(amount: number, percent: string | null): number {
  if (percent === null) return 0;
  const [whole, fraction = ""] = percent.split(".");
  const scaled = BigInt(whole!) * PERCENT_SCALE + BigInt(fraction.padEnd(PERCENT_DECIMALS, "0") || "0");
  const denominator = 100n * PERCENT_SCALE;
  return Number((2n * BigInt(amount) * scaled + denominator) / (2n * denominator));
}
