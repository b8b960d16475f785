import { z } from "zod";
import { timestamp } from "./envelope";
import { sliceA } from "./offer.schemas";

/** An airline-initiated change (Variant A's names, docs/rest-api.md#airline-initiated-changes), on its order and as the accept action answers it. */
export const airlineChangeSchema = z
  .object({
    id: z.string(),
    order_id: z.string(),
    removed: z.array(sliceA).meta({ description: "The order's slices as they were" }),
    added: z.array(sliceA).meta({ description: "The slices as the airline has them now: the flight retimed, or its replacement (empty: none proposed)" }),
    action_taken: z.enum(["accepted", "cancelled", "changed"]).nullable(),
    action_taken_at: timestamp.nullable(),
    available_actions: z.array(z.enum(["accept", "cancel", "change"])),
    created_at: timestamp,
    updated_at: timestamp,
  })
  .meta({ id: "AirlineInitiatedChange" });
