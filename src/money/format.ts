const minorDigitsCache = new Map<string, number>();

/** Decimal places of a currency's minor unit (USD 2, JPY 0, BHD 3), from Node's ICU data. */
export function minorDigits(currency: string): number {
  let digits = minorDigitsCache.get(currency);
  if (digits === undefined) {
    digits = new Intl.NumberFormat("en", { style: "currency", currency }).resolvedOptions().maximumFractionDigits ?? 2;
    minorDigitsCache.set(currency, digits);
  }
  return digits;
}

/** Integer minor units as the API's decimal string: 12345 USD → "123.45", 500 JPY → "500". */
export function formatMinor(amountMinor: number, currency: string): string {
  const digits = minorDigits(currency);
  const sign = amountMinor < 0 ? "-" : "";
  const text = String(Math.abs(amountMinor)).padStart(digits + 1, "0");
  return digits === 0 ? sign + text : `${sign}${text.slice(0, -digits)}.${text.slice(-digits)}`;
}

/**
 * The API's decimal string as integer minor units: "123.45" USD → 12345, "500" JPY → 500,
 * "12.5" USD → 1250. Null when it is not a plain non-negative decimal, has more decimals than
 * the currency's minor unit, or is too large to hold exactly.
 */
export function parseMinor(amount: string, currency: string): number | null {
  const match = /^(\d{1,13})(?:\.(\d+))?$/.exec(amount);
  if (!match) return null;
  const digits = minorDigits(currency);
  const fraction = match[2] ?? "";
  if (fraction.length > digits) return null;
  const minor = Number(match[1]) * 10 ** digits + Number(fraction.padEnd(digits, "0") || "0");
  return Number.isSafeInteger(minor) ? minor : null;
}
