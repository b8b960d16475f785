import { z } from "zod";
import { decimalAmount, timestamp } from "./envelope";
import { ledgerEntrySchema } from "./wallet.schemas";

/** A month of the wallet: `closing_balance` is `opening_balance` plus the lines' amounts, exactly. */
export const statementSchema = z
  .object({
    month: z.string().meta({ examples: ["2027-01"] }),
    time_zone: z.string().meta({ description: "The tenant's, which decides where the month starts and ends" }),
    from: timestamp,
    to: timestamp,
    currency: z.string(),
    opening_balance: decimalAmount,
    closing_balance: decimalAmount,
    totals: z.record(z.string(), decimalAmount).meta({ description: "The sum of the lines' amounts per entry type" }),
    lines: z.array(
      z.object({
        id: z.string().meta({ description: "The wallet transaction's id (wtx_…)" }),
        created_at: timestamp,
        type: ledgerEntrySchema.shape.type,
        amount: decimalAmount,
        fee_amount: decimalAmount,
        order_id: z.string().nullable(),
        booking_reference: z.string().nullable(),
        reference: z.string().nullable(),
        balance_after: decimalAmount,
      }),
    ),
  })
  .meta({ id: "Statement" });
