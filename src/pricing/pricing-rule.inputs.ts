import { z } from "zod";
import { appError } from "../errors/app-error";
import { amountInCurrencyStatement } from "../money/amount-statement";
import { USD_RATES, isPricingCurrency } from "../money/exchange-rates";
import { parseMinor } from "../money/format";
import { CABIN_CLASSES } from "../gateway/contract/air";
import { jsonBodyProblem } from "../validation/json-body-problem";
import { parseInput } from "../validation/parse-input";
import { shownText } from "../validation/shown-text";
import { PERCENT_DECIMALS } from "./fee-rules";
import type { FeeSpec, PricingRule, RuleMatch } from "./pricing-rule";

/**
 * The pricing rules' input (POST and PATCH /v1/pricing_rules, their GraphQL twins): every invalid
 * field, wrong types included, is 422 `invalid_field_value` naming it, and nothing is stored.
 * What needs the platform's own lists (a supplier, an airport, a tenant) is checked by the service.
 */

const code = (pattern: RegExp, example: string) => z.string().regex(pattern, `must be ${example}`);

const matchInput = z.strictObject({
  supplier: z.string().min(1).max(64).optional(),
  carrier: code(/^[A-Z0-9]{2}$/, "an airline's 2-character IATA code, e.g. BA").optional(),
  origin: code(/^[A-Z]{2,3}$/, "an airport or city IATA code (LHR, LON) or a 2-letter country code (GB)").optional(),
  destination: code(/^[A-Z]{2,3}$/, "an airport or city IATA code (JFK, NYC) or a 2-letter country code (US)").optional(),
  cabin_class: z.enum(CABIN_CLASSES as [string, ...string[]]).optional(),
  environment: z.enum(["sandbox", "live"]).optional(),
});

const percentText = new RegExp(`^\\d{1,3}(\\.\\d{1,${PERCENT_DECIMALS}})?$`);

/** The same text, more than 0 and at most 100, as /openapi.json states it: 100, 1–99.x, or 0.x with a digit that is not 0. */
const percentInRange = (() => {
  const decimals = `(\\.\\d{1,${PERCENT_DECIMALS}})?`;
  const belowOne = Array.from({ length: PERCENT_DECIMALS }, (_, zeros) => `0{${zeros}}[1-9]\\d{0,${PERCENT_DECIMALS - 1 - zeros}}`).join("|");
  return `^(?:100(\\.0{1,${PERCENT_DECIMALS}})?|(?:0{0,2}[1-9]|0?[1-9]\\d)${decimals}|0{1,3}\\.(?:${belowOne}))$`;
})();

const feeInput = z
  .strictObject({
    percent: z
      .string()
      .regex(percentText, `must be a decimal string with at most ${PERCENT_DECIMALS} decimals, e.g. "2.5"`)
      .refine((text) => Number(text) > 0 && Number(text) <= 100, "must be more than 0 and at most 100")
      .meta({ pattern: percentInRange })
      .optional(),
    fixed_amount: z.string().optional(),
    fixed_currency: z.string().refine(isPricingCurrency, "must be a currency of the rate table, e.g. USD").meta({ enum: Object.keys(USD_RATES) }).optional(),
    per: z.enum(["order", "passenger"]).optional(),
  })
  .superRefine((fee, context) => {
    if (fee.percent === undefined && fee.fixed_amount === undefined) context.addIssue({ code: "custom", message: "give percent, fixed_amount or both" });
    if (fee.fixed_amount !== undefined && fee.fixed_currency === undefined) context.addIssue({ code: "custom", path: ["fixed_currency"], message: "is needed with fixed_amount" });
    if (fee.fixed_amount === undefined && fee.fixed_currency !== undefined) context.addIssue({ code: "custom", path: ["fixed_amount"], message: "is needed with fixed_currency" });
    if (fee.fixed_amount !== undefined && fee.fixed_currency !== undefined && isPricingCurrency(fee.fixed_currency)) {
      const minor = parseMinor(fee.fixed_amount, fee.fixed_currency);
      if (minor === null || minor === 0) context.addIssue({ code: "custom", path: ["fixed_amount"], message: `must be a positive decimal string in ${fee.fixed_currency}, e.g. "5.00"` });
    }
  })
  .meta({
    anyOf: [{ required: ["percent"] }, { required: ["fixed_amount", "fixed_currency"] }],
    dependentRequired: { fixed_amount: ["fixed_currency"], fixed_currency: ["fixed_amount"] },
    ...amountInCurrencyStatement("fixed_amount", "fixed_currency", { positive: true }),
  });

