import type { PassengerType } from "../../../gateway/contract/air";
import type { LayoutSeat } from "./cabin-layout";

const POSITION_NAMES = { window: "window seat", aisle: "aisle seat", middle: "middle seat" } as const;
const ROW_NAMES = { standard: "", extra_legroom: "Extra legroom ", exit: "Exit row " } as const;

/** What the map calls a seat: "Window seat", "Exit row aisle seat". */
export function seatName(seat: LayoutSeat): string {
  const name = `${ROW_NAMES[seat.rowKind]}${POSITION_NAMES[seat.position]}`;
  return name[0]!.toUpperCase() + name.slice(1);
}

const EXIT_ROW_DISCLOSURES: readonly string[] = [
  "Exit row: only adults willing and able to help open the exit in an emergency may sit here.",
  "Bags must be stowed overhead during take-off and landing.",
];
const NO_DISCLOSURES: readonly string[] = [];

/** The rules a passenger accepts with the seat (Duffel's `disclosures`): exit rows have some. */
export function seatDisclosures(seat: LayoutSeat): readonly string[] {
  return seat.rowKind === "exit" ? EXIT_ROW_DISCLOSURES : NO_DISCLOSURES;
}

/** Who may be given the seat: never a lap infant (no seat of their own); exit rows only adults. */
export function maySit(seat: LayoutSeat, passenger: PassengerType): boolean {
  if (passenger === "infant_without_seat") return false;
  return seat.rowKind !== "exit" || passenger === "adult";
}
