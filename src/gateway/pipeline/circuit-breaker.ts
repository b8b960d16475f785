import { clock } from "../../clock";
import { SupplierFailed } from "../contract/supplier";

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
 * One supplier's circuit breaker in this process: after `failureThreshold` consecutive failures
 * or timeouts the supplier is skipped for `cooldownMs`; then one trial call is let through
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

  /** A call that told nothing of the supplier (our own database failed under it): neither a success nor a failure. */
  released(): void {
    this.#trialInFlight = false;
  }

  /**
   * Runs a call that goes out to the supplier directly (a connector's HTTP exchange) under the
   * breaker: refused with CircuitOpen while the circuit is open, counted a success when it
   * resolves and a failure when it rejects.
   */
  async run<T>(attempt: () => Promise<T>): Promise<T> {
    if (!this.tryAcquire()) throw new CircuitOpen("the supplier's circuit is open after consecutive failures; try again after its cooldown");
    let result: T;
    try {
      result = await attempt();
    } catch (error) {
      this.failed();
      throw error;
    }
    this.succeeded();
    return result;
  }

  failed(): void {
    this.#failures += 1;
    if (this.#trialInFlight || this.#failures >= this.settings.failureThreshold) this.#openedAt = clock.nowMs();
    this.#trialInFlight = false;
  }
}