const ruleName = shownText({ min: 1, max: 100 });
const priority = z.int().min(-1_000_000).max(1_000_000);

/** POST /v1/pricing_rules: a rule as asked for, in the domain's terms. */
export const createPricingRuleInput = z
  .strictObject({
    tenant_id: z.string().min(1).max(64).nullable().optional(),
    name: ruleName,
    match: matchInput.optional(),
    fee: feeInput,
    priority: priority.optional(),
    refundable: z.boolean().optional(),
    active: z.boolean().optional(),
  })
  .transform(
    (input): PricingRuleDraft => ({
      tenantId: input.tenant_id ?? null,
      name: input.name,
      match: matchFrom(input.match ?? {}),
      fee: feeFrom(input.fee),
      priority: input.priority ?? 0,
      refundable: input.refundable ?? false,
      active: input.active ?? true,
    }),
  );

/** PATCH /v1/pricing_rules/:id: `match` and `fee`, when given, replace the rule's whole. */
export const updatePricingRuleInput = z
  .strictObject({
    name: ruleName.optional(),
    match: matchInput.optional(),
    fee: feeInput.optional(),
    priority: priority.optional(),
    refundable: z.boolean().optional(),
    active: z.boolean().optional(),
  })
  .refine((input) => Object.keys(input).length > 0, { message: "send at least one of name, match, fee, priority, refundable, active" })
  .meta({ minProperties: 1 })
  .transform(
    (input): PricingRulePatch => ({
      ...(input.name !== undefined && { name: input.name }),
      ...(input.match !== undefined && { match: matchFrom(input.match) }),
      ...(input.fee !== undefined && { fee: feeFrom(input.fee) }),
      ...(input.priority !== undefined && { priority: input.priority }),
      ...(input.refundable !== undefined && { refundable: input.refundable }),
      ...(input.active !== undefined && { active: input.active }),
    }),
  );

/** A rule as asked for, in the domain's terms (the match and fee whole). */
export type PricingRuleDraft = Omit<PricingRule, "id" | "createdAt" | "updatedAt">;

export type PricingRulePatch = Partial<Omit<PricingRuleDraft, "tenantId">>;

export function parseCreatePricingRule(body: unknown): PricingRuleDraft {
  return parseInput(createPricingRuleInput, checkedBody(body), "invalid_field_value");
}

/** A patch; `tenant_id` cannot change (422 naming it). */
export function parseUpdatePricingRule(body: unknown): PricingRulePatch {
  if (typeof body === "object" && body !== null && Object.hasOwn(body, "tenant_id")) {
    throw appError("invalid_field_value", { field: "tenant_id", message: "tenant_id: cannot be changed; make a new rule" });
  }
  return parseInput(updatePricingRuleInput, checkedBody(body), "invalid_field_value");
}

/** Text with U+0000 or nesting past the body rules is a field's invalid value here too. */
function checkedBody(body: unknown): unknown {
  const problem = jsonBodyProblem(body, true);
  if (problem !== null) throw appError("invalid_field_value", { field: problem.field, message: `${problem.field}: ${problem.reason}` });
  return body;
}

function matchFrom(match: z.output<typeof matchInput>): RuleMatch {
  return {
    ...(match.supplier !== undefined && { supplier: match.supplier }),
    ...(match.carrier !== undefined && { carrier: match.carrier }),
    ...(match.origin !== undefined && { origin: match.origin }),
    ...(match.destination !== undefined && { destination: match.destination }),
    ...(match.cabin_class !== undefined && { cabinClass: match.cabin_class as RuleMatch["cabinClass"] }),
    ...(match.environment !== undefined && { environment: match.environment }),
  };
}

function feeFrom(fee: z.output<typeof feeInput>): FeeSpec {
  return {
    percent: fee.percent === undefined ? null : canonicalDecimal(fee.percent),
    fixedAmount: fee.fixed_amount === undefined ? null : parseMinor(fee.fixed_amount, fee.fixed_currency!)!,
    fixedCurrency: fee.fixed_amount === undefined ? null : fee.fixed_currency!,
    per: fee.per ?? "order",
  };
}

/** "02.50" → "2.5", "10.0" → "10". */
function canonicalDecimal(text: string): string {
  const [whole, fraction = ""] = text.split(".");
  const trimmed = fraction.replace(/0+$/, "");
  return `${BigInt(whole!)}${trimmed ? `.${trimmed}` : ""}`;
}
