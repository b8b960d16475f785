import { tenantScope } from "../context/request-context";
import { createPaymentInput, fromPaymentInput } from "../orders/payment/payment.inputs";
import { ok, okSchema } from "./envelope";
import { paymentSchema } from "./payment.schemas";
import { paymentView } from "./payment.views";
import { restRoute } from "./route";

/** Paying a held order (docs/rest-api.md#holds-and-payments): the wallet pays its total and ticketing starts. */
export const paymentRoutes = [
  restRoute({
    method: "POST",
    url: "/v1/air/payments",
    operation: "payOrder",
    summary: "Pay a PENDING order's total from the wallet and start ticketing (as the ticket action does)",
    tag: "Orders",
    body: createPaymentInput,
    idempotencyKeyRequired: true,
    status: 201,
    response: okSchema(paymentSchema),
    errors: ["not_found", "payment_amount_mismatch", "price_changed", "insufficient_balance", "order_state_conflict", "clock_advanced"],
    handle: async ({ ctx, body }) => ok(paymentView(await ctx.services.ticketing.payOrder(tenantScope(ctx), fromPaymentInput(body))), "Payment created"),
  }),
];
