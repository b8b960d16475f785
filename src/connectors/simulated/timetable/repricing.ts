import { unitHash } from "./random";

const DAY_MS = 86_400_000;
/** Weeks before departure from which fares start to climb, one percent a week. */
const CLIMB_WEEKS = 8;

/**
 * How much the simulated airline's fare for a booking has risen, in percent of its base fare, when
 * it prices the booking again after the price guarantee ran out: fares rise as departure nears.
 * At least 2 % (a booking's seeded 2–5 %), plus 1 % per week closer than eight weeks. The same
 * booking on the same day always gets the same answer.
 */
export function fareRisePercent(bookingReference: string, firstDepartureUtc: Date, now: Date): number {
  const weeksLeft = Math.max(0, Math.floor((firstDepartureUtc.getTime() - now.getTime()) / (7 * DAY_MS)));
  return 2 + Math.floor(unitHash(`reprice|${bookingReference}`) * 4) + Math.max(0, CLIMB_WEEKS - weeksLeft);
}
