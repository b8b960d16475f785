import { minorDigits } from "./format";
import { checkedMinor } from "./minor-units";

/**
 * Indicative units of each currency per 1 USD: a static table, not market rates. Offers are
 * priced by the supplier in USD and converted with it; a tenant's `default_currency` must be
 * one of these codes, so every search can be priced.
 */
export const USD_RATES: Readonly<Record<string, number>> = {
  USD: 1, EUR: 0.92, GBP: 0.79, CHF: 0.88, JPY: 150, CAD: 1.36, AUD: 1.52, NZD: 1.66,
  CNY: 7.2, HKD: 7.8, SGD: 1.34, INR: 83, KRW: 1350, TWD: 32, THB: 36, MYR: 4.7,
  IDR: 15800, PHP: 56, VND: 25000, SEK: 10.5, NOK: 10.6, DKK: 6.9, ISK: 138, PLN: 4,
  CZK: 23, HUF: 360, RON: 4.6, BGN: 1.8, TRY: 32, ILS: 3.7, AED: 3.67, SAR: 3.75,
  QAR: 3.64, KWD: 0.31, BHD: 0.376, OMR: 0.385, JOD: 0.71, EGP: 48, MAD: 10, ZAR: 18.5,
  NGN: 1500, KES: 130, BRL: 5, MXN: 17, ARS: 900, CLP: 930, COP: 3900, PEN: 3.7,
};

export function isPricingCurrency(code: string): boolean {
  return Object.hasOwn(USD_RATES, code);
}

/** Millionths of a unit per 1 USD, as exact integers (every rate above has at most 6 decimals). */
const MICRO_RATES = new Map(Object.entries(USD_RATES).map(([code, rate]) => [code, BigInt(Math.round(rate * 1_000_000))]));

/**
 * Minor units of `from` as minor units of `to` at the static table, rounded half away from zero
 * to `to`'s minor unit. Exact: integer arithmetic, so an exact half (41 US cents = 61.5 yen)
 * always rounds the same way, which floating point does not promise. 422 `amount_too_large` when
 * the result passes 2^53 − 1 minor units (a large balance re-denominated into a small unit).
 */
export function convertMinor(amountMinor: number, from: string, to: string): number {
  if (from === to) return amountMinor;
  const fromRate = MICRO_RATES.get(from);
  const toRate = MICRO_RATES.get(to);
  if (fromRate === undefined || toRate === undefined) throw new Error(`no exchange rate for ${fromRate === undefined ? from : to}`);
  const numerator = BigInt(Math.abs(amountMinor)) * toRate * 10n ** BigInt(minorDigits(to));
  const denominator = fromRate * 10n ** BigInt(minorDigits(from));
  const rounded = checkedMinor((2n * numerator + denominator) / (2n * denominator));
  return amountMinor < 0 ? -rounded : rounded;
}

/** USD minor units (cents) as minor units of `currency`: how supplier prices reach the tenant. */
export function convertFromUsdMinor(usdMinor: number, currency: string): number {
  return convertMinor(usdMinor, "USD", currency);
}
