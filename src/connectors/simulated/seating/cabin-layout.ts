import type { AircraftType } from "../timetable/aircraft";
import { CABIN_CLASSES, type CabinClass } from "../../../gateway/contract/air";
import type { FacilityType } from "../../../gateway/contract/seat-maps";
import { cabinConfiguration, type CabinConfiguration } from "./cabin-configurations";

/**
 * The physical layout of an aircraft type's cabins, as a seat map draws it: rows front to back,
 * each split into sections by the aisles, holding seats and the cabin's facilities (galleys,
 * lavatories, closets, stairs, bassinet positions), exit rows marked at both sides, and the rows
 * the wings span. It depends on the aircraft type only; which seats are taken and what they cost
 * is the flight's (flight-seating.ts).
 */

export type SeatPosition = "window" | "middle" | "aisle";
/** Exit rows and bulkhead rows have more legroom than the rest. */
export type RowKind = "standard" | "extra_legroom" | "exit";

export interface LayoutSeat {
  type: "seat";
  designator: string;
  position: SeatPosition;
  rowKind: RowKind;
  /** In the front third of its cabin's seat rows: off the plane sooner, so dearer. */
  forward: boolean;
}

export type LayoutElement<Seat = LayoutSeat> = Seat | { type: FacilityType };

export interface LayoutRow<Seat = LayoutSeat> {
  sections: Array<{ elements: Array<LayoutElement<Seat>> }>;
}

export interface LayoutCabin<Seat = LayoutSeat> {
  cabinClass: CabinClass;
  deck: 0 | 1;
  aisles: number;
  /** Indexes into `rows` of the first and last seat row over the wing; null when the wing is beside no row of this cabin. */
  wings: { firstRowIndex: number; lastRowIndex: number } | null;
  rows: Array<LayoutRow<Seat>>;
}

/** Cabins by deck from the lowest, then front to back (Duffel's order). */
export interface AircraftLayout<Seat = LayoutSeat> {
  cabins: Array<LayoutCabin<Seat>>;
}

/** Where the wing root and tip trail sit along a deck's seat rows, as fractions front to back. */
const WING_SPAN = { narrow: [0.35, 0.6], wide: [0.3, 0.55] } as const;
/** Overwing exit rows of a narrowbody or regional jet (doors serve a widebody's exits instead). */
const OVERWING_EXIT_ROWS = { regional: 1, narrowbody: 2 } as const;
/** A widebody economy cabin this long has a mid-cabin door, with lavatories in front of it. */
const MID_CABIN_DOOR_MIN_ROWS = 20;
/** Airlines skip row 13. */
const SKIPPED_ROW = 13;

type FacilityRowKind = "front" | "divider" | "mid" | "rear";

/** Facility rows, left section to right: a narrow (one aisle) and a wide (two aisles) fuselage. */
const FACILITY_ROWS: Record<FacilityRowKind, { narrow: FacilityType[][]; wide: FacilityType[][] }> = {
  front: { narrow: [["lavatory"], ["galley"]], wide: [["closet"], ["galley"], ["lavatory"]] },
  divider: { narrow: [["closet"], ["lavatory"]], wide: [["lavatory"], ["bassinet", "galley", "bassinet"], ["lavatory"]] },
  mid: { narrow: [["lavatory"], ["lavatory"]], wide: [["lavatory"], ["lavatory", "lavatory"], ["lavatory"]] },
  rear: { narrow: [["lavatory"], ["galley", "lavatory"]], wide: [["lavatory"], ["galley"], ["lavatory"]] },
};

interface PlannedCabin {
  cabinClass: CabinClass;
  configuration: CabinConfiguration;
  /** Seat rows: each a row number and, per section, its seat letters (null where a partial row has no seat). */
  seatRows: Array<{ number: number; sections: Array<Array<string | null>> }>;
}

/** The layout of every cabin the aircraft type has, row numbers running front to back across cabins. */
export function aircraftLayout(aircraft: AircraftType): AircraftLayout {
  const wide = aircraft.aircraftClass === "widebody";
  let nextRow = 1;
  const planned: PlannedCabin[] = [];
  // Highest class at the front.
  for (const cabinClass of [...CABIN_CLASSES].reverse()) {
    const capacity = aircraft.seats[cabinClass];
    const configuration = cabinConfiguration(aircraft.iataCode, cabinClass);
    if (capacity === 0) continue;
    if (!configuration) throw new Error(`no seat configuration for ${cabinClass} on ${aircraft.iataCode}`);
    const seatRows = seatRowsFor(configuration.letters, capacity, nextRow);
    nextRow = seatRows.at(-1)!.number + 1;
    planned.push({ cabinClass, configuration, seatRows });
  }
  const cabins: LayoutCabin[] = [];
  for (const deck of [0, 1] as const) {
    const onDeck = planned.filter((cabin) => cabin.configuration.deck === deck);
    cabins.push(...deckLayout(onDeck, aircraft, wide, planned.length > onDeck.length));
  }
  return { cabins };
}

/**
 * Rows enough for `capacity` seats; the last row of a cabin that does not fill it whole keeps
 * its window and aisle seats longest (dropping middles first), so every letter still means a side.
 */
