import { describe, expect, it } from "vitest";
import { newId } from "../../src/ids";
import { OfferCache } from "../../src/search/offer-cache";
import { offerIdOf } from "../../src/search/offer-ids";
import type { AnsweredOffer, SearchAnswer } from "../../src/search/search-answer";

const offer: AnsweredOffer = {
  supplier: { id: "simulated", name: "Simulated airline network" },
  comparisonKey: "",
  owner: { iataCode: "ZA", name: "Zephyr Air" },
  fareBrandName: "Economy Light",
  slices: [],
  fares: [10_000],
  taxes: [1_000],
  fee: null,
  totalAmount: 10_000,
  conditions: { changeBeforeDeparture: { allowed: false, penaltyAmount: null }, refundBeforeDeparture: { allowed: false, penaltyAmount: null } },
  passengerIdentityDocumentsRequired: false,
};

/** A search of `offers` offers (no slices: the cache does not look inside them). */
function search(offers = 2): SearchAnswer {
  const at = new Date("2027-01-01T00:00:00Z");
  return { requestId: newId("orq"), tenantId: "ten_1", currency: "USD", createdAt: at, expiresAt: at, passengers: [{ id: "p1", type: "adult" }], segments: [], slices: [], offers: Array.from({ length: offers }, () => offer) };
}

describe("OfferCache", () => {
  it("rebuilds an offer of a cached search by its id, the same object on every read", () => {
    const cache = new OfferCache();
    const cached = search(3);
    cache.addSearch(cached);
    const id = offerIdOf(cached.requestId, 2);
    expect(cache.get(id)).toMatchObject({ id, offerRequestId: cached.requestId, tenantId: "ten_1", totalAmount: 10_000 });
    expect(cache.get(id)).toBe(cache.get(id));
  });

  it("knows without a read that an id names no offer: not an offer id, or past its search's offers", () => {
    const cache = new OfferCache();
    const cached = search(3);
    cache.addSearch(cached);
    expect(cache.get(offerIdOf(cached.requestId, 3))).toBeNull();
    expect(cache.get("off_nonsense")).toBeNull();
    expect(cache.get(offerIdOf(newId("orq"), 0))).toBeUndefined();
  });

  it("keeps between the newest 250 and the newest 500 searches, and drops the oldest first", () => {
    const cache = new OfferCache();
    const searches = Array.from({ length: 501 }, () => search());
    for (const each of searches.slice(0, 500)) cache.addSearch(each);
    expect(cache.search(searches[0]!.requestId)).toBeDefined();
    cache.addSearch(searches[500]!);
    expect(cache.search(searches[249]!.requestId)).toBeUndefined();
    for (const n of [250, 499, 500]) expect(cache.search(searches[n]!.requestId)).toBe(searches[n]);
  });
});
