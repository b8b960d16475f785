import { convertMinor, isPricingCurrency, USD_RATES } from "../../money/exchange-rates";
import { parseMinor } from "../../money/format";

/** An amount converted from Duffel's currency, and the rate it was converted at (units of `to` per unit of `from`). */
export interface Conversion {
  from: string;
  to: string;
  rate: number;
}

/** An amount of Duffel's in minor units of `currency`, with the conversion when it was in another one. */
export interface ConvertedAmount {
  amountMinor: number;
  currency: string;
  conversion: Conversion | null;
}

/**
 * Duffel's decimal amount in `currency` as integer minor units: converted, when Duffel priced it
 * in another currency, with the static table the simulated airline's prices are converted with
 * (money/exchange-rates.ts), and the rate recorded. Throws for an amount or currency it cannot hold.
 */
export function convertedAmount(amount: string, from: string, currency: string): ConvertedAmount {
  const minor = parseMinor(amount, from);
  if (minor === null) throw new Error(`Duffel sent an amount that is not a decimal of ${from}`);
  if (from === currency) return { amountMinor: minor, currency, conversion: null };
  if (!isPricingCurrency(from)) throw new Error(`no exchange rate for Duffel's currency ${from}`);
  return { amountMinor: convertMinor(minor, from, currency), currency, conversion: { from, to: currency, rate: exchangeRate(from, currency) } };
}

/** Units of `to` per unit of `from`, at the static table, to 6 significant decimals. */
export function exchangeRate(from: string, to: string): number {
  return Number((USD_RATES[to]! / USD_RATES[from]!).toPrecision(6));
}
