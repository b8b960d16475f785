import type { CabinClass } from "../../../gateway/contract/air";
import type { LayoutSeat, RowKind, SeatPosition } from "./cabin-layout";

/**
 * What the simulated airline asks for choosing a seat, in US cents before the flight's demand
 * factor: middle seats free, windows and aisles a little more, bulkhead (extra legroom) and exit
 * rows most. Premium cabins include seat choice.
 */
const ECONOMY: Record<RowKind, Record<SeatPosition, number>> = {
  standard: { middle: 0, aisle: 900, window: 1100 },
  extra_legroom: { middle: 3000, aisle: 3500, window: 3500 },
  exit: { middle: 4000, aisle: 4500, window: 4500 },
};
const PREMIUM_ECONOMY: Record<RowKind, Record<SeatPosition, number>> = {
  standard: { middle: 0, aisle: 1500, window: 1500 },
  extra_legroom: { middle: 2500, aisle: 3000, window: 3000 },
  exit: { middle: 3000, aisle: 3500, window: 3500 },
};
/** Paid seats in the front third of the cabin cost this much more: off the plane sooner. */
const FORWARD_SURCHARGE = 400;
/** Prices are whole half-dollars. */
const STEP = 50;

/** What a low-cost carrier asks for a seat the network gives free (a middle seat). */
const LOW_COST_MINIMUM = 600;

/**
 * The seat's price in US cents on a flight whose demand scales prices by `factor`; on a carrier
 * that charges for every seat (`everySeatPaid`), no economy seat is free.
 */
export function seatPriceUsd(cabin: CabinClass, seat: LayoutSeat, factor: number, everySeatPaid = false): number {
  const table = cabin === "economy" ? ECONOMY : cabin === "premium_economy" ? PREMIUM_ECONOMY : null;
  const listed = table?.[seat.rowKind][seat.position] ?? 0;
  const base = listed === 0 && everySeatPaid && table !== null ? LOW_COST_MINIMUM : listed;
  if (base === 0) return 0;
  return Math.round(((base + (seat.forward ? FORWARD_SURCHARGE : 0)) * factor) / STEP) * STEP;
}
