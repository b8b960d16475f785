import { z } from "zod";
import { appError } from "../../errors/app-error";
import { amountInCurrencyStatement } from "../../money/amount-statement";
import { formatMinor, parseMinor } from "../../money/format";

/** A balance payment as sent: a decimal amount in a currency. */
export interface PaymentInput {
  currency: string;
  amount: string;
}

const currency = z.string().regex(/^[A-Z]{3}$/, "must be an ISO 4217 code, e.g. USD");
/** Any text here; whether it is a decimal of the currency is checkPayment's rule. */
const amount = z.string().min(1);

/** A payment's values in a command (checkPayment then holds it to the total). */
export const paymentValues = z.object({ currency, amount });

/**
 * A balance payment as every surface sends it (`type`, `currency`, `amount`): the only kind there
 * is, since an order is paid from the wallet. Its amount is checked against its currency when it
 * is paid (checkPayment).
 */
export const balancePayment = z
  .strictObject({
    type: z.literal("balance", { message: "only balance payments exist: the order is paid from the wallet" }),
    currency,
    amount,
  })
  .meta(amountInCurrencyStatement("amount", "currency"));

/**
 * A payment must be exactly the total, in the order's currency (422 `payment_amount_mismatch`
 * naming `field`); an amount that is not a decimal of the currency is 400. Returns the amount in
 * minor units. `owed` says what the total is, in the refusal's words.
 */
export function checkPayment(payment: PaymentInput, total: number, currency: string, field: string, owed = "order total is"): number {
  const amount = parseMinor(payment.amount, payment.currency);
  if (amount === null) {
    throw appError("validation_failed", { field, message: `${field}: must be a decimal amount, e.g. 123.45` });
  }
  if (payment.currency !== currency || amount !== total) {
    throw appError("payment_amount_mismatch", {
      field,
      reason: `The ${owed} ${formatMinor(total, currency)} ${currency}; the payment is ${payment.amount} ${payment.currency}.`,
    });
  }
  return amount;
}
