import { z } from "zod";
import { decimalAmount, timestamp } from "./envelope";

/** A cancellation quote (Variant A's order cancellation). */
export const cancellationSchema = z
  .object({
    id: z.string(),
    order_id: z.string(),
    refund_amount: decimalAmount,
    refund_currency: z.string(),
    refund_to: z.literal("balance"),
    expires_at: timestamp,
    confirmed_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: "OrderCancellation" });
