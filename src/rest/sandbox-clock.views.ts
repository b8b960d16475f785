import type { z } from "zod";
import type { SandboxClock } from "../sandbox-clock/sandbox-clock.service";
import type { sandboxClockSchema } from "./sandbox-clock.schemas";

export function sandboxClockView(clock: SandboxClock): z.output<typeof sandboxClockSchema> {
  return { now: clock.now.toISOString(), offset_seconds: clock.offsetSeconds };
}
