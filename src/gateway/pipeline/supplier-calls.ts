import { clock } from "../../clock";
import { CircuitBreaker, type BreakerSettings } from "./circuit-breaker";
import type { Supplier } from "../contract/supplier";

export type CallOutcome = "ok" | "error" | "timeout";

/** One call to a supplier as it ended. */
export interface SupplierCall {
  supplier: string;
  /** The Supplier method, e.g. `search`, `holdSeats`. */
  call: string;
  outcome: CallOutcome;
  durationMs: number;
  endedAt: number;
}

/**
 * This process's calls to its suppliers: each supplier's circuit breaker, the calls in flight,
 * and every ended call told to its listeners (metrics, the health figures).
 */
export class SupplierCalls {
  readonly #breakers = new Map<string, CircuitBreaker>();
  readonly #inFlight = new Map<string, number>();
  readonly #listeners: Array<(call: SupplierCall) => void> = [];

  constructor(private readonly breakerSettings: BreakerSettings) {}

  breaker(supplier: string): CircuitBreaker {
    let breaker = this.#breakers.get(supplier);
    if (!breaker) this.#breakers.set(supplier, (breaker = new CircuitBreaker(this.breakerSettings)));
    return breaker;
  }

  /** Calls to `supplier` not yet ended in this process. */
  inFlight(supplier: string): number {
    return this.#inFlight.get(supplier) ?? 0;
  }

  onCall(listener: (call: SupplierCall) => void): void {
    this.#listeners.push(listener);
  }

  started(supplier: string): void {
    this.#inFlight.set(supplier, this.inFlight(supplier) + 1);
  }

  /** A call ended: its outcome is told to the listeners. */
  ended(call: Omit<SupplierCall, "endedAt">): void {
    this.#inFlight.set(call.supplier, this.inFlight(call.supplier) - 1);
    const ended = { ...call, endedAt: clock.nowMs() };
    for (const listener of this.#listeners) listener(ended);
  }

  /**
   * The supplier with every call counted: its duration and outcome. A thrown error is the
   * supplier's `error`, unless `classify` says it was a deadline (`timeout`) or a refusal the
   * supplier answered with (`ok`: seats sold out, say). The breaker is fed by the search fan-out.
   */
  instrument(supplierId: string, supplier: Supplier, classify: (error: unknown) => CallOutcome): Supplier {
    return new Proxy(supplier, {
      get: (target, property) => {
        const value: unknown = Reflect.get(target, property);
        if (typeof value !== "function" || typeof property !== "string") return value;
        const method = value as (...args: unknown[]) => unknown;
        return (...args: unknown[]) => this.#measure(supplierId, property, () => method.apply(target, args), classify);
      },
    });
  }

  #measure(supplier: string, call: string, work: () => unknown, classify: (error: unknown) => CallOutcome): unknown {
    const startedAt = performance.now();
    this.started(supplier);
    const end = (outcome: CallOutcome) => this.ended({ supplier, call, outcome, durationMs: performance.now() - startedAt });
    let result: unknown;
    try {
      result = work();
    } catch (error) {
      end(classify(error));
      throw error;
    }
    if (!(result instanceof Promise)) {
      end("ok");
      return result;
    }
    return result.then(
      (value: unknown) => {
        end("ok");
        return value;
      },
      (error: unknown) => {
        end(classify(error));
        throw error;
      },
    );
  }
}
