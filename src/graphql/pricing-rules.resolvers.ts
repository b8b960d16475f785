import type { PricingRuleFeeInput, PricingRuleMatchInput, Resolvers } from "../generated/graphql";
import { parseCreatePricingRule, parseUpdatePricingRule } from "../pricing/pricing-rule.inputs";
import { pricingRuleFields } from "../pricing/pricing-rule-fields";
import { nullIfNotFound } from "./null-if-not-found";
import { pageRequestFromArgs, toConnection } from "./connection";
import { fromGraphQLEnum, toGraphQLEnum } from "./enum-case";
import { withoutNulls } from "./tenants.resolvers";

/** The owner's pricing rules (docs/running-the-platform.md#fees), the twins of /v1/pricing_rules. */
export const pricingRuleResolvers: Resolvers = {
  Query: {
    pricingRules: async (_parent, { tenantId, ...args }, ctx) => toConnection(await ctx.services.pricingRules.list(pageRequestFromArgs(args), tenantId ?? undefined)),
    pricingRule: (_parent, { id }, ctx) => nullIfNotFound(ctx.services.pricingRules.get(id)),
  },
  Mutation: {
    createPricingRule: (_parent, { input }, ctx) => {
      const { tenantId, match, fee, ...rest } = withoutNulls(input);
      return ctx.services.pricingRules.create(parseCreatePricingRule({ ...rest, tenant_id: tenantId, match: match && matchBody(match), fee: feeBody(fee) }), ctx.origin);
    },
    updatePricingRule: (_parent, { id, input }, ctx) => {
      const { match, fee, ...rest } = withoutNulls(input);
      return ctx.services.pricingRules.update(id, parseUpdatePricingRule({ ...rest, match: match && matchBody(match), fee: fee && feeBody(fee) }), ctx.origin);
    },
    deletePricingRule: (_parent, { id }, ctx) => ctx.services.pricingRules.delete(id, ctx.origin),
  },
  PricingRule: {
    match: (rule) => {
      const { match } = rule;
      return {
        supplier: match.supplier ?? null,
        carrier: match.carrier ?? null,
        origin: match.origin ?? null,
        destination: match.destination ?? null,
        cabinClass: match.cabinClass ? toGraphQLEnum(match.cabinClass) : null,
        environment: match.environment ? toGraphQLEnum(match.environment) : null,
      };
    },
    fee: (rule) => {
      const { fee } = pricingRuleFields(rule);
      return { percent: fee.percent, fixedAmount: fee.fixed_amount, fixedCurrency: fee.fixed_currency, per: toGraphQLEnum(fee.per) };
    },
  },
};

/** The input's match in the rule input's own names. */
function matchBody(match: PricingRuleMatchInput) {
  const { cabinClass, environment, ...codes } = withoutNulls(match);
  return { ...codes, cabin_class: cabinClass && fromGraphQLEnum(cabinClass), environment: environment && fromGraphQLEnum(environment) };
}

function feeBody(fee: PricingRuleFeeInput) {
  const { fixedAmount, fixedCurrency, per, percent } = withoutNulls(fee);
  return { percent, fixed_amount: fixedAmount, fixed_currency: fixedCurrency, per: per && fromGraphQLEnum(per) };
}
