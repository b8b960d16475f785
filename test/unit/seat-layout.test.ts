import { describe, expect, it } from "vitest";
import { aircraftLayout, type LayoutCabin, type LayoutElement, type LayoutSeat } from "../../src/connectors/simulated/seating/cabin-layout";
import { flightSeating, type FlightSeat } from "../../src/connectors/simulated/seating/flight-seating";
import { aircraftType, type AircraftType } from "../../src/connectors/simulated/timetable/aircraft";
import { initialSeatsLeft } from "../../src/connectors/simulated/timetable/inventory";

/** The cabin layout generator (src/seats): every aircraft type the simulated airline flies. */

const TYPES: AircraftType[] = [
  ...["E90", "32N", "7M8", "32Q", "789", "359", "77W", "388"].map((code) => aircraftType(code, "full_service")!),
  ...["32N", "7M8"].map((code) => aircraftType(code, "value")!),
];
const name = (aircraft: AircraftType) => `${aircraft.iataCode} (${aircraft.seats.economy} economy)`;

function seatsOf<Seat extends LayoutSeat>(cabin: LayoutCabin<Seat>): Seat[] {
  return cabin.rows.flatMap((row) => row.sections.flatMap((section) => section.elements.filter((element): element is Seat => element.type === "seat")));
}
const isSeatRow = (row: { sections: Array<{ elements: LayoutElement[] }> }) => row.sections.some((section) => section.elements.some((element) => element.type === "seat"));
const rowNumber = (seat: LayoutSeat) => Number.parseInt(seat.designator, 10);

describe("aircraftLayout", () => {
  it("knows every type the airline flies", () => expect(TYPES.every(Boolean)).toBe(true));

  it.each(TYPES.map((aircraft) => [name(aircraft), aircraft] as const))("%s: fits exactly the type's seats per cabin, each designator once", (_name, aircraft) => {
    const layout = aircraftLayout(aircraft);
    const fitted = Object.entries(aircraft.seats).filter(([, seats]) => seats > 0);
    expect(Object.fromEntries(layout.cabins.map((cabin) => [cabin.cabinClass, seatsOf(cabin).length]))).toEqual(Object.fromEntries(fitted));
    const designators = layout.cabins.flatMap(seatsOf).map((seat) => seat.designator);
    expect(new Set(designators).size).toBe(designators.length);
    expect(designators.some((designator) => designator.startsWith("13"))).toBe(false);
  });

  it.each(TYPES.map((aircraft) => [name(aircraft), aircraft] as const))("%s: aisles by body, sections per row, exits, facilities and wings", (_name, aircraft) => {
    const layout = aircraftLayout(aircraft);
    const aisles = aircraft.aircraftClass === "widebody" ? 2 : 1;
    for (const cabin of layout.cabins) {
      expect(cabin.aisles).toBe(aisles);
      for (const row of cabin.rows) expect(row.sections).toHaveLength(aisles + 1);
      if (cabin.wings) {
        expect(isSeatRow(cabin.rows[cabin.wings.firstRowIndex]!)).toBe(true);
        expect(isSeatRow(cabin.rows[cabin.wings.lastRowIndex]!)).toBe(true);
        expect(cabin.wings.firstRowIndex).toBeLessThanOrEqual(cabin.wings.lastRowIndex);
      }
      // Rows run front to back.
      const numbers = seatsOf(cabin).map(rowNumber);
      expect(numbers).toEqual([...numbers].sort((a, b) => a - b));
    }
    const types = new Set(layout.cabins.flatMap((cabin) => cabin.rows.flatMap((row) => row.sections.flatMap((section) => section.elements.map((element) => element.type)))));
    for (const type of ["exit_row", "lavatory", "galley"]) expect(types.has(type as LayoutElement["type"]), type).toBe(true);
    expect(layout.cabins.some((cabin) => cabin.wings !== null)).toBe(true);
    // Exit rows are marked at both sides, and their seats are exit seats.
    for (const cabin of layout.cabins) {
      for (const row of cabin.rows.filter(isSeatRow)) {
        const exit = row.sections[0]!.elements[0]!.type === "exit_row";
        expect(row.sections.at(-1)!.elements.at(-1)!.type === "exit_row").toBe(exit);
        for (const seat of row.sections.flatMap((section) => section.elements).filter((element): element is LayoutSeat => element.type === "seat")) expect(seat.rowKind === "exit").toBe(exit);
      }
    }
  });

  it("draws a narrowbody six abreast and a widebody nine or ten abreast in economy", () => {
    const widest = (aircraft: AircraftType) => {
      const economy = aircraftLayout(aircraft).cabins.find((cabin) => cabin.cabinClass === "economy")!;
      return Math.max(...economy.rows.map((row) => row.sections.flatMap((section) => section.elements).filter((element) => element.type === "seat").length));
    };
    expect(widest(aircraftType("32N", "full_service")!)).toBe(6);
    expect(widest(aircraftType("789", "full_service")!)).toBe(9);
    expect(widest(aircraftType("77W", "full_service")!)).toBe(10);
  });

  it("classifies windows at the fuselage and aisles beside an aisle", () => {
    const economy = aircraftLayout(aircraftType("77W", "full_service")!).cabins.find((cabin) => cabin.cabinClass === "economy")!;
    const row = economy.rows.find((candidate) => isSeatRow(candidate) && candidate.sections[0]!.elements[0]!.type === "seat")!;
    const positions = row.sections.map((section) => section.elements.map((element) => (element as LayoutSeat).position));
    expect(positions).toEqual([
      ["window", "middle", "aisle"],
      ["aisle", "middle", "middle", "aisle"],
      ["aisle", "middle", "window"],
    ]);
  });

  it("puts the A380's premium cabins upstairs, after the main deck, with stairs on both decks", () => {
    const layout = aircraftLayout(aircraftType("388", "full_service")!);
    expect(layout.cabins.map((cabin) => [cabin.cabinClass, cabin.deck])).toEqual([
      ["premium_economy", 0],
      ["economy", 0],
      ["first", 1],
      ["business", 1],
    ]);
    for (const deck of [0, 1]) {
      const front = layout.cabins.find((cabin) => cabin.deck === deck)!.rows[0]!;
      expect(front.sections.flatMap((section) => section.elements).some((element) => element.type === "stairs")).toBe(true);
    }
  });
});

