import type { PricingRule as PricingRuleRow } from "../generated/prisma-sqlite/client";
import { exactNumber, jsonFrom } from "../db/sql-values";
import type { CabinClass } from "../gateway/contract/air";

/** How a fee is worked out: once on the offer's total, or on each passenger's fare and added up. */
export type FeePer = "order" | "passenger";

/** What an offer must be for a rule to apply; an absent field matches any. */
export interface RuleMatch {
  /** The supplier's id, as `GET /v1/suppliers` lists them. */
  supplier?: string;
  /** IATA code of the airline that owns the offer (its `owner`). */
  carrier?: string;
  /** An airport, city or 2-letter country code: the offer's first slice leaves from it. */
  origin?: string;
  /** As `origin`: the offer's last slice arrives there. */
  destination?: string;
  /** The cabin the search asked for. */
  cabinClass?: CabinClass;
  environment?: "sandbox" | "live";
}

/** The fee a rule adds: a percent of the offer's total and/or a fixed amount, per order or per passenger. */
export interface FeeSpec {
  /** Canonical decimal text ("2.5"), 0 < percent ≤ 100, or null. */
  percent: string | null;
  /** Minor units of `fixedCurrency`, positive, or null. */
  fixedAmount: number | null;
  fixedCurrency: string | null;
  per: FeePer;
}

/** The owner's pricing rule (docs/running-the-platform.md#fees). */
export interface PricingRule {
  id: string;
  /** Null: platform-wide, for every tenant no rule of its own matches. */
  tenantId: string | null;
  name: string;
  match: RuleMatch;
  fee: FeeSpec;
  /** Higher wins; ties go to the newer rule. */
  priority: number;
  /** Whether a refund gives the fee back. */
  refundable: boolean;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export function pricingRuleFrom(row: PricingRuleRow): PricingRule {
  return {
    id: row.id,
    tenantId: row.tenantId,
    name: row.name,
    match: jsonFrom<RuleMatch>(row.match),
    fee: {
      percent: row.feePercent,
      fixedAmount: row.feeFixedAmount === null ? null : exactNumber(row.feeFixedAmount),
      fixedCurrency: row.feeFixedCurrency,
      per: row.feePer === "passenger" ? "passenger" : "order",
    },
    priority: row.priority,
    refundable: row.refundable,
    active: row.active,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

/** Where search, the fare calendar and destination ideas read the rules that can price a tenant's offers (pricing-rules.service.ts). */
export interface PricingRuleSource {
  /** The active rules that can apply to the tenant's offers: its own and the platform-wide ones. */
  rulesFor(tenantId: string): Promise<PricingRule[]>;
}
