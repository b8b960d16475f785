import { intBetween, seededRandom } from "./random";
import type { CabinClass } from "../../../gateway/contract/air";

/** Share of flight-cabins that are nearly full (0–9 seats left). */
const NEARLY_FULL_SHARE = 0.15;
/** At most this share of a cabin is still for sale on a flight that is not nearly full. */
const MAX_UNSOLD_SHARE = 0.6;

/**
 * Seats initially for sale in one cabin of one flight instance, fixed by the flight key: now and
 * then a nearly full cabin (0–9), usually between 10 and 60 % of the cabin. Orders hold seats
 * against this number; the supplier itself never changes it.
 * @param capacity seats fitted in that cabin on the aircraft
 */
export function initialSeatsLeft(flightKey: string, cabin: CabinClass, capacity: number): number {
  const random = seededRandom(`seats|${flightKey}|${cabin}`);
  if (random() < NEARLY_FULL_SHARE) return intBetween(random(), 0, Math.min(9, capacity));
  const fewest = Math.min(10, capacity);
  return intBetween(random(), fewest, Math.max(fewest, Math.round(capacity * MAX_UNSOLD_SHARE)));
}
