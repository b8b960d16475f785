import { appError } from "../../errors/app-error";
import { SearchAbandoned, SupplierFailed } from "../../gateway/contract/errors";

/**
 * How a scripted call ends: `ok` (answers), `fail` (the supplier's own failure, which a circuit
 * breaker counts), `refuse` (a refusal, 422 `offer_no_longer_available`: an answer, never
 * retried), `hang` (a search that never answers: its deadline ends it).
 */
export type ScriptedOutcome = "ok" | "fail" | "refuse" | "hang";

/**
 * What the tests tell the scripted supplier: how its next calls end, call by call (a contract
 * method's name). A call with nothing scripted answers. There is one script per process, and
 * vitest runs each test file in a process of its own: a suite steers its own server's supplier.
 */
export class Script {
  readonly #next = new Map<string, ScriptedOutcome[]>();

  /** The next `times` calls of `call` end with `outcome` (after whatever was scripted for it before). */
  next(call: string, outcome: ScriptedOutcome, times = 1): void {
    this.#next.set(call, [...(this.#next.get(call) ?? []), ...Array.from({ length: times }, () => outcome)]);
  }

  /** Nothing scripted any more: every call answers. */
  reset(): void {
    this.#next.clear();
  }

  /** Plays the next outcome scripted for `call`: resolves for `ok`, else throws as the outcome says (`hang` waits for `signal`). */
  async play(call: string, signal?: AbortSignal): Promise<void> {
    const outcome = this.#next.get(call)?.shift() ?? "ok";
    if (outcome === "fail") throw new SupplierFailed(`the script failed ${call}`);
    if (outcome === "refuse") throw appError("offer_no_longer_available", { reason: `The script refused ${call}.` });
    if (outcome === "hang") {
      if (!signal) throw new SupplierFailed(`the script hung ${call}, which has no deadline to end it`);
      await new Promise<never>((_, reject) => signal.addEventListener("abort", () => reject(new SearchAbandoned("the search's deadline passed")), { once: true }));
    }
  }
}

/** This process's script. */
export const script = new Script();
