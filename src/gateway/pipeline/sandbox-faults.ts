import { SearchAbandoned, SupplierFailed } from "../contract/errors";
import type { Stage } from "./supplier-call";

/**
 * A sandbox search's forced outcome (`supplier_behaviour`), outermost in the pipeline: `timeout`
 * hangs until the search's deadline, `error` fails, both without asking the supplier, so neither
 * is a call any breaker or figure counts; `ok` goes on to the supplier, which answers whatever its
 * own failures (a simulated supplier's failure rate) would have been.
 */
export const sandboxFaults: Stage = (call, next) => {
  if (call.forcedOutcome === "timeout") return untilAborted(call.signal);
  if (call.forcedOutcome === "error") return Promise.reject(new SupplierFailed("the sandbox search forced the supplier to fail"));
  return next();
};

/** Never answers: rejects with SearchAbandoned when the search's deadline aborts `signal`. */
function untilAborted(signal: AbortSignal | undefined): Promise<never> {
  return new Promise((_, reject) => {
    const abandoned = () => reject(new SearchAbandoned("the search's deadline passed"));
    if (!signal) return reject(new SearchAbandoned("a search forced to time out has no deadline to wait for"));
    if (signal.aborted) return abandoned();
    signal.addEventListener("abort", abandoned, { once: true });
  });
}
