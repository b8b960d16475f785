import { tenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { formatMinor } from "../money/format";
import type { OrderCancellation } from "../orders/cancellation/cancellation";
import { pageRequestFromArgs, toConnection } from "./connection";
import { idempotentMutation } from "./idempotent-mutation";
import { loadersFor } from "./loaders";
import { nullIfNotFound } from "./null-if-not-found";
import type { RequestContext } from "../context/request-context";

/** A cancellation mutation under its optional idempotencyKey; a repeat returns the quote as it is now. */
function cancellationMutation(ctx: RequestContext, field: string, args: Record<string, unknown> & { idempotencyKey?: string | null }, run: () => Promise<OrderCancellation>) {
  return idempotentMutation(ctx, { field, args, required: false, run, idOf: (quote) => quote.id, load: (id) => ctx.services.cancellations.get(tenantScope(ctx), id) });
}

/** Cancellation quotes (docs/rest-api.md#cancellations-with-a-quote, docs/graphql.md#cancellations-and-refunds): thin over CancellationService. */
export const cancellationResolvers: Resolvers = {
  Query: {
    orderCancellation: (_parent, { id }, ctx) => nullIfNotFound(ctx.services.cancellations.get(tenantScope(ctx), id)),
    orderCancellations: async (_parent, args, ctx) =>
      toConnection(await ctx.services.cancellations.list(tenantScope(ctx), args.orderId ?? undefined, pageRequestFromArgs(args))),
    airlineCredits: async (_parent, args, ctx) => toConnection(await ctx.services.airlineCredits.list(tenantScope(ctx), pageRequestFromArgs(args))),
  },
  AirlineCredit: {
    amount: (credit) => (credit.amount === null || credit.currency === null ? null : formatMinor(credit.amount, credit.currency)),
  },
  Mutation: {
    quoteOrderCancellation: (_parent, args, ctx) => cancellationMutation(ctx, "quoteOrderCancellation", args, () => ctx.services.cancellations.quote(tenantScope(ctx), args.orderId)),
    confirmOrderCancellation: (_parent, args, ctx) => cancellationMutation(ctx, "confirmOrderCancellation", args, () => ctx.services.cancellations.confirm(tenantScope(ctx), args.id)),
  },
  OrderCancellation: {
    order: async (quote, _args, ctx) => (await loadersFor(ctx).order.load(quote.orderId))!,
    refundAmount: (quote) => formatMinor(quote.refundAmount, quote.currency),
    refundCurrency: (quote) => quote.currency,
    refundTo: () => "BALANCE",
  },
};