describe("flightSeating", () => {
  const wide = aircraftType("77W", "full_service")!;

  it("is the same for the same flight, and differs between flights", () => {
    const key = "ZA102@2026-03-07:LHR-JFK";
    expect(flightSeating(key, wide)).toEqual(flightSeating(key, wide));
    const sold = (flightKey: string) => flightSeating(flightKey, wide).cabins.flatMap(seatsOf).filter((seat) => seat.soldByAirline).map((seat) => seat.designator);
    expect(sold("ZA102@2026-03-08:LHR-JFK")).not.toEqual(sold(key));
  });

  it.each(TYPES.map((aircraft) => [name(aircraft), aircraft] as const))("%s: the airline has sold what the flight no longer has for sale", (_name, aircraft) => {
    for (const day of ["2026-03-07", "2026-07-19", "2026-12-24"]) {
      const key = `ZE301@${day}:FRA-IST`;
      for (const cabin of flightSeating(key, aircraft).cabins) {
        const capacity = aircraft.seats[cabin.cabinClass];
        const unsold = seatsOf(cabin).filter((seat) => !seat.soldByAirline).length;
        expect(unsold, `${key} ${cabin.cabinClass}`).toBe(initialSeatsLeft(key, cabin.cabinClass, capacity));
      }
    }
  });

  it("prices by position: middles free, windows and aisles more, bulkhead and exit rows most; premium cabins free", () => {
    const seating = flightSeating("ZA102@2026-03-07:LHR-JFK", wide);
    const cabin = (cabinClass: string) => seatsOf(seating.cabins.find((candidate) => candidate.cabinClass === cabinClass)!) as FlightSeat[];
    const economy = cabin("economy");
    const prices = (filter: (seat: FlightSeat) => boolean) => economy.filter(filter).map((seat) => seat.priceUsd);
    const standard = (position: string) => prices((seat) => seat.rowKind === "standard" && seat.position === position);
    expect(new Set(standard("middle"))).toEqual(new Set([0]));
    expect(Math.min(...standard("window"), ...standard("aisle"))).toBeGreaterThan(0);
    expect(Math.min(...prices((seat) => seat.rowKind === "exit"))).toBeGreaterThan(Math.max(...standard("window"), ...standard("aisle")));
    expect(Math.min(...prices((seat) => seat.rowKind === "extra_legroom"))).toBeGreaterThan(Math.max(...standard("window"), ...standard("aisle")));
    for (const cabinClass of ["business", "first"]) expect(new Set(cabin(cabinClass).map((seat) => seat.priceUsd))).toEqual(new Set([0]));
    for (const seat of economy.filter((candidate) => candidate.rowKind === "exit")) expect(seat.disclosures.length).toBeGreaterThan(0);
  });
});
