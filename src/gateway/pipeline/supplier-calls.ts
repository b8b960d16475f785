import { clock } from "../../clock";
import type { CallOutcome } from "./outcomes";
import type { Stage } from "./supplier-call";

/** One call to a supplier as it ended. */
export interface EndedCall {
  supplier: string;
  /** The contract's method, e.g. `search`, `book`. */
  call: string;
  outcome: CallOutcome;
  durationMs: number;
  endedAt: number;
}

/**
 * This process's calls to its suppliers, as the pipeline's metrics stage sees them: the calls in
 * flight, and every ended call told to its listeners (Prometheus, the health figures).
 */
export class SupplierCalls {
  readonly #inFlight = new Map<string, number>();
  readonly #listeners: Array<(call: EndedCall) => void> = [];

  /** Calls to `supplier` not yet ended in this process. */
  inFlight(supplier: string): number {
    return this.#inFlight.get(supplier) ?? 0;
  }

  onCall(listener: (call: EndedCall) => void): void {
    this.#listeners.push(listener);
  }

  /** The metrics stage: every call counted, its duration and its outcome (`outcomeOf` reads a thrown error). */
  stage(outcomeOf: (error: unknown) => CallOutcome): Stage {
    return async (call, next) => {
      const startedAt = performance.now();
      this.#inFlight.set(call.supplier, this.inFlight(call.supplier) + 1);
      const end = (outcome: CallOutcome) => this.#ended({ supplier: call.supplier, call: call.name, outcome, durationMs: performance.now() - startedAt });
      let value;
      try {
        value = await next();
      } catch (error) {
        end(outcomeOf(error));
        throw error;
      }
      end("ok");
      return value;
    };
  }

  #ended(call: Omit<EndedCall, "endedAt">): void {
    this.#inFlight.set(call.supplier, this.inFlight(call.supplier) - 1);
    const ended = { ...call, endedAt: clock.nowMs() };
    for (const listener of this.#listeners) listener(ended);
  }
}
