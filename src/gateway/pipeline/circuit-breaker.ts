import { clock } from "../../clock";
import type { Environment } from "../contract/air";
import { SupplierFailed } from "../contract/errors";
import type { Stage } from "./supplier-call";

/** The supplier's circuit is open: the call was not made. */
export class CircuitOpen extends SupplierFailed {
  override name = "CircuitOpen";
}

export type CircuitState = "closed" | "open" | "half_open";

export interface BreakerSettings {
  /** Consecutive failures or timeouts that open the circuit. */
  failureThreshold: number;
  /** How long an open circuit skips the supplier before one trial call. */
  cooldownMs: number;
}

/**
 * One circuit breaker in this process: after `failureThreshold` consecutive failures or
 * timeouts the supplier is skipped for `cooldownMs`; then one trial call is let through
 * (half-open), which closes the circuit when it succeeds and opens it again when it fails.
 */
export class CircuitBreaker {
  #failures = 0;
  #openedAt: number | null = null;
  #trialInFlight = false;

  constructor(private readonly settings: BreakerSettings) {}

  get state(): CircuitState {
    if (this.#openedAt === null) return "closed";
    return clock.nowMs() - this.#openedAt >= this.settings.cooldownMs ? "half_open" : "open";
  }

  /** Whether a call may go out now; a half-open circuit lets exactly one through until it reports. */
  tryAcquire(): boolean {
    const state = this.state;
    if (state === "closed") return true;
    if (state === "open" || this.#trialInFlight) return false;
    this.#trialInFlight = true;
    return true;
  }

  succeeded(): void {
    this.#failures = 0;
    this.#openedAt = null;
    this.#trialInFlight = false;
  }

  /** A call that told nothing of the supplier (a sandbox's forced outcome, our own database failing under it): neither a success nor a failure. */
  released(): void {
    this.#trialInFlight = false;
  }

  failed(): void {
    this.#failures += 1;
    if (this.#trialInFlight || this.#failures >= this.settings.failureThreshold) this.#openedAt = clock.nowMs();
    this.#trialInFlight = false;
  }
}

/**
 * This process's circuit breakers: one per supplier and environment, so that sandbox traffic
 * (tests, a tenant's experiments) never opens the circuit live tenants' calls go through.
 */
export class Breakers {
  readonly #breakers = new Map<string, CircuitBreaker>();

  constructor(private readonly settings: BreakerSettings) {}

  of(supplier: string, environment: Environment): CircuitBreaker {
    const key = `${supplier} ${environment}`;
    let breaker = this.#breakers.get(key);
    if (!breaker) this.#breakers.set(key, (breaker = new CircuitBreaker(this.settings)));
    return breaker;
  }
}

/**
 * The breaker's stage: a call whose circuit is open is refused (CircuitOpen) without reaching
 * the supplier; every other call reports how it ended, as `outcome` reads it, except a call whose
 * outcome a sandbox search forced, and one whose error tells nothing of the supplier.
 */
export function breakerStage(breakers: Breakers, outcome: { failed(error: unknown): boolean; tellsNothing(error: unknown): boolean }): Stage {
  return async (call, next) => {
    const breaker = breakers.of(call.supplier, call.environment);
    if (!breaker.tryAcquire()) throw new CircuitOpen("the supplier's circuit is open after consecutive failures; try again after its cooldown");
    let value;
    try {
      value = await next();
    } catch (error) {
      if (call.forcedOutcome !== undefined || outcome.tellsNothing(error)) breaker.released();
      else if (outcome.failed(error)) breaker.failed();
      else breaker.succeeded();
      throw error;
    }
    if (call.forcedOutcome !== undefined) breaker.released();
    else breaker.succeeded();
    return value;
  };
}
