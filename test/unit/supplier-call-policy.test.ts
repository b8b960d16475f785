import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import { SupplierTimeout } from "../../src/gateway/contract/errors";
import { backoff, type CallPolicy } from "../../src/gateway/pipeline/call-policy";
import { Breakers } from "../../src/gateway/pipeline/circuit-breaker";
import { pipedConnector } from "../../src/gateway/pipeline/piped-supplier";
import { callPipeline } from "../../src/gateway/pipeline/pipeline";
import { SupplierCalls } from "../../src/gateway/pipeline/supplier-calls";
import { SeatsUnavailable } from "../../src/gateway/contract/errors";
import { type Supplier } from "../../src/gateway/contract/supplier";
import { type SupplierBooking } from "../../src/gateway/contract/bookings";

/**
 * The call policy of the gateway's pipeline (docs/supplier-contract.md#timeouts-and-retries): each
 * attempt cut at its timeout, calls that failed without an answer tried again after a backoff,
 * the supplier's refusals answered at once, and no timer left behind.
 */

const POLICY: CallPolicy = { timeoutMs: 30, jobTimeoutMs: 1000, retries: 2, backoffMs: 1 };

const booking: SupplierBooking = { id: "ord_1", tenantId: "ten_1", environment: "sandbox", supplier: "scripted", segments: [], passengers: [], seats: [], services: [] };

/** A supplier whose `book` and `issueTickets` answer as `answer` says for each attempt (1-based), counting them. */
function scripted(answer: (attempt: number) => Promise<void>): { supplier: Supplier; attempts: () => number } {
  let attempts = 0;
  const supplier = {
    book: async () => {
      await answer(++attempts);
      return { outcome: "held", bookingReference: "ABC123", paymentRequiredBy: null };
    },
    issueTickets: async () => {
      await answer(++attempts);
      return { outcome: "ticketed", tickets: [] };
    },
  } as unknown as Supplier;
  return { supplier, attempts: () => attempts };
}

/** The supplier's calls through the gateway's pipeline with `policy` (a breaker that never opens in these tests). */
function piped(supplier: Supplier, policy: CallPolicy = POLICY): Supplier {
  const run = callPipeline({ calls: new SupplierCalls(), breakers: new Breakers({ failureThreshold: 1000, cooldownMs: 1 }), policy, keepMs: () => 0 });
  return pipedConnector("scripted", supplier, {}, run, false).supplier;
}

const timers = () => process.getActiveResourcesInfo().filter((resource) => resource === "Timeout").length;

describe("supplier call policy", () => {
  it("cuts an attempt at its timeout and tries again, up to the retries; then the timeout is the answer", async () => {
    const slow = scripted(() => sleep(1000));
    const calls = piped(slow.supplier);
    const started = performance.now();
    await expect(calls.book(booking)).rejects.toBeInstanceOf(SupplierTimeout);
    expect(slow.attempts()).toBe(POLICY.retries + 1);
    // Three attempts of 30 ms each, not one of a second.
    expect(performance.now() - started).toBeLessThan(1000);
  });

  it("a call that failed without an answer succeeds on a retry: the same call, asked again", async () => {
    const flaky = scripted(async (attempt) => {
      if (attempt === 1) throw new Error("connection reset");
    });
    const calls = piped(flaky.supplier);
    expect(await calls.book(booking)).toEqual({ outcome: "held", bookingReference: "ABC123", paymentRequiredBy: null });
    expect(flaky.attempts()).toBe(2);
  });

  it("answers the supplier's refusal at once, never retrying it", async () => {
    const full = scripted(async () => {
      throw new SeatsUnavailable("ZA1@2030-01-01:LHR-JFK");
    });
    const calls = piped(full.supplier);
    await expect(calls.book(booking)).rejects.toBeInstanceOf(SeatsUnavailable);
    expect(full.attempts()).toBe(1);
  });

  it("gives calls made by background jobs their own, longer timeout", async () => {
    const slowTicketing = scripted(() => sleep(60));
    const calls = piped(slowTicketing.supplier);
    expect(await calls.issueTickets(booking)).toEqual({ outcome: "ticketed", tickets: [] });
    expect(slowTicketing.attempts()).toBe(1);
  });

  it("leaves no timer behind once a call is answered", async () => {
    const before = timers();
    const fast = scripted(() => Promise.resolve());
    await piped(fast.supplier, { ...POLICY, timeoutMs: 60_000 }).book(booking);
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
