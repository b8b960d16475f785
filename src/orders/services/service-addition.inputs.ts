import { z } from "zod";
import { balancePayment, type PaymentInput } from "../payment/payment-rules";

/**
 * POST /v1/air/orders/:id/services (docs/rest-api.md#services-after-booking): the services to add, by id, and for a
 * ticketed order optionally the payment of their total. Quantities are any integer here: one
 * out of range is the domain's 422 `invalid_field_value`, naming it.
 */
export const addServicesInput = z.strictObject({
  add_services: z
    .array(z.strictObject({ id: z.string().min(1).max(64), quantity: z.number().int().meta({ minimum: 1, description: "At most the service's maximum_quantity" }).optional() }))
    .min(1, "at least one service")
    .max(100, "at most 100 services"),
  payment: balancePayment.optional(),
});

/** Services to add to an order, in one shape whatever the interface they came in. */
export interface AddServicesRequest {
  services: Array<{ id: string; quantity: number }>;
  payment: PaymentInput | null;
}

export function fromAddServicesInput(input: z.output<typeof addServicesInput>): AddServicesRequest {
  return {
    services: input.add_services.map((service) => ({ id: service.id, quantity: service.quantity ?? 1 })),
    payment: input.payment ? { currency: input.payment.currency, amount: input.payment.amount } : null,
  };
}
