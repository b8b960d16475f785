import { RecentMap } from "../recent-map";
import type { StoredSegment } from "../search/offer-payload";
import { aircraftType, type AircraftType } from "../supplier/aircraft";
import { carrierProfile } from "../supplier/carriers";
import { initialSeatsLeft } from "../supplier/inventory";
import { seededRandom } from "../supplier/random";
import { aircraftLayout, type AircraftLayout, type LayoutElement, type LayoutSeat } from "./cabin-layout";
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
  const factor = DEMAND_FACTOR.min + DEMAND_FACTOR.spread * seededRandom(`seat-prices|${flightKey}`)();
  return {
    cabins: layoutOf(aircraft).cabins.map((cabin) => {
      const seats = cabin.rows.flatMap((row) => row.sections.flatMap((section) => section.elements.filter(isSeat)));
      const capacity = aircraft.seats[cabin.cabinClass];
      if (seats.length !== capacity) throw new Error(`${aircraft.iataCode} ${cabin.cabinClass}: layout has ${seats.length} seats, the type ${capacity}`);
      const sold = seatsSoldByAirline(flightKey, cabin.cabinClass, seats, capacity - initialSeatsLeft(flightKey, cabin.cabinClass, capacity));
      const flightSeat = (seat: LayoutSeat): FlightSeat => ({
        ...seat,
        name: seatName(seat),
        disclosures: seatDisclosures(seat),
        priceUsd: seatPriceUsd(cabin.cabinClass, seat, factor),
        soldByAirline: sold.has(seat.designator),
      });
      return {
        ...cabin,
        rows: cabin.rows.map((row) => ({ sections: row.sections.map((section) => ({ elements: section.elements.map((element) => (isSeat(element) ? flightSeat(element) : element)) })) })),
      };
    }),
  };
}

function isSeat(element: LayoutElement): element is LayoutSeat {
  return element.type === "seat";
}

/** Layouts depend on the aircraft type alone: a handful, each built once. */
const layouts = new Map<AircraftType, AircraftLayout>();

function layoutOf(aircraft: AircraftType): AircraftLayout {
  let layout = layouts.get(aircraft);
  if (!layout) layouts.set(aircraft, (layout = aircraftLayout(aircraft)));
  return layout;
}

/**
 * Seating of recently mapped flights, by flight key: every offer and order on a flight shares
 * one, built on its first map. It never changes, so every process may keep its own copy.
 */
export class FlightSeatingCache {
  private readonly flights = new RecentMap<string, FlightSeating>(RECENT_FLIGHTS);

  forSegment(segment: StoredSegment): FlightSeating {
    let seating = this.flights.get(segment.flightKey);
    if (!seating) this.flights.set(segment.flightKey, (seating = flightSeating(segment.flightKey, segmentAircraft(segment))));
    return seating;
  }
}

/** The aircraft type a stored segment flies: its code as flown by its carrier's fare family. */
function segmentAircraft(segment: StoredSegment): AircraftType {
  const fareFamily = carrierProfile(segment.marketingCarrier.iataCode)?.fareFamily;
  const aircraft = fareFamily && aircraftType(segment.aircraft.iataCode, fareFamily);
  if (!aircraft) throw new Error(`segment ${segment.id} names an unknown aircraft ${segment.aircraft.iataCode} of ${segment.marketingCarrier.iataCode}`);
  return aircraft;
}
