import { seededRandom } from "../timetable/random";
import type { LayoutSeat, SeatPosition } from "./cabin-layout";

/** How strongly the airline's own customers pick each kind of seat before ours see the map. */
const POSITION_APPEAL: Record<SeatPosition, number> = { window: 3, aisle: 3, middle: 1 };
const EXTRA_LEGROOM_APPEAL = 1.5;

/**
 * The designators of the `count` seats of one cabin the airline has sold itself, fixed by the
 * flight key: a weighted draw without replacement (each seat's key is u^(1/weight), the largest
 * keys win), so windows, aisles and legroom go first, as they do on real flights.
 */
export function seatsSoldByAirline(flightKey: string, cabinClass: string, seats: readonly LayoutSeat[], count: number): Set<string> {
  const random = seededRandom(`seat-map|${flightKey}|${cabinClass}`);
  const keyed = seats.map((seat) => {
    const weight = POSITION_APPEAL[seat.position] * (seat.rowKind === "standard" ? 1 : EXTRA_LEGROOM_APPEAL);
    return { designator: seat.designator, key: random() ** (1 / weight) };
  });
  keyed.sort((a, b) => b.key - a.key);
  return new Set(keyed.slice(0, count).map((seat) => seat.designator));
}
