import type { z } from "zod";
import { formatMinor } from "../money/format";
import type { OrderCancellation } from "../orders/cancellation/cancellation";
import type { cancellationSchema } from "./cancellation.schemas";

export function cancellationView(quote: OrderCancellation): z.output<typeof cancellationSchema> {
  return {
    id: quote.id,
    order_id: quote.orderId,
    refund_amount: formatMinor(quote.refundAmount, quote.currency),
    refund_currency: quote.currency,
    refund_to: "balance",
    expires_at: quote.expiresAt.toISOString(),
    confirmed_at: quote.confirmedAt?.toISOString() ?? null,
    created_at: quote.createdAt.toISOString(),
  };
}
