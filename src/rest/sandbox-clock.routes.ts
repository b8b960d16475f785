import { tenantScope } from "../context/request-context";
import { advanceSandboxClockInput, fromAdvanceSandboxClockInput } from "../sandbox-clock/sandbox-clock.inputs";
import { ok, okSchema } from "./envelope";
import { restRoute } from "./route";
import { sandboxClockSchema } from "./sandbox-clock.schemas";
import { sandboxClockView } from "./sandbox-clock.views";

const tag = "Sandbox clock";

/** A sandbox tenant's own clock (docs/sandbox-clock.md); live tenants get 404 `route_not_found` on all three. */
export const sandboxClockRoutes = [
  restRoute({
    method: "GET",
    url: "/v1/sandbox/clock",
    operation: "sandboxClock",
    summary: "Sandbox only: the tenant's own clock",
    tag,
    response: okSchema(sandboxClockSchema),
    errors: ["route_not_found"],
    handle: async ({ ctx }) => ok(sandboxClockView(await ctx.services.sandboxClock.read(tenantScope(ctx)))),
  }),
  restRoute({
    method: "POST",
    url: "/v1/sandbox/clock/advance",
    operation: "advanceSandboxClock",
    summary: "Sandbox only: move the tenant's clock ahead (to an instant, or by seconds); answers once the work that fell due has run",
    tag,
    body: advanceSandboxClockInput,
    response: okSchema(sandboxClockSchema),
    errors: ["route_not_found", "validation_failed", "invalid_field_value"],
    handle: async ({ ctx, body }) => ok(sandboxClockView(await ctx.services.sandboxClock.advance(tenantScope(ctx), fromAdvanceSandboxClockInput(body), ctx.origin)), "Sandbox clock advanced"),
  }),
  restRoute({
    method: "POST",
    url: "/v1/sandbox/clock/reset",
    operation: "resetSandboxClock",
    summary: "Sandbox only: the tenant's clock back to real time, once it has no pending order; its searches, unconfirmed quotes and change requests are removed",
    tag,
    response: okSchema(sandboxClockSchema),
    errors: ["route_not_found", "clock_reset_refused"],
    handle: async ({ ctx }) => ok(sandboxClockView(await ctx.services.sandboxClock.reset(tenantScope(ctx), ctx.origin)), "Sandbox clock reset"),
  }),
];
