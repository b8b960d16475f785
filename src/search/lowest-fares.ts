import { convertFromUsdMinor } from "../money/exchange-rates";
import { passengersNeedingSeats, type Environment } from "../gateway/contract/air";
import type { FareSource } from "../gateway/contract/gateway";
import type { FareQuote, SupplierSearch } from "../gateway/contract/offers";

/**
 * How many of a search's cheapest fares are checked for seats: should bookings hold the last
 * seats of all of them, the search's cheapest offer is dearer still, and no price is shown.
 */
export const CANDIDATES_PER_SEARCH = 3;

/** A supplier's fare as a search would price it: the total in the tenant's currency. */
export interface PricedFare<Candidate> {
  candidate: Candidate;
  /** Minor units of the tenant's currency, each passenger's fare converted on its own as an offer's are. */
  totalAmount: number;
  supplier: string;
}

/** A fare found for one search, with what it is for (a day, a destination). */
export interface FareCandidate<Label> {
  label: Label;
  quote: FareQuote;
  seatsNeeded: number;
}

/**
 * The `CANDIDATES_PER_SEARCH` cheapest fares one supplier quotes for each search, labelled. The
 * per-supplier part of the fare calendar and the destination ideas: every supplier able to quote
 * contributes this way.
 */
export async function quotedFares<Label>(source: FareSource, searches: ReadonlyArray<{ label: Label; search: SupplierSearch }>): Promise<FareCandidate<Label>[][]> {
  return Promise.all(
    searches.map(async ({ label, search }) => {
      const seatsNeeded = passengersNeedingSeats(search.passengers);
      return (await source.lowestFares(search, CANDIDATES_PER_SEARCH)).map((quote) => ({ label, quote, seatsNeeded }));
    }),
  );
}

/** The platform's fee on a fare as an offer of it would carry, given its passengers' fares in the tenant's currency (0: none). */
export type FareFee = (quote: FareQuote, supplierId: string, passengerFares: readonly number[]) => number;

/**
 * Of each group of a supplier's fares (cheapest first), the cheapest it can still sell, as a
 * search would find it (the supplier says which: its own inventory, for the tenant's
 * environment) and price it (in the tenant's currency, with the platform's fee: `feeOf`). A group
 * with no fare left is null.
 */
export async function cheapestSellable<Label>(
  source: FareSource,
  groups: ReadonlyArray<ReadonlyArray<FareCandidate<Label>>>,
  environment: Environment,
  currency: string,
  feeOf: FareFee = () => 0,
): Promise<Array<PricedFare<FareCandidate<Label>> | null>> {
  const seatsNeeded = groups.find((group) => group.length > 0)?.[0]?.seatsNeeded ?? 1;
  const sellable = await source.sellableFares(
    groups.map((group) => group.map((candidate) => candidate.quote)),
    { seatsNeeded, environment },
  );
  return groups.map((group, index) => {
    const quote = sellable[index];
    const candidate = quote ? group.find((entry) => entry.quote === quote) : undefined;
    if (!candidate) return null;
    const fares = faresInCurrency(candidate.quote, currency);
    const totalAmount = fares.reduce((sum, fare) => sum + fare, 0) + feeOf(candidate.quote, source.ref.id, fares);
    return { candidate, totalAmount, supplier: source.ref.id };
  });
}

/** Each passenger's fare as an offer of the quote would show it: converted one by one. */
function faresInCurrency(quote: FareQuote, currency: string): number[] {
  return quote.passengerFares.map((fare) => convertFromUsdMinor(fare, currency));
}

/** A quote's total as an offer of it would show it, before any fee: each passenger's fare converted, then added. */
export function totalInCurrency(quote: FareQuote, currency: string): number {
  return faresInCurrency(quote, currency).reduce((sum, fare) => sum + fare, 0);
}

/** The cheaper of two priced fares (the first on a tie); either may be missing. */
export function cheaperOf<T>(a: PricedFare<T> | null | undefined, b: PricedFare<T> | null | undefined): PricedFare<T> | null {
  if (!a) return b ?? null;
  if (!b) return a;
  return b.totalAmount < a.totalAmount ? b : a;
}
