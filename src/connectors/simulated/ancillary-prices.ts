/** What a supplier asks for extras sold with an offer, in US cents. */
export interface AncillaryPrices {
  /** An extra checked bag per passenger and slice, below and from 3,000 km. */
  checkedBag: { shortHaul: number; longHaul: number };
  /** A seat selection per seated passenger and segment, by cabin; a cabin absent includes it. */
  seatSelection: { economy: number; premium_economy?: number };
}

const NETWORK: AncillaryPrices = { checkedBag: { shortHaul: 3500, longHaul: 6000 }, seatSelection: { economy: 1200, premium_economy: 2000 } };

/** Low-cost carriers sell what their fares leave out: every bag, and a seat of one's choice, at their own prices. */
const LOW_COST: AncillaryPrices = { checkedBag: { shortHaul: 2900, longHaul: 4900 }, seatSelection: { economy: 800 } };

/** The extras' prices of the supplier `id` (the network's for any other). */
export function ancillaryPrices(supplierId: string): AncillaryPrices {
  return supplierId === "simulated_lcc" ? LOW_COST : NETWORK;
}
