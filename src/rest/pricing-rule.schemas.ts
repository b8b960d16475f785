import { z } from "zod";
import { CABIN_CLASSES } from "../gateway/contract/air";
import { decimalAmount, timestamp } from "./envelope";

/** An owner's pricing rule (docs/running-the-platform.md#fees). */
export const pricingRuleSchema = z
  .object({
    id: z.string().meta({ description: "prr_…" }),
    tenant_id: z.string().nullable().meta({ description: "Null: platform-wide, for every tenant no rule of its own matches" }),
    name: z.string(),
    match: z
      .object({
        supplier: z.string().nullable(),
        carrier: z.string().nullable().meta({ description: "IATA code of the airline owning the offer" }),
        origin: z.string().nullable().meta({ description: "Airport, city or 2-letter country code of the first slice's origin" }),
        destination: z.string().nullable().meta({ description: "Airport, city or 2-letter country code of the last slice's destination" }),
        cabin_class: z.enum(CABIN_CLASSES as [string, ...string[]]).nullable().meta({ description: "The cabin the search asked for" }),
        environment: z.enum(["sandbox", "live"]).nullable(),
      })
      .meta({ description: "Each null field matches any offer" }),
    fee: z.object({
      percent: z.string().nullable().meta({ description: "Percent of the offer's total before the fee, 0 < percent ≤ 100", examples: ["2.5"] }),
      fixed_amount: decimalAmount.nullable(),
      fixed_currency: z.string().nullable(),
      per: z.enum(["order", "passenger"]).meta({ description: "order: on the offer's total, once; passenger: on each passenger's fare, the fixed amount once per passenger" }),
    }),
    priority: z.int().meta({ description: "Higher wins; ties go to the newer rule" }),
    refundable: z.boolean().meta({ description: "Whether a refund gives the fee back" }),
    active: z.boolean(),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "PricingRule" });
