import { formatMinor } from "../money/format";
import type { PricingRule } from "./pricing-rule";

/**
 * A rule's fields by their API names, amounts as decimal strings: what its REST and GraphQL views
 * show and what its audit events say changed.
 */
export function pricingRuleFields(rule: PricingRule) {
  const { match, fee } = rule;
  return {
    tenant_id: rule.tenantId,
    name: rule.name,
    match: {
      supplier: match.supplier ?? null,
      carrier: match.carrier ?? null,
      origin: match.origin ?? null,
      destination: match.destination ?? null,
      cabin_class: match.cabinClass ?? null,
      environment: match.environment ?? null,
    },
    fee: {
      percent: fee.percent,
      fixed_amount: fee.fixedAmount === null || fee.fixedCurrency === null ? null : formatMinor(fee.fixedAmount, fee.fixedCurrency),
      fixed_currency: fee.fixedCurrency,
      per: fee.per,
    },
    priority: rule.priority,
    refundable: rule.refundable,
    active: rule.active,
  };
}
