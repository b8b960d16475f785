import { z } from "zod";

/** A sandbox tenant's clock (docs/sandbox-clock.md). */
export const sandboxClockSchema = z.object({
  now: z.string().meta({ description: "What the tenant's clock reads now (ISO 8601)" }),
  offset_seconds: z.number().int().meta({ description: "How far ahead of real time it runs (0: real time)" }),
});
