import { z } from "zod";
import { decimalAmount, timestamp } from "./envelope";

/** An airline credit: what an airline gave instead of cash when it refunded a cancelled order. */
export const airlineCreditSchema = z
  .object({
    id: z.string(),
    order_id: z.string(),
    passenger_id: z.string().nullable().meta({ description: "The order's passenger it is in the name of; null when the airline named none" }),
    airline_iata_code: z.string().nullable(),
    amount: decimalAmount.nullable().meta({ description: "null when the airline stated no amount: unknown, not zero" }),
    currency: z.string().nullable(),
    code: z.string().nullable().meta({ description: "The airline's code for the credit, quoted to use it" }),
    name: z.string().nullable(),
    expires_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: "AirlineCredit" });
