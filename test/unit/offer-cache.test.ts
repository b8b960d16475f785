import { describe, expect, it } from "vitest";
import { OfferCache } from "../../src/search/offer-cache";
import type { StoredOffer } from "../../src/search/offer-payload";

const offer = (n: number) => ({ id: `off_${n}` }) as StoredOffer;
const ids = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => offer(from + i));

describe("OfferCache", () => {
  it("keeps between the newest 2,500 and the newest 5,000 offers, and drops the oldest first", () => {
    const cache = new OfferCache();
    cache.add(ids(1, 5000));
    expect(cache.get("off_1")?.id).toBe("off_1");
    cache.add(ids(5001, 5001));
    // The first 2,500 went in one piece; everything newer is still there.
    expect(cache.get("off_2500")).toBeUndefined();
    for (const n of [2501, 5000, 5001]) expect(cache.get(`off_${n}`)?.id).toBe(`off_${n}`);
    cache.add(ids(5002, 10_000));
    expect(cache.get("off_5000")).toBeUndefined();
    expect(cache.get("off_5001")?.id).toBe("off_5001");
    expect(cache.get("off_10000")?.id).toBe("off_10000");
  });
});
