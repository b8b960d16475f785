import { tenantScope, type RequestContext } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { formatMinor } from "../money/format";
import type { OrderChange, OrderChangeOffer } from "../order-changes/order-change";
import { changeRequestInput, confirmChangeInput, fromChangeRequestInput, fromConfirmChangeInput } from "../order-changes/order-change.inputs";
import { parseInput } from "../validation/parse-input";
import { fromGraphQLEnum, toGraphQLEnum } from "./enum-case";
import { inGraphQLFieldNames } from "./field-names";
import { idempotentMutation } from "./idempotent-mutation";
import { nullIfNotFound } from "./null-if-not-found";

/** The REST names the change rules report, as the GraphQL arguments spell them. */
const CHANGE_FIELD_NAMES: Readonly<Record<string, string>> = {
  order_id: "orderId",
  slice_id: "sliceId",
  departure_date: "departureDate",
  cabin_class: "cabinClass",
  selected_order_change_offer: "selectedOrderChangeOffer",
};

/** What a change adds and removes and what it costs, as an offer and a change both show it. */
const changeFields = {
  slices: (offer: OrderChangeOffer) => ({
    add: offer.added.slices.map((slice) => ({ slice, offer: { payload: offer.added } })),
    remove: offer.removed.slices.map((slice) => ({ slice, offer: { payload: offer.removed } })),
  }),
  changeTotalAmount: (offer: OrderChangeOffer) => formatMinor(offer.changeTotalAmount, offer.currency),
  changeTotalCurrency: (offer: OrderChangeOffer) => offer.currency,
  penaltyTotalAmount: (offer: OrderChangeOffer) => formatMinor(offer.penaltyAmount, offer.currency),
  penaltyTotalCurrency: (offer: OrderChangeOffer) => offer.currency,
  newTotalAmount: (offer: OrderChangeOffer) => formatMinor(offer.newTotalAmount, offer.currency),
  newTotalCurrency: (offer: OrderChangeOffer) => offer.currency,
  refundTo: () => "balance",
};

/** A change mutation under its optional idempotencyKey; a repeat returns the change as it is now. */
function changeMutation(ctx: RequestContext, field: string, args: Record<string, unknown> & { idempotencyKey?: string | null }, run: () => Promise<OrderChange>) {
  return idempotentMutation(ctx, {
    field,
    args,
    required: false,
    run: () => inGraphQLFieldNames(CHANGE_FIELD_NAMES, run),
    idOf: (change) => change.id,
    load: (id) => ctx.services.orderChangeConfirmations.get(tenantScope(ctx), id),
  });
}

export const orderChangeResolvers: Resolvers = {
  Query: {
    orderChangeRequest: (_parent, { id }, ctx) => nullIfNotFound(ctx.services.orderChangeRequests.get(tenantScope(ctx), id)),
    orderChangeOffer: (_parent, { id }, ctx) => nullIfNotFound(ctx.services.orderChangeRequests.offer(tenantScope(ctx), id)),
    orderChange: (_parent, { id }, ctx) => nullIfNotFound(ctx.services.orderChangeConfirmations.get(tenantScope(ctx), id)),
  },
  Mutation: {
    requestOrderChange: (_parent, args, ctx) =>
      idempotentMutation(ctx, {
        field: "requestOrderChange",
        args,
        required: false,
        run: () =>
          inGraphQLFieldNames(CHANGE_FIELD_NAMES, () => {
            const { orderId, slices } = args.input;
            const body = {
              order_id: orderId,
              slices: {
                remove: slices.remove.map((slice) => ({ slice_id: slice.sliceId })),
                add: slices.add.map((slice) => ({ origin: slice.origin, destination: slice.destination, departure_date: slice.departureDate, cabin_class: fromGraphQLEnum(slice.cabinClass) })),
              },
            };
            return ctx.services.orderChangeRequests.request(tenantScope(ctx), fromChangeRequestInput(parseInput(changeRequestInput, body)));
          }),
        idOf: (request) => request.id,
        load: (id) => ctx.services.orderChangeRequests.get(tenantScope(ctx), id),
      }),
    createOrderChange: (_parent, args, ctx) =>
      changeMutation(ctx, "createOrderChange", args, () => ctx.services.orderChangeConfirmations.create(tenantScope(ctx), args.selectedOrderChangeOffer)),
    confirmOrderChange: (_parent, args, ctx) =>
      changeMutation(ctx, "confirmOrderChange", args, () => {
        const { payment } = args;
        const body = payment == null ? {} : { payment: { type: fromGraphQLEnum(payment.type), currency: payment.currency, amount: payment.amount } };
        return ctx.services.orderChangeConfirmations.confirm(tenantScope(ctx), args.id, fromConfirmChangeInput(parseInput(confirmChangeInput, body)));
      }),
  },
  OrderChangeRequest: {
    order: (request, _args, ctx) => ctx.services.orders.get(tenantScope(ctx), request.orderId),
    slices: (request) => ({
      remove: request.slices.remove,
      add: request.slices.add.map((slice) => ({ ...slice, cabinClass: toGraphQLEnum(slice.cabinClass) })),
    }),
    orderChangeOffers: (request) => request.offers,
  },
  OrderChangeOffer: {
    orderChangeRequestId: (offer) => offer.changeRequestId,
    ...changeFields,
    expired: (offer, _args, ctx) => offer.expiresAt.getTime() <= tenantScope(ctx).clock.nowMs(),
  },
  OrderChange: {
    order: (change, _args, ctx) => ctx.services.orders.get(tenantScope(ctx), change.orderId),
    orderChangeOfferId: (change) => change.offer.id,
    slices: (change) => changeFields.slices(change.offer),
    changeTotalAmount: (change) => changeFields.changeTotalAmount(change.offer),
    changeTotalCurrency: (change) => change.offer.currency,
    penaltyTotalAmount: (change) => changeFields.penaltyTotalAmount(change.offer),
    penaltyTotalCurrency: (change) => change.offer.currency,
    newTotalAmount: (change) => changeFields.newTotalAmount(change.offer),
    newTotalCurrency: (change) => change.offer.currency,
    refundTo: () => "balance",
    expiresAt: (change) => change.offer.expiresAt,
  },
};
