import type { z } from "zod";
import { formatMinor } from "../money/format";
import type { Payment } from "../orders/payment/payment";
import type { paymentSchema } from "./payment.schemas";

export function paymentView(payment: Payment): z.output<typeof paymentSchema> {
  return {
    id: payment.id,
    order_id: payment.orderId,
    type: payment.type,
    amount: formatMinor(payment.amount, payment.currency),
    currency: payment.currency,
    created_at: payment.createdAt.toISOString(),
  };
}
