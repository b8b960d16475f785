import { z } from "zod";
import { decimalAmount, timestamp } from "./envelope";

/** A payment of an order (Variant A's names). */
export const paymentSchema = z
  .object({
    id: z.string(),
    order_id: z.string(),
    type: z.literal("balance"),
    amount: decimalAmount,
    currency: z.string(),
    created_at: timestamp,
  })
  .meta({ id: "Payment" });
