import { z } from "zod";
import { createPricingRuleInput, parseCreatePricingRule, parseUpdatePricingRule, updatePricingRuleInput } from "../pricing/pricing-rule.inputs";
import { ok, okPage, okPageSchema, okSchema } from "./envelope";
import { listQuery, pageRequestFromQuery } from "./list-query";
import { pricingRuleSchema } from "./pricing-rule.schemas";
import { pricingRuleView } from "./pricing-rule.views";
import { restRoute } from "./route";

const tag = "Pricing rules (owner)";

/** The owner's fees on the offers tenants see (docs/running-the-platform.md#fees): tenant keys get 403. */
export const pricingRuleRoutes = [
  restRoute({
    method: "POST",
    url: "/v1/pricing_rules",
    operation: "createPricingRule",
    summary: "Make a pricing rule: the platform's fee on the offers it matches, for one tenant or every tenant",
    tag,
    status: 201,
    body: createPricingRuleInput,
    parseBody: parseCreatePricingRule,
    response: okSchema(pricingRuleSchema),
    errors: ["invalid_field_value"],
    handle: async ({ ctx, body }) => ok(pricingRuleView(await ctx.services.pricingRules.create(body, ctx.origin)), "Pricing rule created"),
  }),
  restRoute({
    method: "GET",
    url: "/v1/pricing_rules",
    operation: "pricingRules",
    summary: "List pricing rules, newest first, all or one tenant's",
    tag,
    query: listQuery.extend({ tenant_id: z.string().optional() }),
    response: okPageSchema(pricingRuleSchema),
    handle: async ({ ctx, query }) => okPage(await ctx.services.pricingRules.list(pageRequestFromQuery(query), query.tenant_id), pricingRuleView),
  }),
  restRoute({
    method: "GET",
    url: "/v1/pricing_rules/:id",
    operation: "pricingRule",
    summary: "Read a pricing rule",
    tag,
    response: okSchema(pricingRuleSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => ok(pricingRuleView(await ctx.services.pricingRules.get(params.id!))),
  }),
  restRoute({
    method: "PATCH",
    url: "/v1/pricing_rules/:id",
    operation: "updatePricingRule",
    summary: "Change a pricing rule (match and fee are replaced whole); offers already made and orders keep their fee",
    tag,
    body: updatePricingRuleInput,
    parseBody: parseUpdatePricingRule,
    response: okSchema(pricingRuleSchema),
    errors: ["not_found", "invalid_field_value"],
    handle: async ({ ctx, params, body }) => ok(pricingRuleView(await ctx.services.pricingRules.update(params.id!, body, ctx.origin)), "Pricing rule updated"),
  }),
  restRoute({
    method: "DELETE",
    url: "/v1/pricing_rules/:id",
    operation: "deletePricingRule",
    summary: "Delete a pricing rule; offers already made and orders keep their fee",
    tag,
    response: okSchema(pricingRuleSchema),
    errors: ["not_found"],
    handle: async ({ ctx, params }) => ok(pricingRuleView(await ctx.services.pricingRules.delete(params.id!, ctx.origin)), "Pricing rule deleted"),
  }),
];
