import { minorDigits } from "./format";

/**
 * How /openapi.json states what `parseMinor` takes: a decimal amount with no more decimals than
 * its currency's minor unit (JPY none, USD two, BHD three), small enough to hold exactly. A JSON
 * Schema (if/then/else over the sibling currency field), for an object holding both fields.
 */
export function amountInCurrencyStatement(amountField: string, currencyField: string, options: { positive?: boolean } = {}): Record<string, unknown> {
  const byDigits = new Map<number, string[]>();
  for (const code of Intl.supportedValuesOf("currency")) {
    const digits = minorDigits(code);
    if (digits !== 2) byDigits.set(digits, [...(byDigits.get(digits) ?? []), code]);
  }
  const amount = (digits: number) => {
    // At most 15 digits in all, so the amount in minor units is exact (below 2^53).
    const whole = `\\d{1,${Math.min(13, 15 - digits)}}`;
    const pattern = digits === 0 ? `^${whole}$` : `^${whole}(\\.\\d{1,${digits}})?$`;
    return { properties: { [amountField]: { pattern, ...(options.positive ? { not: { pattern: "^[0.]*$" } } : {}) } } };
  };
  let statement: Record<string, unknown> = amount(2);
  for (const [digits, codes] of [...byDigits].sort(([a], [b]) => a - b)) {
    statement = { if: { properties: { [currencyField]: { enum: codes } }, required: [currencyField] }, then: amount(digits), else: statement };
  }
  return statement;
}
