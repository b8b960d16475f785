import { tenantScope } from "../context/request-context";
import type { Resolvers } from "../generated/graphql";
import { addServicesInput, fromAddServicesInput } from "../orders/services/service-addition.inputs";
import { parseInput } from "../validation/parse-input";
import { fromGraphQLEnum } from "./enum-case";
import { availableServiceFields } from "./offers.resolvers";
import { orderMutation } from "./orders.resolvers";

/** Services after booking (docs/rest-api.md#services-after-booking, docs/graphql.md#services-after-booking): the twins of GET …/available_services and POST …/services. */
export const orderServiceResolvers: Resolvers = {
  Query: {
    orderAvailableServices: async (_parent, { orderId }, ctx) => (await ctx.services.serviceAdditions.available(tenantScope(ctx), orderId)).map(availableServiceFields),
  },
  Mutation: {
    addOrderServices: (_parent, args, ctx) =>
      orderMutation(ctx, "addOrderServices", args, true, () => {
        const { orderId, addServices, payment } = args.input;
        const body = {
          add_services: addServices.map((service) => ({ id: service.id, ...(service.quantity == null ? {} : { quantity: service.quantity }) })),
          ...(payment == null ? {} : { payment: { type: fromGraphQLEnum(payment.type), currency: payment.currency, amount: payment.amount } }),
        };
        return ctx.services.serviceAdditions.add(tenantScope(ctx), orderId, fromAddServicesInput(parseInput(addServicesInput, body)));
      }),
  },
};
