/** A flight longer than this is long-haul. */
const LONG_HAUL_KM = 3_000;

/**
 * Whether a slice is long-haul: one of its flights flies more than 3,000 km. Connections do not
 * add up: two 1,600 km flights are short-haul, as each aircraft flies short-haul. The one rule
 * for the free baggage of a slice (timetable/offers.ts) and the price of a bag bought for it
 * (extras.ts).
 */
export function isLongHaul(flightDistancesKm: readonly number[]): boolean {
  return flightDistancesKm.some((distanceKm) => distanceKm > LONG_HAUL_KM);
}
