import { describe, expect, it } from "vitest";
import { RecentMap } from "../../src/recent-map";

describe("RecentMap", () => {
  it("keeps at least the `capacity` most recent entries and drops older ones a generation at a time", () => {
    const map = new RecentMap<number, string>(3);
    for (const key of [1, 2, 3, 4, 5, 6]) map.set(key, `v${key}`);
    for (const key of [1, 2, 3, 4, 5, 6]) expect(map.get(key)).toBe(`v${key}`);
    map.set(7, "v7");
    for (const key of [1, 2, 3]) expect(map.get(key)).toBeUndefined();
    for (const key of [4, 5, 6, 7]) expect(map.get(key)).toBe(`v${key}`);
  });

  it("replacing a value of the current generation does not start a new one", () => {
    const map = new RecentMap<number, string>(2);
    map.set(1, "a");
    map.set(2, "b");
    map.set(2, "c");
    expect(map.get(1)).toBe("a");
    expect(map.get(2)).toBe("c");
  });
});
