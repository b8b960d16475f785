import { cabinFlown } from "./aircraft";
import { initialSeatsLeft } from "./inventory";
import type { Carrier } from "./network";
import { flightAdultFare, sliceAdultFare } from "./pricing";
import type { Flight, FlightForFare } from "./schedule";
import { pickBestMix, type Rankable } from "./selection";
import type { CabinClass } from "../../../gateway/contract/air";

/**
 * Priced, seat-checked itineraries: a slice option is one flight chain with its cabins, seats
 * and adult fare; a journey is one option per searched slice, all on the same carrier.
 */

export interface SliceOption extends Rankable {
  carrier: Carrier;
  flights: readonly Flight[];
  /** Cabin flown on each flight (see `cabinFlown`). */
  cabins: readonly CabinClass[];
  seatsLeft: readonly number[];
  departureMs: number;
  arrivalMs: number;
}

export interface Journey extends Rankable {
  carrier: Carrier;
  slices: readonly SliceOption[];
}

/** A later slice departs at least this long after the previous one lands. */
export const MIN_STOPOVER_MINUTES = 120;
/** Bounds the per-carrier cross product of slice options in multi-slice searches. */
const MAX_COMBINATIONS_PER_CARRIER = 200;
const MINUTE_MS = 60_000;

/**
 * One flight in the searched cabin: the cabin flown, its seats for sale and the adult fare; or
 * undefined when fewer seats are left than `seatsNeeded`.
 */
export function priceFlight(flight: FlightForFare, cabin: CabinClass, seatsNeeded: number): { cabin: CabinClass; seatsLeft: number; adultFare: number } | undefined {
  const flown = cabinFlown(flight.aircraft, cabin);
  const seatsLeft = initialSeatsLeft(flight.key, flown, flight.aircraft.seats[flown]);
  if (seatsLeft < seatsNeeded) return undefined;
  return { cabin: flown, seatsLeft, adultFare: flightAdultFare(flight, flown, seatsLeft) };
}

/**
 * Prices a flight chain for the searched cabin, or returns undefined when any of its flights has
 * fewer seats left in the cabin flown than `seatsNeeded` (lap infants need none).
 */
export function priceSliceOption(
  flights: readonly Flight[],
  cabin: CabinClass,
  seatsNeeded: number,
): SliceOption | undefined {
  const cabins: CabinClass[] = [];
  const seatsLeft: number[] = [];
  const fares: number[] = [];
  for (const flight of flights) {
    const priced = priceFlight(flight, cabin, seatsNeeded);
    if (!priced) return undefined;
    cabins.push(priced.cabin);
    seatsLeft.push(priced.seatsLeft);
    fares.push(priced.adultFare);
  }
  const first = flights[0]!;
  const last = flights[flights.length - 1]!;
  return {
    carrier: first.carrier,
    flights,
    cabins,
    seatsLeft,
    departureMs: first.departureMs,
    arrivalMs: last.arrivalMs,
    price: sliceAdultFare(fares),
    durationMinutes: (last.arrivalMs - first.departureMs) / MINUTE_MS,
    connections: flights.length - 1,
    key: flights.map((flight) => flight.key).join(","),
  };
}

/**
 * Journeys of one carrier from its options per slice (in slice order): every combination in
 * which each slice departs at least `MIN_STOPOVER_MINUTES` after the previous one arrives. With
 * several slices each is first cut to its best mix, so the cross product stays small.
 */
export function combineSlices(optionsPerSlice: readonly (readonly SliceOption[])[]): Journey[] {
  const perSliceLimit =
    optionsPerSlice.length === 1
      ? Infinity
      : Math.max(3, Math.floor(MAX_COMBINATIONS_PER_CARRIER ** (1 / optionsPerSlice.length)));
  const candidates = optionsPerSlice.map((options) => pickBestMix(options, perSliceLimit));
  const journeys: Journey[] = [];
  const extend = (chosen: SliceOption[]) => {
    if (chosen.length === candidates.length) {
      journeys.push(journeyOf(chosen));
      return;
    }
    const earliestMs =
      chosen.length === 0 ? -Infinity : chosen[chosen.length - 1]!.arrivalMs + MIN_STOPOVER_MINUTES * MINUTE_MS;
    for (const option of candidates[chosen.length]!) {
      if (option.departureMs >= earliestMs) extend([...chosen, option]);
    }
  };
  extend([]);
  return journeys;
}

function journeyOf(slices: readonly SliceOption[]): Journey {
  let price = 0;
  let durationMinutes = 0;
  let connections = 0;
  for (const slice of slices) {
    price += slice.price;
    durationMinutes += slice.durationMinutes;
    connections += slice.connections;
  }
  return {
    carrier: slices[0]!.carrier,
    slices,
    price,
    durationMinutes,
    connections,
    key: slices.map((slice) => slice.key).join("|"),
  };
}