function seatRowsFor(letters: string, capacity: number, firstRow: number): PlannedCabin["seatRows"] {
  const sections = letters.split(" ").map((section) => [...section]);
  const abreast = sections.reduce((sum, section) => sum + section.length, 0);
  const rowCount = Math.ceil(capacity / abreast);
  const dropped = new Set(lettersByPosition(sections).slice(0, rowCount * abreast - capacity));
  const rows: PlannedCabin["seatRows"] = [];
  for (let number = firstRow; rows.length < rowCount; number++) {
    if (number === SKIPPED_ROW) continue;
    const last = rows.length === rowCount - 1;
    rows.push({ number, sections: sections.map((section) => section.map((letter) => (last && dropped.has(letter) ? null : letter))) });
  }
  return rows;
}

/** A row's letters middle seats first, then windows, then aisles: the order a short row gives them up. */
function lettersByPosition(sections: string[][]): string[] {
  const rank: Record<SeatPosition, number> = { middle: 0, window: 1, aisle: 2 };
  const letters = sections.flatMap((section, s) => section.map((letter, i) => ({ letter, position: positionOf(sections, s, i) })));
  return letters.sort((a, b) => rank[a.position] - rank[b.position]).map((seat) => seat.letter);
}

/** A seat by the fuselage wall is a window seat; one beside an aisle an aisle seat; else a middle one. */
function positionOf(sections: string[][], sectionIndex: number, seatIndex: number): SeatPosition {
  const section = sections[sectionIndex]!;
  if ((sectionIndex === 0 && seatIndex === 0) || (sectionIndex === sections.length - 1 && seatIndex === section.length - 1)) return "window";
  const besideAisle = (seatIndex === 0 && sectionIndex > 0) || (seatIndex === section.length - 1 && sectionIndex < sections.length - 1);
  return besideAisle ? "aisle" : "middle";
}

/** One deck's cabins, front to back, with their facility rows, exits and wings. */
function deckLayout(cabins: PlannedCabin[], aircraft: AircraftType, wide: boolean, twoDecks: boolean): LayoutCabin[] {
  const deckRows = cabins.flatMap((cabin) => cabin.seatRows.map((row) => row.number));
  const [wingStart, wingEnd] = WING_SPAN[wide ? "wide" : "narrow"];
  const wingRows = new Set(deckRows.slice(Math.floor(deckRows.length * wingStart), Math.ceil(deckRows.length * wingEnd)));
  const overwingExits = wide ? new Set<number>() : overwingExitRows(cabins, wingRows, OVERWING_EXIT_ROWS[aircraft.aircraftClass === "regional" ? "regional" : "narrowbody"]);
  return cabins.map((cabin, index) => {
    const sections = cabin.configuration.letters.split(" ").map((section) => [...section]);
    const facilities = (kind: FacilityRowKind): LayoutRow => ({
      sections: FACILITY_ROWS[kind][sections.length > 2 ? "wide" : "narrow"].map((elements, s) => ({
        // Stairs join the decks at the front of each.
        elements: twoDecks && kind === "front" && s === 1 ? [{ type: "stairs" }] : elements.map((type) => ({ type })),
      })),
    });
    const midDoor = wide && cabin.cabinClass === "economy" && cabin.seatRows.length >= MID_CABIN_DOOR_MIN_ROWS ? cabin.seatRows[Math.floor(cabin.seatRows.length / 2)]!.number : null;
    const rows: LayoutRow[] = [facilities(index === 0 ? "front" : "divider")];
    let firstWingIndex = -1;
    let lastWingIndex = -1;
    cabin.seatRows.forEach((seatRow, r) => {
      if (seatRow.number === midDoor) rows.push(facilities("mid"));
      // Widebodies have a door (an exit) before every cabin but the first of the deck, and mid-cabin in a long economy.
      const exit = overwingExits.has(seatRow.number) || (wide && ((r === 0 && index > 0) || seatRow.number === midDoor));
      const rowKind: RowKind = exit ? "exit" : r === 0 ? "extra_legroom" : "standard";
      const forward = r < cabin.seatRows.length / 3;
      if (wingRows.has(seatRow.number)) {
        if (firstWingIndex < 0) firstWingIndex = rows.length;
        lastWingIndex = rows.length;
      }
      rows.push({
        sections: seatRow.sections.map((letters, s) => {
          const elements: LayoutElement[] = letters.map((letter, i) =>
            letter === null ? { type: "empty" } : { type: "seat", designator: `${seatRow.number}${letter}`, position: positionOf(sections, s, i), rowKind, forward },
          );
          if (exit && s === 0) elements.unshift({ type: "exit_row" });
          if (exit && s === seatRow.sections.length - 1) elements.push({ type: "exit_row" });
          return { elements };
        }),
      });
    });
    if (index === cabins.length - 1) rows.push(facilities("rear"));
    return {
      cabinClass: cabin.cabinClass,
      deck: cabin.configuration.deck,
      aisles: sections.length - 1,
      wings: firstWingIndex < 0 ? null : { firstRowIndex: firstWingIndex, lastRowIndex: lastWingIndex },
      rows,
    };
  });
}

/** The first `count` economy rows at or behind the wing's leading edge. */
function overwingExitRows(cabins: PlannedCabin[], wingRows: ReadonlySet<number>, count: number): Set<number> {
  const firstWingRow = Math.min(...wingRows);
  const economy = cabins.find((cabin) => cabin.cabinClass === "economy")?.seatRows ?? [];
  return new Set(economy.filter((row) => row.number >= firstWingRow).slice(0, count).map((row) => row.number));
}
