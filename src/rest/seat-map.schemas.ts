import { z } from "zod";
import { decimalAmount } from "./envelope";
import { cabinClass } from "./offer.schemas";

const seatService = z
  .object({ id: z.string().meta({ description: "ase_…: name it in an order's services to book the seat" }), passenger_id: z.string(), total_amount: decimalAmount, total_currency: z.string() })
  .meta({ id: "SeatService" });

const seatElement = z
  .object({
    type: z.literal("seat"),
    designator: z.string().meta({ examples: ["14C"] }),
    name: z.string(),
    disclosures: z.array(z.string()),
    available_services: z.array(seatService).meta({ description: "Empty when the seat is not for sale" }),
  })
  .meta({ id: "SeatElement" });

const facilityElement = z
  .object({ type: z.enum(["empty", "exit_row", "lavatory", "galley", "closet", "stairs", "bassinet"]) })
  .meta({ id: "SeatMapFacility" });

const cabin = z
  .object({
    cabin_class: cabinClass,
    deck: z.int().meta({ description: "0 the main deck, 1 the upper deck" }),
    aisles: z.int(),
    wings: z.object({ first_row_index: z.int(), last_row_index: z.int() }).nullable().meta({ description: "Indexes into rows" }),
    rows: z.array(z.object({ sections: z.array(z.object({ elements: z.array(z.union([seatElement, facilityElement])) })) })),
  })
  .meta({ id: "SeatMapCabin" });

/** One segment's seat map (Variant A's shape, docs/rest-api.md#seat-maps). */
export const seatMapSchema = z.object({ id: z.string(), segment_id: z.string(), slice_id: z.string(), cabins: z.array(cabin) }).meta({ id: "SeatMap" });
