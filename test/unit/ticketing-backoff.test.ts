import { describe, expect, it } from "vitest";
import { FIRST_READ_MS, LONGEST_WAIT_MS, TICKETS_AWAITED_MS, nextTicketingRead } from "../../src/orders/jobs/ticketing-backoff";

const asked = new Date("2030-03-01T10:00:00Z");
const after = (ms: number) => new Date(asked.getTime() + ms);
const waitAt = (ms: number) => nextTicketingRead(asked, after(ms))!.getTime() - after(ms).getTime();

describe("a pending ticketing's next read", () => {
  it("waits at least FIRST_READ_MS, then half the time waited so far, at most LONGEST_WAIT_MS", () => {
    expect(waitAt(0)).toBe(FIRST_READ_MS);
    expect(waitAt(60_000)).toBe(30_000);
    expect(waitAt(3_600_000)).toBe(LONGEST_WAIT_MS);
  });

  it("grows with each read: the waits of successive reads never shrink", () => {
    let now = 0;
    const waits: number[] = [];
    for (let read = 0; read < 20; read++) {
      const wait = waitAt(now);
      waits.push(wait);
      now += wait;
    }
    expect(waits).toEqual([...waits].sort((a, b) => a - b));
    expect(waits[0]).toBeLessThan(waits[10]!);
  });

  it("asks no more once the ticketing has waited TICKETS_AWAITED_MS", () => {
    expect(nextTicketingRead(asked, after(TICKETS_AWAITED_MS - 1))).not.toBeNull();
    expect(nextTicketingRead(asked, after(TICKETS_AWAITED_MS))).toBeNull();
  });
});
