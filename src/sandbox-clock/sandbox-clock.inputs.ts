import { z } from "zod";

/** The furthest a sandbox clock may run ahead of real time: ten years. */
export const MAX_OFFSET_SECONDS = 10 * 366 * 86_400;

/**
 * POST /v1/sandbox/clock/advance: to an instant, or by a number of seconds; one of the two. The
 * clock's own rules (never back, at most ten years ahead) are the service's 422, and the
 * document states them too.
 */
export const advanceSandboxClockInput = z
  .strictObject({
    to: z.iso.datetime({ offset: true }).optional().meta({ description: "Move the clock to this instant (ISO 8601 with an offset); it must not be before the clock's now" }),
    seconds: z
      .number()
      .int()
      .optional()
      .meta({ description: "Move the clock this many seconds ahead (at least 1; the clock runs at most ten years ahead of real time)", minimum: 1, maximum: MAX_OFFSET_SECONDS }),
  })
  .refine((body) => (body.to === undefined) !== (body.seconds === undefined), { message: "send either to or seconds, not both" })
  .meta({ oneOf: [{ required: ["to"] }, { required: ["seconds"] }] });

export type AdvanceSandboxClockBody = z.output<typeof advanceSandboxClockInput>;

/** Where a tenant asks its clock to go: to an instant, or ahead by some seconds. */
export type ClockAdvance = { to: Date } | { seconds: number };

export function fromAdvanceSandboxClockInput(body: AdvanceSandboxClockBody): ClockAdvance {
  return body.to !== undefined ? { to: new Date(body.to) } : { seconds: body.seconds! };
}
