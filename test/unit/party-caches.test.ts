import { describe, expect, it } from "vitest";
import { asParty, PartyCache } from "../../src/graphql/party-caches";

/** The caches Apollo is given (persisted queries, parsed documents): one namespace per party, none outside a request. */
describe("party caches", () => {
  it("find an entry only for the party that kept it", async () => {
    const cache = new PartyCache<string>(10, () => true);
    await asParty("tenant:ten_a", () => cache.set("apq:h", "{ viewer { kind } }"));
    expect(await asParty("tenant:ten_a", () => cache.get("apq:h"))).toBe("{ viewer { kind } }");
    expect(await asParty("tenant:ten_b", () => cache.get("apq:h"))).toBeUndefined();
    expect(await asParty("owner", () => cache.get("apq:h"))).toBeUndefined();
    await asParty("tenant:ten_b", () => cache.delete("apq:h"));
    expect(await asParty("tenant:ten_a", () => cache.get("apq:h"))).toBe("{ viewer { kind } }");
  });

  it("keep and find nothing outside a party's request, nor what does not fit", async () => {
    const cache = new PartyCache<string>(10, (value) => value.length <= 5);
    await cache.set("k", "short");
    expect(await asParty("owner", () => cache.get("k"))).toBeUndefined();
    await asParty("owner", () => cache.set("k", "too long"));
    expect(await asParty("owner", () => cache.get("k"))).toBeUndefined();
    await asParty("owner", () => cache.set("k", "short"));
    expect(await cache.get("k")).toBeUndefined();
  });
});
