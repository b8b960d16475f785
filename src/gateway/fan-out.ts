import { databaseFault } from "../db/errors";
import { SupplierAccountRefused } from "./contract/errors";
import type { SearchedSupplier, SupplierBatch, SupplierStatus } from "./contract/gateway";
import type { SupplierOffer } from "./contract/offers";
import { CircuitOpen } from "./pipeline/circuit-breaker";
import { outcomeOf } from "./pipeline/outcomes";

/**
 * Why a search's suppliers are let go (the abort's reason): an AbortError, as `abort()` gives, but
 * made once; `abort()` without a reason makes one, stack and all, on every search (~1 % of its CPU).
 */
const DEADLINE_PASSED = new DOMException("the search's deadline passed, or it was answered", "AbortError");

/**
 * Asks every supplier at once, each bounded by the one deadline (`deadlineMs` from now), and
 * answers as soon as all have answered or at the deadline with what has arrived: a supplier still
 * out is `timeout`, and its call is aborted then (its timers and requests end with it), so
 * nothing outlives the answer. A supplier whose circuit is open was not asked (`unavailable`:
 * the pipeline's breaker refused the call). A supplier that says it cannot answer in time (a rate
 * limit that resets after the deadline) is `timeout` too; one that refused the tenant's own
 * account is `error`. `onBatch` hears each batch as it is settled, in the order they settle.
 * `stop` (the process shutting down) brings the deadline forward: whoever is still out then is
 * `timeout`.
 */
export async function fanOut(
  suppliers: readonly SearchedSupplier[],
  ask: (supplier: SearchedSupplier, signal: AbortSignal) => Promise<SupplierOffer[]>,
  deadlineMs: number,
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
  const settle = (supplier: SearchedSupplier, status: SupplierStatus, offers: SupplierOffer[]): SupplierBatch => {
    const batch = { supplier: supplier.ref, offers, result: { supplier: supplier.ref.id, status, offerCount: offers.length, durationMs: Math.round(performance.now() - startedAt) } };
    onBatch?.(batch);
    return batch;
  };
  const one = async (supplier: SearchedSupplier): Promise<SupplierBatch> => {
    const answer = ask(supplier, deadline.signal).then(
      (offers) => ({ offers }),
      (error: unknown) => ({ error }),
    );
    const outcome = await Promise.race([answer, deadlinePassed]);
    if (outcome === "deadline") return settle(supplier, "timeout", []);
    if ("error" in outcome) {
      // Our own database failing under a supplier's answer (an outage) is not the supplier's
      // failure: the search itself is refused (503).
      if (databaseFault(outcome.error)) throw outcome.error;
      if (outcome.error instanceof CircuitOpen) return settle(supplier, "unavailable", []);
      if (outcome.error instanceof SupplierAccountRefused) return settle(supplier, "error", []);
      const timedOut = deadline.signal.aborted || outcomeOf(outcome.error) === "timeout";
      return settle(supplier, timedOut ? "timeout" : "error", []);
    }
    return settle(supplier, "ok", outcome.offers);
  };
  try {
    return await Promise.all(suppliers.map(one));
  } finally {
    clearTimeout(timer);
    stop?.removeEventListener("abort", stopNow);
    // Whoever is still out is let go: its waits and requests end now, not at its own pace.
    deadline.abort(DEADLINE_PASSED);
  }
}
