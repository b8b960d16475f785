import type { Environment } from "../contract/air";
import type { ForcedOutcome } from "../contract/offers";

/**
 * What bounds a call: a search's own deadline (`search`), the wait of a client (`interactive`),
 * a background job's lease (`job`), or nothing (`read`: an answer from the supplier's own
 * schedules, with no remote call to bound).
 */
export type CallKind = "search" | "interactive" | "job" | "read";

/** One call to a supplier, as every stage of the pipeline sees it. */
export interface SupplierCall {
  /** The supplier's id. */
  supplier: string;
  /** The contract's method (`search`, `book`, `issueTickets`, …): how metrics name the call. */
  name: string;
  /** Whose traffic it is: each environment has its own circuit. */
  environment: Environment;
  kind: CallKind;
  /** A sandbox search's forced outcome (`supplier_behaviour`): never counted by a breaker. */
  forcedOutcome?: ForcedOutcome;
  /** A search's deadline. */
  signal?: AbortSignal;
  /** For a call whose answer may be given again to the same question: the question. */
  cacheKey?: string;
}

/** One wrapper of the pipeline: does its part around `next` (the stages inside it, then the supplier). */
export type Stage = <T>(call: SupplierCall, next: () => Promise<T>) => Promise<T>;

/** Runs a call through every stage, outermost first, then the supplier (`invoke`). */
export type RunCall = <T>(call: SupplierCall, invoke: () => Promise<T>) => Promise<T>;
