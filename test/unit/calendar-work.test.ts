import { describe, expect, it } from "vitest";
import { AppError } from "../../src/errors/app-error";
import { CalendarWork, calendarCost } from "../../src/search/calendar-work";

/**
 * What one tenant may have under way of fare calendars and destination ideas: two computed at
 * once, eight more waiting their turn in order, the next refused with 429 (Retry-After 1); another
 * tenant's work is counted apart. And their cost: a point per ten fare searches.
 */

/** A piece of work that ends when told to. */
function held() {
  let finish!: () => void;
  const done = new Promise<void>((resolve) => (finish = resolve));
  return { done, finish };
}

describe("calendar work per tenant", () => {
  it("runs two at once, queues eight in order, refuses the eleventh with 429, and lets another tenant run", async () => {
    const work = new CalendarWork();
    const started: number[] = [];
    const pieces = Array.from({ length: 10 }, () => held());
    const runs = pieces.map((piece, index) =>
      work.run("ten_a", async () => {
        started.push(index);
        await piece.done;
        return index;
      }),
    );
    await Promise.resolve();
    expect(started).toEqual([0, 1]);
    const refused = await work.run("ten_a", async () => "never").catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(AppError);
    expect(refused).toMatchObject({ code: "rate_limit_exceeded", status: 429, details: { retryAfterSeconds: 1 } });
    expect(await work.run("ten_b", async () => "other tenant")).toBe("other tenant");

    for (const piece of pieces) {
      piece.finish();
      await new Promise((resolve) => setImmediate(resolve));
    }
    expect(await Promise.all(runs)).toEqual([...Array(10).keys()]);
    expect(started).toEqual([...Array(10).keys()]);
    // Everything done: the tenant starts afresh.
    expect(await work.run("ten_a", async () => "again")).toBe("again");
  });

  it("gives the turn on when a piece of work fails", async () => {
    const work = new CalendarWork();
    await expect(work.run("ten_a", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    await expect(work.run("ten_a", async () => Promise.reject(new Error("boom")))).rejects.toThrow("boom");
    expect(await work.run("ten_a", async () => "still runs")).toBe("still runs");
  });

  it("costs a point per ten fare searches, one at least", () => {
    expect([0, 1, 10, 11, 90, 33_635].map(calendarCost)).toEqual([1, 1, 1, 2, 9, 3364]);
  });
});
