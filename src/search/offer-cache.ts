import type { StoredOffer } from "./offer-payload";

const MAX_OFFERS = 5000;

/**
 * Recently created or read offers, by id. Offers never change once stored, so a cached copy is
 * always exact, in every process; the caller still checks the tenant. Oldest entries leave first.
 */
export class OfferCache {
  private readonly offers = new Map<string, StoredOffer>();

  get(offerId: string): StoredOffer | undefined {
    return this.offers.get(offerId);
  }

  add(offers: Iterable<StoredOffer>): void {
    for (const offer of offers) {
      this.offers.delete(offer.id);
      this.offers.set(offer.id, offer);
      if (this.offers.size > MAX_OFFERS) this.offers.delete(this.offers.keys().next().value!);
    }
  }
}
