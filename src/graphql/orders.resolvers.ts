import { offerSupplier } from "../search/offer-payload";
import { availableActions } from "../orders/core/order-supplier";
import { tenantScope, type RequestContext } from "../context/request-context";
import type { Resolvers, CreateOrderInput, OrderPassengerInput, PassengerUpdateInput, IdentityDocumentInput } from "../generated/graphql";
import { formatMinor } from "../money/format";
import { orderPriceSplit, type IdentityDocument, type Order, type OrderDetail, type SelectedService } from "../orders/core/order";
import { isRefunding } from "../orders/core/order-actions";
import type { Metadata } from "../tenants/metadata";
import type { CreateOrderRequest, OrderPassengerRequest, PassengerUpdate } from "../orders/core/order-commands";
import { paymentStatus } from "../orders/payment/hold-deadline";
import { createPaymentInput, fromPaymentInput } from "../orders/payment/payment.inputs";
import { documentPath } from "../orders/presentation/variant-a";
import { parseInput } from "../validation/parse-input";
import { pageRequestFromArgs, toConnection } from "./connection";
import { fromGraphQLEnum, toGraphQLEnum } from "./enum-case";
import { inGraphQLFieldNames } from "./field-names";
import { WALLET_FIELD_NAMES } from "./wallet.resolvers";
import { idempotentMutation } from "./idempotent-mutation";
import { loadersFor } from "./loaders";

const isDetail = (order: Order): order is OrderDetail => "passengers" in order && "documents" in order && "airlineInitiatedChanges" in order;

/** The REST names the order rules report, as the GraphQL inputs spell them. */
const ORDER_FIELD_NAMES: Readonly<Record<string, string>> = {
  offer_id: "offerId",
  "payments[0]": "payment",
  add_services: "addServices",
  given_name: "givenName",
  family_name: "familyName",
  born_on: "bornOn",
  phone_number: "phoneNumber",
  identity_documents: "identityDocuments",
  issuing_country_code: "issuingCountryCode",
  expires_on: "expiresOn",
  // A booking past a hold limit names the wallet's limit.
  ...WALLET_FIELD_NAMES,
  loyalty_programme_accounts: "loyaltyProgrammeAccounts",
  airline_iata_code: "airlineIataCode",
  account_number: "accountNumber",
  infant_passenger_id: "infantPassengerId",
};

const identityDocument = (document: IdentityDocumentInput): IdentityDocument => ({
  type: fromGraphQLEnum(document.type),
  number: document.number,
  issuingCountryCode: document.issuingCountryCode,
  expiresOn: document.expiresOn,
});

/** An enum value in the domain's case; null (clear it) and absent pass through. */
const domainEnum = <T extends string>(value: T | null | undefined) => (value == null ? value : fromGraphQLEnum(value));

/**
 * A GraphQL passenger in the domain's command. An explicit null is kept: it clears `title`, and
 * the domain refuses it for a field that cannot be empty.
 */
function passengerCommand(passenger: OrderPassengerInput | PassengerUpdateInput) {
  return {
    id: passenger.id,
    title: domainEnum(passenger.title),
    givenName: passenger.givenName,
    familyName: passenger.familyName,
    bornOn: passenger.bornOn,
    gender: domainEnum(passenger.gender),
    email: passenger.email,
    phoneNumber: passenger.phoneNumber,
    identityDocuments: passenger.identityDocuments == null ? passenger.identityDocuments : passenger.identityDocuments.map(identityDocument),
    loyaltyProgrammeAccounts:
      passenger.loyaltyProgrammeAccounts == null ? passenger.loyaltyProgrammeAccounts : passenger.loyaltyProgrammeAccounts.map((account) => ({ airlineIataCode: account.airlineIataCode, accountNumber: account.accountNumber })),
    infantPassengerId: passenger.infantPassengerId,
  };
}

/** createOrder's input as the orders domain's command. */
function createOrderCommand(input: CreateOrderInput): CreateOrderRequest {
  return {
    offerId: input.offerId,
    offerField: "offerId",
    passengers: input.passengers.map((passenger) => {
      const details = passengerCommand(passenger);
      // At booking, no title, no documents, no loyalty accounts and no infant named are none.
      return {
        ...details,
        title: details.title ?? null,
        identityDocuments: details.identityDocuments ?? [],
        loyaltyProgrammeAccounts: details.loyaltyProgrammeAccounts ?? [],
        infantPassengerId: details.infantPassengerId ?? null,
        type: domainEnum(passenger.type) ?? undefined,
      } as OrderPassengerRequest;
    }),
    services: (input.services ?? []).map((service) => ({ id: service.id, quantity: service.quantity ?? 1 })),
    payment: input.payment == null ? null : { currency: input.payment.currency, amount: input.payment.amount },
    // Checked by the domain's rules with the rest of the command.
    metadata: (input.metadata ?? {}) as Metadata,
  };
}

/** Order mutations return the order; a repeat of an idempotent one returns it as it is now. */
export function orderMutation(ctx: RequestContext, field: string, args: Record<string, unknown> & { idempotencyKey?: string | null }, required: boolean, run: () => Promise<Order>) {
  return idempotentMutation(ctx, {
    field,
    args,
    required,
    run: () => inGraphQLFieldNames(ORDER_FIELD_NAMES, run),
    idOf: (order) => order.id,
    load: (id) => ctx.services.orders.get(tenantScope(ctx), id),
  });
}

