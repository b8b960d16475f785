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
