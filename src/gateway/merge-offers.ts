import { supplierOfferKey } from "./contract/comparison-key";
import type { SourcedOffer, SupplierBatch } from "./contract/gateway";
import type { SupplierOffer } from "./contract/offers";

/**
 * The offers of every supplier that answered, as one list: the same flights with the same fare
 * brand offered twice are kept once, the cheaper (a tie goes to the supplier listed first, as
 * `batches` are); ordered by total amount, then by duration (every slice's together).
 */
export function mergeOffers(batches: readonly SupplierBatch[]): SourcedOffer[] {
  const kept = new Map<string, { sourced: SourcedOffer; rank: number }>();
  let rank = 0;
  for (const batch of batches) {
    const { supplier } = batch;
    for (const offer of batch.offers) {
      const comparison = supplierOfferKey(offer);
      const key = `${comparison}#${offer.fareBrandName}`;
      const previous = kept.get(key);
      if (!previous || offer.totalAmount < previous.sourced.offer.totalAmount) kept.set(key, { sourced: { supplier, offer, comparisonKey: comparison }, rank: previous?.rank ?? rank });
      rank += 1;
    }
  }
  const duration = (offer: SupplierOffer) => offer.slices.reduce((sum, slice) => sum + slice.durationMinutes, 0);
  return [...kept.values()]
    .sort((a, b) => a.sourced.offer.totalAmount - b.sourced.offer.totalAmount || duration(a.sourced.offer) - duration(b.sourced.offer) || a.rank - b.rank)
    .map((entry) => entry.sourced);
}
