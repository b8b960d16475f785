import { z } from "zod";

const id = z.string().min(1, "must not be empty").max(64, "is too long");

/** `GET /v1/air/seat_maps`: the seat maps of an offer or of a booked order, exactly one of the two. */
export const seatMapQuery = z
  .strictObject({ offer_id: id.optional(), order_id: id.optional() })
  .refine((query) => query.offer_id !== undefined || query.order_id !== undefined, { message: "give offer_id or order_id", path: ["offer_id"] })
  .refine((query) => query.offer_id === undefined || query.order_id === undefined, { message: "give offer_id or order_id, not both", path: ["order_id"] });

export type SeatMapQuery = z.infer<typeof seatMapQuery>;
