import { databaseFault } from "../db/errors";
import { AppError } from "../errors/app-error";
import type { RegisteredSupplier } from "./registry";
import type { SupplierCalls } from "./pipeline/supplier-calls";
import { SupplierAccountRefused, type SupplierOffer } from "./contract/supplier";

export type SupplierStatus = "ok" | "timeout" | "error" | "unavailable";

/**
 * Why a search's suppliers are let go (the abort's reason): an AbortError, as `abort()` gives, but
 * made once; `abort()` without a reason makes one, stack and all, on every search (~1 % of its CPU).
 */
const DEADLINE_PASSED = new DOMException("the search's deadline passed, or it was answered", "AbortError");

/** How one supplier did in one search, as `supplier_results` shows it. */
export interface SupplierResult {
  supplier: string;
  status: SupplierStatus;
  offerCount: number;
  durationMs: number;
}

/** One supplier's part of a search: its result, and its offers when it answered. */
export interface SupplierBatch {
  entry: RegisteredSupplier;
  result: SupplierResult;
  offers: SupplierOffer[];
}

/**
 * Asks every supplier at once, each bounded by the one deadline (`deadlineMs` from now), and
 * answers as soon as all have answered or at the deadline with what has arrived: a supplier still
 * out is `timeout`, and its call is aborted then (its timers and requests end with it), so
 * nothing outlives the answer. A supplier whose circuit is open is not asked (`unavailable`).
 * A supplier that says it cannot answer in time (a rate limit that resets after the deadline) is
 * `timeout` too. Each answer feeds its supplier's breaker, but for a refusal of the tenant's own
 * account (SupplierAccountRefused: `error`, and the supplier is well); `onBatch` hears each batch
 * as it is settled, in the order they settle. `stop` (the process shutting down) brings the
 * deadline forward: whoever is still out then is `timeout`.
 */
export async function fanOut(
  entries: readonly RegisteredSupplier[],
  ask: (entry: RegisteredSupplier, signal: AbortSignal) => Promise<SupplierOffer[]>,
  deadlineMs: number,
  calls: SupplierCalls,
  onBatch?: (batch: SupplierBatch) => void,
  stop?: AbortSignal,
): Promise<SupplierBatch[]> {
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(DEADLINE_PASSED), deadlineMs);
  const deadlinePassed = new Promise<"deadline">((resolve) => deadline.signal.addEventListener("abort", () => resolve("deadline"), { once: true }));
  const stopNow = () => deadline.abort(DEADLINE_PASSED);
  if (stop?.aborted) stopNow();
  else stop?.addEventListener("abort", stopNow, { once: true });
  const startedAt = performance.now();
  const settle = (entry: RegisteredSupplier, status: SupplierStatus, offers: SupplierOffer[]): SupplierBatch => {
    const batch = { entry, offers, result: { supplier: entry.id, status, offerCount: offers.length, durationMs: Math.round(performance.now() - startedAt) } };
    onBatch?.(batch);
    return batch;
  };
  const one = async (entry: RegisteredSupplier): Promise<SupplierBatch> => {
    const breaker = calls.breaker(entry.id);
    if (!breaker.tryAcquire()) return settle(entry, "unavailable", []);
    const answer = ask(entry, deadline.signal).then(
      (offers) => ({ offers }),
      (error: unknown) => ({ error }),
    );
    const outcome = await Promise.race([answer, deadlinePassed]);
    if (outcome === "deadline") {
      breaker.failed();
      return settle(entry, "timeout", []);
    }
    if ("error" in outcome) {
      // Our own database failing under a supplier's answer (an outage) is not the supplier's
      // failure: the search itself is refused (503), and the supplier's circuit stays as it was.
      if (databaseFault(outcome.error)) {
        breaker.released();
        throw outcome.error;
      }
      if (outcome.error instanceof SupplierAccountRefused) {
        breaker.released();
        return settle(entry, "error", []);
      }
      breaker.failed();
      const timedOut = deadline.signal.aborted || (outcome.error instanceof AppError && outcome.error.code === "supplier_timeout");
      return settle(entry, timedOut ? "timeout" : "error", []);
    }
    breaker.succeeded();
    return settle(entry, "ok", outcome.offers);
  };
  try {
    return await Promise.all(entries.map(one));
  } finally {
    clearTimeout(timer);
    stop?.removeEventListener("abort", stopNow);
    // Whoever is still out is let go: its waits and requests end now, not at its own pace.
    deadline.abort(DEADLINE_PASSED);
  }
}
