import { appError, type AppError } from "../errors/app-error";

/**
 * The largest amount the product holds: 2^53 − 1 minor units (90 trillion dollars). Columns are
 * 64-bit, but amounts are computed as JavaScript numbers, which are exact only up to here; an
 * amount past it is refused (422 `amount_too_large`) rather than rounded.
 */
export const MAX_MINOR = Number.MAX_SAFE_INTEGER;

/** 422 `amount_too_large`, naming `field` when one is to blame. */
export function amountTooLarge(field?: string): AppError {
  return appError("amount_too_large", { field, message: `${field ? `${field}: ` : ""}amounts are limited to ${MAX_MINOR} minor units` });
}

/** `amount` as an exact number, or 422 `amount_too_large`. */
export function checkedMinor(amount: bigint): number {
  if (amount > BigInt(MAX_MINOR) || amount < -BigInt(MAX_MINOR)) throw amountTooLarge();
  return Number(amount);
}
