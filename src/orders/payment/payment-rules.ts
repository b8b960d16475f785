import { appError } from "../../errors/app-error";
import { formatMinor, parseMinor } from "../../money/format";

/** A balance payment as sent: a decimal amount in a currency. */
export interface PaymentInput {
  currency: string;
  amount: string;
}

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
