import { z } from "zod";
import { paymentInput } from "../core/order.inputs";
import type { PaymentRequest } from "./payment";

/** POST /v1/air/payments (Variant A's shape): the order and one balance payment of its total. */
export const createPaymentInput = z.strictObject({
  order_id: z.string().min(1).max(64),
  payment: paymentInput,
});

export function fromPaymentInput(input: z.output<typeof createPaymentInput>): PaymentRequest {
  return { orderId: input.order_id, payment: input.payment };
}
