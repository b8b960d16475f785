import { z } from "zod";

/** POST /v1/sandbox/clock/advance: to an instant, or by a number of seconds; one of the two. */
export const advanceSandboxClockInput = z
  .strictObject({
    to: z.iso.datetime({ offset: true }).optional().meta({ description: "Move the clock to this instant (ISO 8601 with an offset); it must not be before the clock's now" }),
    seconds: z.number().int().optional().meta({ description: "Move the clock this many seconds ahead (at least 1)" }),
  })
  .refine((body) => (body.to === undefined) !== (body.seconds === undefined), { message: "send either to or seconds, not both" });

export type AdvanceSandboxClockBody = z.output<typeof advanceSandboxClockInput>;

/** Where a tenant asks its clock to go: to an instant, or ahead by some seconds. */
export type ClockAdvance = { to: Date } | { seconds: number };

export function fromAdvanceSandboxClockInput(body: AdvanceSandboxClockBody): ClockAdvance {
  return body.to !== undefined ? { to: new Date(body.to) } : { seconds: body.seconds! };
}
