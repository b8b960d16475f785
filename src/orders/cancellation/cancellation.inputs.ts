import { z } from "zod";

/** POST /v1/air/order_cancellations (Variant A's shape): the order to quote a cancellation for. */
export const createCancellationInput = z.strictObject({
  order_id: z.string().min(1).max(64),
});
