import { RecentMap } from "../recent-map";
import type { StoredOffer } from "./offer-payload";

/**
 * Recently created or read offers, by id (at least the 2,500 most recent). Offers never change
 * once stored, so a cached copy is always exact, in every process; the caller still checks the
 * tenant.
 */
export class OfferCache {
  private readonly offers = new RecentMap<string, StoredOffer>(2500);

  get(offerId: string): StoredOffer | undefined {
    return this.offers.get(offerId);
  }

  add(offers: Iterable<StoredOffer>): void {
    for (const offer of offers) this.offers.set(offer.id, offer);
  }
}
