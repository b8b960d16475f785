import { convertFromUsdMinor } from "../money/exchange-rates";
import { flightCabinKey, passengersNeedingSeats, type FareQuote, type FlightCabin, type Supplier, type SupplierSearch } from "../supplier/supplier";

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
 * The `CANDIDATES_PER_SEARCH` cheapest fares one supplier quotes for each search, labelled; none
 * when the supplier cannot quote cheaply. The per-supplier part of the fare calendar and the
 * destination ideas: every supplier able to quote contributes this way.
 */
export async function quotedFares<Label>(supplier: Supplier, searches: ReadonlyArray<{ label: Label; search: SupplierSearch }>): Promise<FareCandidate<Label>[][]> {
  const lowestFares = supplier.lowestFares?.bind(supplier);
  if (!lowestFares) return [];
  return Promise.all(
    searches.map(async ({ label, search }) => {
      const seatsNeeded = passengersNeedingSeats(search.passengers);
      return (await lowestFares(search, CANDIDATES_PER_SEARCH)).map((quote) => ({ label, quote, seatsNeeded }));
    }),
  );
}

/** The platform's fee on a fare as an offer of it would carry, given its passengers' fares in the tenant's currency (0: none). */
export type FareFee = (quote: FareQuote, supplierId: string, passengerFares: readonly number[]) => number;

/**
 * Of each group of a supplier's fares, the cheapest it can still sell, as a search would price
 * it (in the tenant's currency, with the platform's fee: `feeOf`): a fare on a flight-cabin whose
 * bookings (of the tenant's environment) leave fewer seats than the party needs is passed over.
 * One read of the holds for every group; a group with no fare left is null.
 */
export async function cheapestSellable<Label>(
  supplierId: string,
  supplier: Supplier,
  groups: ReadonlyArray<ReadonlyArray<FareCandidate<Label>>>,
  environment: "sandbox" | "live",
  currency: string,
  feeOf: FareFee = () => 0,
): Promise<Array<PricedFare<FareCandidate<Label>> | null>> {
  const flights = new Map<string, FlightCabin>();
  for (const group of groups) for (const candidate of group) for (const flight of candidate.quote.flights) flights.set(flightCabinKey(flight), flight);
  const held = flights.size === 0 ? new Map<string, number>() : await supplier.seatsHeld([...flights.values()], environment);
  return groups.map((group) => {
    let cheapest: PricedFare<FareCandidate<Label>> | null = null;
    for (const candidate of group) {
      const { quote, seatsNeeded } = candidate;
      if (!quote.flights.every((flight) => flight.seatsForSale - (held.get(flightCabinKey(flight)) ?? 0) >= seatsNeeded)) continue;
      const fares = faresInCurrency(quote, currency);
      const totalAmount = fares.reduce((sum, fare) => sum + fare, 0) + feeOf(quote, supplierId, fares);
      if (!cheapest || totalAmount < cheapest.totalAmount) cheapest = { candidate, totalAmount, supplier: supplierId };
    }
    return cheapest;
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
