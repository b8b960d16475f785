import type { Logger } from "../../logger";
import { answerCache } from "./answer-cache";
import { callPolicy, type CallPolicy } from "./call-policy";
import { breakerStage, type Breakers } from "./circuit-breaker";
import { isRefusal } from "../contract/errors";
import { outcomeOf, tellsNothingOfSupplier } from "./outcomes";
import { sandboxFaults } from "./sandbox-faults";
import type { SupplierCalls } from "./supplier-calls";
import type { RunCall, Stage } from "./supplier-call";

export interface PipelineParts {
  calls: SupplierCalls;
  breakers: Breakers;
  policy: CallPolicy;
  /** How long each supplier's answers may be given again (its connector's `answersKeepMs`). */
  keepMs: (supplier: string) => number;
  log?: Logger;
}

/**
 * The one pipeline every call of every connector goes through (piped-supplier.ts applies it),
 * outermost first:
 * 1. sandbox faults: a sandbox search's forced `timeout` or `error` is answered here, so it never
 *    reaches a breaker or a figure;
 * 2. the circuit breaker of the supplier and the call's environment: an open circuit refuses the
 *    call, and every call that reached the supplier reports to it;
 * 3. metrics: duration and outcome of every call made (Prometheus, the health figures);
 * 4. the cache: an answer given again for the same question, as long as the supplier allows;
 * 5. the call policy: each attempt's timeout, and retries of what failed without an answer.
 */
export function callPipeline(parts: PipelineParts): RunCall {
  const stages: Stage[] = [
    sandboxFaults,
    breakerStage(parts.breakers, { failed: (error) => outcomeOf(error) !== "ok", tellsNothing: tellsNothingOfSupplier }),
    parts.calls.stage(outcomeOf),
    answerCache(parts.keepMs),
    callPolicy(parts.policy, isRefusal, parts.log),
  ];
  return <T>(call: Parameters<RunCall>[0], invoke: () => Promise<T>): Promise<T> => stages.reduceRight<() => Promise<T>>((next, stage) => () => stage(call, next), invoke)();
}
