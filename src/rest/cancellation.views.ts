import type { z } from "zod";
import type { OrderCancellation } from "../orders/cancellation/cancellation";
import { cancellationViewA } from "../orders/presentation/order-event-payload";
import type { cancellationSchema } from "./cancellation.schemas";

export function cancellationView(quote: OrderCancellation): z.output<typeof cancellationSchema> {
  return cancellationViewA(quote);
}
