import { z } from "zod";
import { SCHEDULE_CHANGE_KINDS } from "../orders/core/airline-change";

/** POST /v1/sandbox/orders/:id/airline_initiated_change: what the airline does to the order's first flight. */
export const simulateAirlineChangeInput = z.strictObject({
  kind: z.enum(SCHEDULE_CHANGE_KINDS),
});
