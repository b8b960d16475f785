import { describe, expect, it } from "vitest";
import { DestinationSlots, PROVEN_DESTINATION_SLOTS } from "../../src/events/destination-slots";

/**
 * How a process shares its webhook attempts out among destinations: one at a time to a
 * destination that has not answered promptly (new, slow, or hanging), up to 32 to one that has,
 * and never more than three quarters of the slots to the first kind together.
 */
describe("DestinationSlots", () => {
  it("gives a destination that has not answered promptly one attempt at a time", () => {
    const slots = new DestinationSlots(16);
    const first = slots.take("ten_new");
    expect(first).not.toBeNull();
    expect(slots.take("ten_new")).toBeNull();
    expect(slots.roomFor("ten_new")).toBe(0);
    expect(slots.claimFilter()).toEqual({ except: ["ten_new"] });
    // It hung until its deadline: still one at a time.
    slots.give(first!, false);
    expect(slots.roomFor("ten_new")).toBe(1);
  });

  it("gives a destination that answered promptly up to 32 at once, and takes that back when it stops", () => {
    const slots = new DestinationSlots(64);
    slots.give(slots.take("ten_quick")!, true);
    const taken = Array.from({ length: PROVEN_DESTINATION_SLOTS }, () => slots.take("ten_quick"));
    expect(taken.every((slot) => slot !== null)).toBe(true);
    expect(slots.take("ten_quick")).toBeNull();
    // One attempt hangs: the rest finish, and then it is one at a time again.
    for (const slot of taken.slice(1)) slots.give(slot!, true);
    slots.give(taken[0]!, false);
    expect(slots.roomFor("ten_quick")).toBe(1);
  });

  it("leaves destinations that answered promptly a quarter of the slots, whatever hangs", () => {
    const slots = new DestinationSlots(8);
    slots.give(slots.take("ten_quick")!, true);
    const hanging = Array.from({ length: 10 }, (_, index) => slots.take(`ten_hanging_${index}`));
    expect(hanging.filter((slot) => slot !== null)).toHaveLength(6);
    expect(slots.claimFilter()).toEqual({ only: ["ten_quick"] });
    expect(slots.take("ten_quick")).not.toBeNull();
    expect(slots.take("ten_quick")).not.toBeNull();
    expect(slots.room).toBe(0);
    expect(slots.claimFilter()).toBeNull();
  });
});
