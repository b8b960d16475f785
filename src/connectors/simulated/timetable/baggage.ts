import type { FareFamily } from "./carriers";
import { CABIN_CLASSES, type BaggageAllowance, type CabinClass, type PassengerType } from "../../../gateway/contract/air";

export type Allowances = Readonly<Record<PassengerType, readonly BaggageAllowance[]>>;

function bags(checked: number, carryOn: number): BaggageAllowance[] {
  return [
    { type: "checked", quantity: checked },
    { type: "carry_on", quantity: carryOn },
  ];
}

function allowance(fareFamily: FareFamily, cabin: CabinClass, longHaul: boolean): Allowances {
  if (fareFamily === "value") {
    return { adult: bags(0, 1), child: bags(0, 1), infant_without_seat: bags(0, 0) };
  }
  const checked = { economy: longHaul ? 1 : 0, premium_economy: longHaul ? 2 : 1, business: 2, first: 3 }[cabin];
  const carryOn = cabin === "business" || cabin === "first" ? 2 : 1;
  // Infants travel on a lap: no cabin bag of their own, one checked item (pushchair, bag).
  return { adult: bags(checked, carryOn), child: bags(checked, carryOn), infant_without_seat: bags(1, 0) };
}

/** Every combination precomputed and frozen: offers share these objects instead of allocating. */
const ALLOWANCES = new Map<string, Allowances>();
for (const fareFamily of ["full_service", "value"] as const) {
  for (const cabin of CABIN_CLASSES) {
    for (const longHaul of [false, true]) {
      const table = allowance(fareFamily, cabin, longHaul);
      for (const list of Object.values(table)) for (const item of list) Object.freeze(item);
      ALLOWANCES.set(`${fareFamily}|${cabin}|${longHaul}`, Object.freeze(table));
    }
  }
}

/**
 * Free baggage per passenger type for a segment flown in `cabin`: more for higher cabins and
 * long-haul slices (long-haul.ts), none checked on a value carrier.
 */
export function baggageAllowances(fareFamily: FareFamily, cabin: CabinClass, longHaul: boolean): Allowances {
  return ALLOWANCES.get(`${fareFamily}|${cabin}|${longHaul}`)!;
}
