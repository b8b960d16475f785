import { unitHash } from "./timetable/random";
import { SupplierFailed, type Supplier, type SupplierOffer, type SupplierSearch } from "../../gateway/contract/supplier";

/** The search's deadline passed while the supplier was still answering: it stopped. */
export class SearchAbandoned extends SupplierFailed {
  override name = "SearchAbandoned";
}

/** How a simulated remote source behaves: how long it takes to answer a search, and how often it fails. */
export interface SupplierProfile {
  /** Every search answers after a latency drawn between these bounds (inclusive, ms). */
  latencyMs: { min: number; max: number };
  /** The share of searches that fail, 0–1. */
  failureRate: number;
}

/**
 * The supplier with its searches answered as a remote source's would be: after a latency drawn
 * from the profile, failing a share of them. Both draws are fixed by the search itself (its
 * slices, passengers and cabin), so the same request meets the same fate every time and a test
 * can pin it. A sandbox search may force the outcome (`forcedOutcome`): `timeout` hangs until
 * the search's deadline aborts it. Every wait ends when the search's signal aborts.
 */
export function withProfile(inner: Supplier, profile: SupplierProfile): Supplier {
  const { min, max } = profile.latencyMs;
  const search = async (request: SupplierSearch): Promise<SupplierOffer[]> => {
    if (request.forcedOutcome === "timeout") {
      await abortable(request.signal, undefined);
    }
    // A source that answers at once and never fails (the network) draws nothing: no key, no timer.
    const key = max > 0 || profile.failureRate > 0 ? requestKey(request) : "";
    if (max > 0) await abortable(request.signal, min + Math.floor(unitHash(`latency|${key}`) * (max - min + 1)));
    const fails = request.forcedOutcome === "error" || (request.forcedOutcome !== "ok" && profile.failureRate > 0 && unitHash(`failure|${key}`) < profile.failureRate);
    if (fails) throw new SupplierFailed("the supplier failed the search");
    return inner.search(request);
  };
  return new Proxy(inner, {
    get: (target, property) => (property === "search" ? search : bound(target, property)),
  });
}

/** A property of `target`, its methods bound to it (private fields need their own `this`). */
function bound<T extends object>(target: T, property: string | symbol): unknown {
  const value: unknown = Reflect.get(target, property);
  return typeof value === "function" ? (value as (...args: unknown[]) => unknown).bind(target) : value;
}

function requestKey(request: SupplierSearch): string {
  return JSON.stringify([
    request.slices.map((slice) => [slice.origins.map((airport) => airport.iataCode), slice.destinations.map((airport) => airport.iataCode), slice.departureDate]),
    request.passengers.map((passenger) => [passenger.id, passenger.type]),
    request.cabinClass,
    request.maxConnections,
  ]);
}

/** Waits `ms` (forever when undefined) or until `signal` aborts, whichever is first; the timer never outlives the wait. */
function abortable(signal: AbortSignal | undefined, ms: number | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new SearchAbandoned("the search's deadline passed"));
    const timer = ms === undefined ? undefined : setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }
    function aborted(): void {
      clearTimeout(timer);
      reject(new SearchAbandoned("the search's deadline passed"));
    }
    signal?.addEventListener("abort", aborted, { once: true });
    if (ms === undefined && !signal) reject(new SearchAbandoned("a search forced to time out has no deadline to wait for"));
  });
}
