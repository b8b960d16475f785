import type { z } from "zod";
import type { PricingRule } from "../pricing/pricing-rule";
import { pricingRuleFields } from "../pricing/pricing-rule-fields";
import type { pricingRuleSchema } from "./pricing-rule.schemas";

export function pricingRuleView(rule: PricingRule): z.output<typeof pricingRuleSchema> {
  return { id: rule.id, ...pricingRuleFields(rule), created_at: rule.createdAt.toISOString(), updated_at: rule.updatedAt.toISOString() };
}
