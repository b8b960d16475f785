import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { backoff, SupplierCallPolicy, SupplierTimeout, type CallPolicy } from "../../src/gateway/pipeline/call-policy";
import { SeatsUnavailable, type Supplier, type SupplierBooking } from "../../src/gateway/contract/supplier";

/**
 * The call policy around a supplier (docs/supplier-contract.md#timeouts-and-retries): each
 * attempt cut at its timeout, calls that failed without an answer tried again after a backoff,
 * the supplier's refusals answered at once, and no timer left behind.
 */

const POLICY: CallPolicy = { timeoutMs: 30, jobTimeoutMs: 1000, retries: 2, backoffMs: 1 };

const booking: SupplierBooking = { id: "ord_1", tenantId: "ten_1", environment: "sandbox", segments: [], passengers: [], seats: [] };

/** A supplier whose `holdSeats` and `issueTickets` answer as `answer` says for each attempt (1-based), counting them. */
function scripted(answer: (attempt: number) => Promise<void>): { supplier: Supplier; attempts: () => number } {
  let attempts = 0;
  const supplier = {
    name: "scripted",
    holdSeats: async () => {
      await answer(++attempts);
      return { bookingReference: "ABC123" };
    },
    issueTickets: async () => {
      await answer(++attempts);
      return { outcome: "ticketed", tickets: [] };
    },
  } as unknown as Supplier;
  return { supplier, attempts: () => attempts };
}

const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;

describe("supplier call policy", () => {
  it("cuts an attempt at its timeout and tries again, up to the retries; then the timeout is the answer", async () => {
    const slow = scripted(() => sleep(1000));
    const calls = new SupplierCallPolicy(slow.supplier, POLICY);
    const started = performance.now();
    await expect(calls.holdSeats(booking)).rejects.toBeInstanceOf(SupplierTimeout);
    expect(slow.attempts()).toBe(POLICY.retries + 1);
    // Three attempts of 30 ms each, not one of a second.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("a call that failed without an answer succeeds on a retry: the same call, asked again", async () => {
    const flaky = scripted(async (attempt) => {
      if (attempt === 1) throw new Error("connection reset");
    });
    const calls = new SupplierCallPolicy(flaky.supplier, POLICY);
    expect(await calls.holdSeats(booking)).toEqual({ bookingReference: "ABC123" });
    expect(flaky.attempts()).toBe(2);
  });

  it("answers the supplier's refusal at once, never retrying it", async () => {
    const full = scripted(async () => {
      throw new SeatsUnavailable("ZA1@2030-01-01:LHR-JFK");
    });
    const calls = new SupplierCallPolicy(full.supplier, POLICY);
    await expect(calls.holdSeats(booking)).rejects.toBeInstanceOf(SeatsUnavailable);
    expect(full.attempts()).toBe(1);
  });

  it("gives calls made by background jobs their own, longer timeout", async () => {
    const slowTicketing = scripted(() => sleep(60));
    const calls = new SupplierCallPolicy(slowTicketing.supplier, POLICY);
    expect(await calls.issueTickets(booking)).toEqual({ outcome: "ticketed", tickets: [] });
    expect(slowTicketing.attempts()).toBe(1);
  });

  it("leaves no timer behind once a call is answered", async () => {
    const before = timers();
    const fast = scripted(() => Promise.resolve());
    await new SupplierCallPolicy(fast.supplier, { ...POLICY, timeoutMs: 60_000 }).holdSeats(booking);
    expect(timers()).toBe(before);
  });

  it("backs off by doubling, with up to half of each wait taken off at random", () => {
    for (let retry = 0; retry < 5; retry++) {
      const full = 100 * 2 ** retry;
      for (let sample = 0; sample < 50; sample++) {
        const wait = backoff(100, retry);
        expect(wait).toBeGreaterThanOrEqual(full / 2);
        expect(wait).toBeLessThanOrEqual(full);
      }
    }
  });
});
