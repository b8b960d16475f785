import { tenantScope, type RequestContext } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { advanceSandboxClockInput, fromAdvanceSandboxClockInput } from "../sandbox-clock/sandbox-clock.inputs";
import type { SandboxClock } from "../sandbox-clock/sandbox-clock.service";
import { parseInput } from "../validation/parse-input";
import { idempotentMutation } from "./idempotent-mutation";

/** A clock mutation under its optional idempotencyKey: a repeat answers the clock as it is now. */
function clockMutation(ctx: RequestContext, field: string, args: Record<string, unknown>, run: () => Promise<SandboxClock>): Promise<SandboxClock> {
  return idempotentMutation(ctx, { field, args, required: false, run, idOf: () => "clock", load: () => ctx.services.sandboxClock.read(tenantScope(ctx)) });
}

/** A sandbox tenant's own clock (docs/sandbox-clock.md). */
export const sandboxClockResolvers: Resolvers = {
  Query: {
    sandboxClock: (_parent, _args, ctx) => ctx.services.sandboxClock.read(tenantScope(ctx)),
  },
  Mutation: {
    advanceSandboxClock: (_parent, args, ctx) =>
      clockMutation(ctx, "advanceSandboxClock", args, () => {
        const body = parseInput(advanceSandboxClockInput, { to: args.input.to?.toISOString() ?? undefined, seconds: args.input.seconds ?? undefined });
        return ctx.services.sandboxClock.advance(tenantScope(ctx), fromAdvanceSandboxClockInput(body), ctx.origin);
      }),
    resetSandboxClock: (_parent, args, ctx) => clockMutation(ctx, "resetSandboxClock", args, () => ctx.services.sandboxClock.reset(tenantScope(ctx), ctx.origin)),
  },
};