export const orderResolvers: Resolvers = {
  Query: {
    order: (_parent, { id }, ctx) => loadersFor(ctx).order.load(id),
    orders: async (_parent, args, ctx) => {
      const filter = {
        status: args.status ?? undefined,
        bookingReference: args.bookingReference ?? undefined,
        passengerName: args.passengerName ?? undefined,
        createdFrom: args.createdFrom ?? undefined,
        createdBefore: args.createdBefore ?? undefined,
      };
      return toConnection(await ctx.services.orders.list(tenantScope(ctx), filter, pageRequestFromArgs(args, 25)));
    },
  },
  Mutation: {
    createOrder: (_parent, args, ctx) =>
      orderMutation(ctx, "createOrder", args, true, () => ctx.services.orders.create(tenantScope(ctx), createOrderCommand(args.input))),
    updateOrderPassengers: (_parent, args, ctx) =>
      orderMutation(ctx, "updateOrderPassengers", args, false, () => {
        const updates = args.passengers.map(passengerCommand) as PassengerUpdate[];
        return ctx.services.orders.updatePassengers(tenantScope(ctx), args.orderId, updates);
      }),
    ticketOrder: (_parent, args, ctx) => orderMutation(ctx, "ticketOrder", args, true, () => ctx.services.ticketing.ticket(tenantScope(ctx), args.orderId)),
    payOrder: (_parent, args, ctx) =>
      idempotentMutation(ctx, {
        field: "payOrder",
        args,
        required: true,
        run: () => {
          const { orderId, payment } = args.input;
          const body = { order_id: orderId, payment: { type: fromGraphQLEnum(payment.type), currency: payment.currency, amount: payment.amount } };
          return ctx.services.ticketing.payOrder(tenantScope(ctx), fromPaymentInput(parseInput(createPaymentInput, body)));
        },
        idOf: (made) => made.id,
        load: (id) => ctx.services.ticketing.payment(tenantScope(ctx), id),
      }),
    cancelOrder: (_parent, args, ctx) => orderMutation(ctx, "cancelOrder", args, false, () => ctx.services.orders.cancel(tenantScope(ctx), args.orderId)),
    refundOrder: (_parent, args, ctx) => orderMutation(ctx, "refundOrder", args, false, () => ctx.services.cancellations.requestRefund(tenantScope(ctx), args.orderId)),
  },
  Order: {
    supplier: (order) => offerSupplier(order.offer.payload),
    availableActions: (order, _args, ctx) => availableActions(order, tenantScope(ctx).clock.now(), ctx.services.gateway.orders).map(toGraphQLEnum),
    totalAmount: (order) => formatMinor(order.totalAmount, order.currency),
    totalCurrency: (order) => order.currency,
    baseAmount: (order) => formatMinor(orderPriceSplit(order).baseAmount, order.currency),
    taxAmount: (order) => formatMinor(orderPriceSplit(order).taxAmount, order.currency),
    feeAmount: (order) => formatMinor(orderPriceSplit(order).feeAmount, order.currency),
    feeCurrency: (order) => order.currency,
    // An order read with its children (a detail: subscriptions, mutations) needs no further query.
    passengers: (order, _args, ctx) => (isDetail(order) ? order.passengers : loadersFor(ctx).orderPassengers.load(order.id)),
    documents: (order, _args, ctx) => (isDetail(order) ? order.documents : loadersFor(ctx).orderDocuments.load(order.id)),
    airlineInitiatedChanges: (order, _args, ctx) => (isDetail(order) ? order.airlineInitiatedChanges : loadersFor(ctx).orderAirlineChanges.load(order.id)),
    services: (order) => order.services.map((service) => ({ ...service, currency: order.currency })),
    refundInProgress: (order) => isRefunding(order),
    paymentStatus: (order) => paymentStatus(order),
    settlement: (order) => toGraphQLEnum(order.settlement),
  },
  Payment: {
    order: (payment, _args, ctx) => ctx.services.orders.get(tenantScope(ctx), payment.orderId),
    type: (payment) => toGraphQLEnum(payment.type),
    amount: (payment) => formatMinor(payment.amount, payment.currency),
  },
  OrderPassenger: {
    type: (passenger) => toGraphQLEnum(passenger.type),
    title: (passenger) => (passenger.title === null ? null : toGraphQLEnum(passenger.title)),
    gender: (passenger) => toGraphQLEnum(passenger.gender),
    loyaltyProgrammeAccounts: (passenger) => passenger.loyaltyProgrammeAccounts ?? [],
    infantPassengerId: (passenger) => passenger.infantPassengerId ?? null,
  },
  IdentityDocument: {
    type: (document) => toGraphQLEnum(document.type),
  },
  OrderService: {
    totalAmount: (service) => formatMinor(service.unitAmount * service.quantity, service.currency),
    totalCurrency: (service) => service.currency,
  },
  OrderDocument: {
    url: (document) => documentPath(document),
    issuedAt: (document) => document.createdAt,
  },
};
