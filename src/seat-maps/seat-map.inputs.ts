import { z } from "zod";

/**
 * `GET /v1/air/seat_maps`: the seat maps of an offer or of a booked order, exactly one of the two.
 * Any text is an id: one that names nothing of the caller's is `not_found`, as on every route.
 */
export const seatMapQuery = z
  .strictObject({ offer_id: z.string().optional(), order_id: z.string().optional() })
  .refine((query) => query.offer_id !== undefined || query.order_id !== undefined, { message: "give offer_id or order_id", path: ["offer_id"] })
  .refine((query) => query.offer_id === undefined || query.order_id === undefined, { message: "give offer_id or order_id, not both", path: ["order_id"] })
  .meta({ oneOf: [{ required: ["offer_id"] }, { required: ["order_id"] }] });

export type SeatMapQuery = z.infer<typeof seatMapQuery>;
