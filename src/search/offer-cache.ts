import { RecentMap } from "../recent-map";
import type { StoredOffer } from "./offer-payload";
import { offerAt, type SearchAnswer } from "./search-answer";
import { offerAddress } from "./offer-ids";

/** Searches kept: at least the 250 most recent (~12,000 offers, a few MB). */
const RECENT_SEARCHES = 250;
/** Offers kept whole, as reads rebuilt them: at least the 2,500 most recently read. */
const RECENT_OFFERS = 2500;

/**
 * Recently made or read searches by offer request id, and offers rebuilt from them by offer id.
 * A search never changes once stored, so a cached copy is exact in every process; the caller
 * still checks the tenant, and whether the offer is still kept.
 */
export class OfferCache {
  private readonly searches = new RecentMap<string, SearchAnswer>(RECENT_SEARCHES);
  private readonly offers = new RecentMap<string, StoredOffer>(RECENT_OFFERS);

  /** The offer, if its search is cached; null when the id names no offer (not an offer id, or past its search's offers). */
  get(offerId: string): StoredOffer | null | undefined {
    const offer = this.offers.get(offerId);
    if (offer) return offer;
    const address = offerAddress(offerId);
    if (!address) return null;
    const search = this.searches.get(address.requestId);
    if (!search) return undefined;
    if (address.index >= search.offers.length) return null;
    const rebuilt = offerAt(search, address.index);
    this.offers.set(offerId, rebuilt);
    return rebuilt;
  }

  search(requestId: string): SearchAnswer | undefined {
    return this.searches.get(requestId);
  }

  addSearch(search: SearchAnswer): void {
    this.searches.set(search.requestId, search);
  }
}
