import { RecentMap } from "../../../recent-map";
import type { SegmentView } from "../../../gateway/contract/offers";
import { aircraftType, type AircraftType } from "../timetable/aircraft";
import { carrierProfile } from "../timetable/carriers";
import { initialSeatsLeft } from "../timetable/inventory";
import { seededRandom } from "../timetable/random";
import type { CabinClass } from "../../../gateway/contract/air";
import { aircraftLayout, type AircraftLayout, type LayoutCabin, type LayoutElement, type LayoutSeat } from "./cabin-layout";
import { seatDisclosures, seatName } from "./seat-descriptions";
import { seatsSoldByAirline } from "./seat-occupancy";
import { seatPriceUsd } from "./seat-pricing";

/** A seat of one flight: where it is, what it is called, what it costs, whether the airline sold it. */
export interface FlightSeat extends LayoutSeat {
  name: string;
  disclosures: readonly string[];
  /** US cents; 0 is free. */
  priceUsd: number;
  /** Taken by the airline's own customers: never for sale to ours. */
  soldByAirline: boolean;
}

export type FlightSeating = AircraftLayout<FlightSeat>;

/** A flight's demand scales its seat prices by 0.8–1.3. */
const DEMAND_FACTOR = { min: 0.8, spread: 0.5 };
/** Flights whose seating is kept, at least (a widebody's is ~300–550 seats, some 100 KB of objects). */
const RECENT_FLIGHTS = 200;

/**
 * The seating of one flight, fixed by its key like the rest of the simulated airline: the
 * aircraft type's layout, the seats the airline has sold itself (as many as the cabin has fewer
 * than its capacity left for sale, `initialSeatsLeft`), and seat prices at the flight's demand.
 */
export function flightSeating(flightKey: string, aircraft: AircraftType): FlightSeating {
  const factor = demandFactor(flightKey);
  const everySeatPaid = chargesEverySeat(flightKey);
  const type = typeLayout(aircraft);
  return {
    cabins: type.layout.cabins.map((cabin, index) => {
      const sold = soldByAirline(flightKey, aircraft, cabin.cabinClass, type.cabinSeats[index]!);
      return {
        ...cabin,
        rows: cabin.rows.map((row) => ({
          sections: row.sections.map((section) => ({ elements: section.elements.map((element) => (isSeat(element) ? flightSeat(element, cabin.cabinClass, factor, sold, everySeatPaid) : element)) })),
        })),
      };
    }),
  };
}

/**
 * One seat of a flight exactly as its seating has it, and the cabin it is in, without building
 * the rest: what a booking naming the seat needs. Undefined for a designator the aircraft lacks.
 */
export function seatOfFlight(flightKey: string, aircraft: AircraftType, designator: string): { cabinClass: CabinClass; seat: FlightSeat } | undefined {
  const type = typeLayout(aircraft);
  const place = type.seats.get(designator);
  if (!place) return undefined;
  const cabinClass = type.layout.cabins[place.cabinIndex]!.cabinClass;
  const sold = soldByAirline(flightKey, aircraft, cabinClass, type.cabinSeats[place.cabinIndex]!);
  return { cabinClass, seat: flightSeat(place.seat, cabinClass, demandFactor(flightKey), sold, chargesEverySeat(flightKey)) };
}

/** Whether the flight's carrier (the first two characters of its key) charges for every seat: a low-cost carrier. */
function chargesEverySeat(flightKey: string): boolean {
  return carrierProfile(flightKey.slice(0, 2))?.everySeatPaid === true;
}

function demandFactor(flightKey: string): number {
  return DEMAND_FACTOR.min + DEMAND_FACTOR.spread * seededRandom(`seat-prices|${flightKey}`)();
}

function soldByAirline(flightKey: string, aircraft: AircraftType, cabinClass: CabinClass, seats: readonly LayoutSeat[]): ReadonlySet<string> {
  const capacity = aircraft.seats[cabinClass];
  return seatsSoldByAirline(flightKey, cabinClass, seats, capacity - initialSeatsLeft(flightKey, cabinClass, capacity));
}

function flightSeat(seat: LayoutSeat, cabinClass: CabinClass, factor: number, sold: ReadonlySet<string>, everySeatPaid: boolean): FlightSeat {
  return {
    ...seat,
    name: seatName(seat),
    disclosures: seatDisclosures(seat),
    priceUsd: seatPriceUsd(cabinClass, seat, factor, everySeatPaid),
    soldByAirline: sold.has(seat.designator),
  };
}

function isSeat(element: LayoutElement): element is LayoutSeat {
  return element.type === "seat";
}

/** An aircraft type's layout, with each cabin's seats in order and every seat by designator. */
interface TypeLayout {
  layout: AircraftLayout;
  cabinSeats: LayoutSeat[][];
  seats: Map<string, { cabinIndex: number; seat: LayoutSeat }>;
}

/** Layouts depend on the aircraft type alone: a handful, each built once. */
const layouts = new Map<AircraftType, TypeLayout>();

function typeLayout(aircraft: AircraftType): TypeLayout {
  let type = layouts.get(aircraft);
  if (!type) layouts.set(aircraft, (type = indexLayout(aircraft, aircraftLayout(aircraft))));
  return type;
}

function indexLayout(aircraft: AircraftType, layout: AircraftLayout): TypeLayout {
  const cabinSeats = layout.cabins.map((cabin: LayoutCabin) => cabin.rows.flatMap((row) => row.sections.flatMap((section) => section.elements.filter(isSeat))));
  const seats = new Map<string, { cabinIndex: number; seat: LayoutSeat }>();
  cabinSeats.forEach((inCabin, cabinIndex) => {
    const { cabinClass } = layout.cabins[cabinIndex]!;
    if (inCabin.length !== aircraft.seats[cabinClass]) throw new Error(`${aircraft.iataCode} ${cabinClass}: layout has ${inCabin.length} seats, the type ${aircraft.seats[cabinClass]}`);
    for (const seat of inCabin) seats.set(seat.designator, { cabinIndex, seat });
  });
  return { layout, cabinSeats, seats };
}

/**
 * Seating of recently mapped flights, by flight key: every offer and order on a flight shares
 * one, built on its first map. It never changes, so every process may keep its own copy.
 */
export class FlightSeatingCache {
  private readonly flights = new RecentMap<string, FlightSeating>(RECENT_FLIGHTS);

  forSegment(segment: SegmentView): FlightSeating {
    let seating = this.flights.get(segment.flightKey);
    if (!seating) this.flights.set(segment.flightKey, (seating = flightSeating(segment.flightKey, segmentAircraft(segment))));
    return seating;
  }
}

/** One seat of the segment's flight (`seatOfFlight`). */
export function segmentSeat(segment: SegmentView, designator: string): { cabinClass: CabinClass; seat: FlightSeat } | undefined {
  return seatOfFlight(segment.flightKey, segmentAircraft(segment), designator);
}

/** The aircraft type a stored segment flies: its code as flown by its carrier's fare family. */
function segmentAircraft(segment: SegmentView): AircraftType {
  const fareFamily = carrierProfile(segment.marketingCarrier.iataCode)?.fareFamily;
  const aircraft = fareFamily && aircraftType(segment.aircraft.iataCode, fareFamily);
  if (!aircraft) throw new Error(`segment ${segment.id} names an unknown aircraft ${segment.aircraft.iataCode} of ${segment.marketingCarrier.iataCode}`);
  return aircraft;
}
