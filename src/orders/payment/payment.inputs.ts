import { z } from "zod";
import { balancePayment } from "./payment-rules";
import type { PaymentRequest } from "./payment";

/** POST /v1/air/payments (Variant A's shape): the order and one balance payment of its total. */
export const createPaymentInput = z.strictObject({
  order_id: z.string().min(1).max(64),
  payment: balancePayment,
});

export function fromPaymentInput(input: z.output<typeof createPaymentInput>): PaymentRequest {
  return { orderId: input.order_id, payment: input.payment };
}
