import { SearchAbandoned, SupplierFailed } from "../../gateway/contract/errors";
import type { SupplierSearch } from "../../gateway/contract/offers";
import { unitHash } from "./timetable/random";

/** How a simulated remote source behaves: how long it takes to answer a search, and how often it fails. */
export interface LatencyProfile {
  /** Every search answers after a latency drawn between these bounds (inclusive, ms). */
  latencyMs: { min: number; max: number };
  /** The share of searches that fail, 0–1. */
  failureRate: number;
}

/**
 * Waits as a remote source would before it answers the search, and fails it as often as the
 * profile says. Both draws are fixed by the search itself (its slices, passengers and cabin), so
 * the same request meets the same fate every time and a test can pin it; a sandbox search forcing
 * `ok` is never failed. Every wait ends when the search's signal aborts (SearchAbandoned).
 */
export async function asProfiled(request: SupplierSearch, profile: LatencyProfile): Promise<void> {
  const { min, max } = profile.latencyMs;
  // A source that answers at once and never fails (the network) draws nothing: no key, no timer.
  if (max === 0 && profile.failureRate === 0) return;
  const key = requestKey(request);
  if (max > 0) await abortable(request.signal, min + Math.floor(unitHash(`latency|${key}`) * (max - min + 1)));
  if (request.forcedOutcome !== "ok" && profile.failureRate > 0 && unitHash(`failure|${key}`) < profile.failureRate) throw new SupplierFailed("the supplier failed the search");
}

function requestKey(request: SupplierSearch): string {
  return JSON.stringify([
    request.slices.map((slice) => [slice.origins.map((airport) => airport.iataCode), slice.destinations.map((airport) => airport.iataCode), slice.departureDate]),
    request.passengers.map((passenger) => [passenger.id, passenger.type]),
    request.cabinClass,
    request.maxConnections,
  ]);
}

/** Waits `ms` or until `signal` aborts, whichever is first; the timer never outlives the wait. */
function abortable(signal: AbortSignal | undefined, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(new SearchAbandoned("the search's deadline passed"));
    const timer = setTimeout(done, ms);
    function done(): void {
      signal?.removeEventListener("abort", aborted);
      resolve();
    }
    function aborted(): void {
      clearTimeout(timer);
      reject(new SearchAbandoned("the search's deadline passed"));
    }
    signal?.addEventListener("abort", aborted, { once: true });
  });
}
