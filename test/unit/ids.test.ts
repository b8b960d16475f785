import { describe, expect, it } from "vitest";
import { newId, newRequestId } from "../../src/ids";

const CROCKFORD = /^[0-9a-hjkmnp-tv-z]+$/;

/** How many of two equally long texts' characters differ, position by position. */
function differingPositions(a: string, b: string): number {
  let count = 0;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) count += 1;
  return count;
}

/**
 * Ids (src/ids.ts): opaque, sorted by creation within a process (keyset pages and an order's
 * history list rows written at one instant in the order written), and unguessable: every id
 * carries random digits of its own, so knowing one id (or a request id) tells nothing of the next.
 */
describe("ids", () => {
  it("are a prefix and 26 base-32 characters", () => {
    for (const id of [newId("ord"), newId("ten"), newRequestId()]) {
      expect(id).toMatch(/^[a-z]{3}_[0-9a-hjkmnp-tv-z]{26}$/);
    }
  });

  it("sort in the order they were made, within one millisecond too, and one made with an earlier instant still sorts after", () => {
    const now = Date.now();
    const ids = [...Array.from({ length: 500 }, () => newId("evt", now)), newId("evt", now - 5), newId("evt", now + 1), ...Array.from({ length: 50 }, () => newId("evt", now + 1))];
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("made in the same millisecond, each has random digits of its own: the next cannot be told from the one before", () => {
    const now = Date.now() + 10_000;
    const ids = Array.from({ length: 1000 }, () => newId("ord", now).slice(4));
    const tails = ids.map((id) => id.slice(-12));
    expect(new Set(tails).size).toBe(tails.length);
    // Twelve random base-32 digits differ in 12 × 31/32 positions on average; a counter in one or two.
    const differing = tails.slice(1).map((tail, index) => differingPositions(tail, tails[index]!));
    const mean = differing.reduce((sum, count) => sum + count, 0) / differing.length;
    expect(mean).toBeGreaterThan(10);
    expect(Math.min(...differing)).toBeGreaterThan(2);
  });

  it("a request id is random throughout, so the x-request-id header tells nothing of the ids made around it", () => {
    const now = Date.now();
    const before = newId("ord", now);
    const requestIds = Array.from({ length: 100 }, () => newRequestId());
    const after = newId("ord", now);
    for (const id of requestIds) expect(id.slice(4)).toMatch(CROCKFORD);
    // No shared time prefix: the first ten digits are as random as the rest.
    expect(new Set(requestIds.map((id) => id.slice(4, 14))).size).toBe(requestIds.length);
    for (const id of requestIds) expect(differingPositions(id.slice(4, 14), before.slice(4, 14))).toBeGreaterThan(0);
    expect(differingPositions(after.slice(-12), before.slice(-12))).toBeGreaterThan(2);
  });
});
