import { appError } from "../errors/app-error";
import { parseMinor } from "../money/format";

/**
 * A wallet setting's amount (credit limit, low-balance threshold) in minor units of the wallet's
 * currency: 422 `invalid_field_value` naming `field` when it has more decimals than the currency takes.
 */
export function walletAmount(text: string, currency: string, field: string): number {
  const amount = parseMinor(text, currency);
  if (amount === null) throw appError("invalid_field_value", { field, message: `${field}: must be a decimal amount from 0 in ${currency}, e.g. 5000.00` });
  return amount;
}
