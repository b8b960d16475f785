import { z } from "zod";
import { decimalAmount, timestamp } from "./envelope";
import { cabinClass, sliceA } from "./offer.schemas";

/** A change request's slices as asked (Variant A's names). */
const requestedSlices = z
  .object({
    remove: z.array(z.object({ slice_id: z.string() })),
    add: z.array(z.object({ origin: z.string(), destination: z.string(), departure_date: z.string(), cabin_class: cabinClass })),
  })
  .meta({ id: "OrderChangeRequestSlices" });

/** The slices a change adds and those it removes, as full slices. */
const changeSlices = z.object({ add: z.array(sliceA), remove: z.array(sliceA) }).meta({ id: "OrderChangeSlices" });

/** What a change costs (Variant A's names); all amounts in the order's currency. */
const changePrice = {
  change_total_amount: decimalAmount.meta({ description: "New fare − old fare + penalty; negative when money comes back to the wallet" }),
  change_total_currency: z.string(),
  penalty_total_amount: decimalAmount.meta({ description: "The fare's change penalty, kept by the airline" }),
  penalty_total_currency: z.string(),
  new_total_amount: decimalAmount.meta({ description: "The order's total once changed" }),
  new_total_currency: z.string(),
  refund_to: z.literal("balance"),
  expires_at: timestamp,
};

export const orderChangeOfferSchema = z
  .object({ id: z.string(), order_change_request_id: z.string(), order_id: z.string(), slices: changeSlices, ...changePrice, created_at: timestamp })
  .meta({ id: "OrderChangeOffer" });

export const orderChangeRequestSchema = z
  .object({ id: z.string(), order_id: z.string(), slices: requestedSlices, order_change_offers: z.array(orderChangeOfferSchema), created_at: timestamp })
  .meta({ id: "OrderChangeRequest" });

export const orderChangeSchema = z
  .object({
    id: z.string(),
    order_id: z.string(),
    order_change_offer_id: z.string(),
    slices: changeSlices,
    ...changePrice,
    confirmed_at: timestamp.nullable(),
    created_at: timestamp,
  })
  .meta({ id: "OrderChange" });
