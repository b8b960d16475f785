import { tenantScope, type RequestContext } from "../context/request-context";
import { availableActions, type AirlineInitiatedChange } from "../orders/core/airline-change";
import type { Resolvers } from "../generated/graphql";
import { fromGraphQLEnum, toGraphQLEnum } from "./enum-case";
import { idempotentMutation } from "./idempotent-mutation";
import { loadersFor } from "./loaders";

/** A mutation under its optional idempotencyKey; a repeat returns the change as it is now. */
function airlineChangeMutation(ctx: RequestContext, field: string, args: Record<string, unknown> & { idempotencyKey?: string | null }, run: () => Promise<AirlineInitiatedChange>) {
  return idempotentMutation(ctx, { field, args, required: false, run, idOf: (change) => change.id, load: (id) => ctx.services.airlineChanges.get(tenantScope(ctx), id) });
}

/** Airline-initiated changes (docs/rest-api.md#airline-initiated-changes, docs/graphql.md#airline-initiated-changes-and-history): thin over AirlineChangeService. */
export const airlineChangeResolvers: Resolvers = {
  Mutation: {
    acceptAirlineInitiatedChange: (_parent, args, ctx) =>
      airlineChangeMutation(ctx, "acceptAirlineInitiatedChange", args, () => ctx.services.airlineChanges.accept(tenantScope(ctx), args.id)),
    simulateAirlineInitiatedChange: (_parent, args, ctx) =>
      airlineChangeMutation(ctx, "simulateAirlineInitiatedChange", args, () => ctx.services.airlineChanges.simulate(tenantScope(ctx), args.orderId, fromGraphQLEnum(args.kind))),
  },
  AirlineInitiatedChange: {
    order: async (change, _args, ctx) => (await loadersFor(ctx).order.load(change.orderId))!,
    removed: (change) => change.removed.slices.map((slice) => ({ slice, offer: { payload: change.removed } })),
    added: (change) => change.added.slices.map((slice) => ({ slice, offer: { payload: change.added } })),
    actionTaken: (change) => (change.actionTaken === null ? null : toGraphQLEnum(change.actionTaken)),
    actionTakenAt: (change) => (change.actionTaken === null ? null : change.updatedAt),
    availableActions: (change) => availableActions(change).map(toGraphQLEnum),
  },
};
