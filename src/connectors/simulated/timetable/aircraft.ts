import type { FareFamily } from "./carriers";
import { CABIN_CLASSES, type AircraftRef, type CabinClass } from "../../../gateway/contract/air";

export type AircraftClass = "regional" | "narrowbody" | "widebody";

export interface AircraftType extends AircraftRef {
  aircraftClass: AircraftClass;
  /** Average block speed once airborne: smaller jets fly slower and lower. */
  cruiseKmh: number;
  /** Seats per cabin; 0 means the cabin is not fitted. */
  seats: Record<CabinClass, number>;
}

const E190: AircraftType = {
  iataCode: "E90",
  name: "Embraer 190",
  aircraftClass: "regional",
  cruiseKmh: 700,
  seats: { economy: 88, premium_economy: 0, business: 12, first: 0 },
};
const A320NEO: AircraftType = {
  iataCode: "32N",
  name: "Airbus A320neo",
  aircraftClass: "narrowbody",
  cruiseKmh: 780,
  seats: { economy: 150, premium_economy: 0, business: 24, first: 0 },
};
const B737MAX8: AircraftType = {
  iataCode: "7M8",
  name: "Boeing 737 MAX 8",
  aircraftClass: "narrowbody",
  cruiseKmh: 780,
  seats: { economy: 156, premium_economy: 0, business: 16, first: 0 },
};
const A321NEO: AircraftType = {
  iataCode: "32Q",
  name: "Airbus A321neo",
  aircraftClass: "narrowbody",
  cruiseKmh: 790,
  seats: { economy: 168, premium_economy: 12, business: 20, first: 0 },
};
/** Value carriers fill the same airframes with economy seats only. */
const A320NEO_ALL_ECONOMY: AircraftType = {
  ...A320NEO,
  seats: { economy: 186, premium_economy: 0, business: 0, first: 0 },
};
const B737MAX8_ALL_ECONOMY: AircraftType = {
  ...B737MAX8,
  seats: { economy: 189, premium_economy: 0, business: 0, first: 0 },
};
const B787_9: AircraftType = {
  iataCode: "789",
  name: "Boeing 787-9",
  aircraftClass: "widebody",
  cruiseKmh: 820,
  seats: { economy: 192, premium_economy: 28, business: 42, first: 0 },
};
const A350_900: AircraftType = {
  iataCode: "359",
  name: "Airbus A350-900",
  aircraftClass: "widebody",
  cruiseKmh: 820,
  seats: { economy: 220, premium_economy: 24, business: 40, first: 0 },
};
const B777_300ER: AircraftType = {
  iataCode: "77W",
  name: "Boeing 777-300ER",
  aircraftClass: "widebody",
  cruiseKmh: 820,
  seats: { economy: 272, premium_economy: 40, business: 48, first: 8 },
};
const A380: AircraftType = {
  iataCode: "388",
  name: "Airbus A380-800",
  aircraftClass: "widebody",
  cruiseKmh: 820,
  seats: { economy: 399, premium_economy: 56, business: 76, first: 14 },
};

/** Every type flown, by fare family: value carriers fly the same codes with more seats. */
const FLEETS: Readonly<Record<FareFamily, readonly AircraftType[]>> = {
  full_service: [E190, A320NEO, B737MAX8, A321NEO, B787_9, A350_900, B777_300ER, A380],
  value: [A320NEO_ALL_ECONOMY, B737MAX8_ALL_ECONOMY],
};

/** The type a carrier of `fareFamily` flies under an IATA aircraft code (as a stored segment names it). */
export function aircraftType(iataCode: string, fareFamily: FareFamily): AircraftType | undefined {
  return FLEETS[fareFamily].find((type) => type.iataCode === iataCode);
}

/** Beyond this a narrowbody would need a fuel stop; widebodies fly the rest. */
export const NARROWBODY_MAX_KM = 5_000;
/** Longest route any carrier flies nonstop (roughly SIN–JFK). */
export const NONSTOP_MAX_KM = 15_500;
/** Up to this, thin routes to smaller airports get regional jets. */
const REGIONAL_MAX_KM = 1_500;

/**
 * Which aircraft types can serve a route, by distance and (for short routes) whether one end
 * is a smaller airport. The schedule picks among them per route with its seeded draw.
 */
export function aircraftForRoute(
  distanceKm: number,
  thinRoute: boolean,
  fleet: FareFamily,
): readonly AircraftType[] {
  if (fleet === "value") return FLEETS.value;
  if (distanceKm <= REGIONAL_MAX_KM && thinRoute) return [E190];
  if (distanceKm <= 2_500) return [A320NEO, B737MAX8];
  if (distanceKm <= 4_000) return [A321NEO, B737MAX8];
  if (distanceKm <= 9_000) return [B787_9, A350_900, B777_300ER];
  return [A350_900, B777_300ER, A380];
}

/**
 * The cabin a passenger searching for `requested` actually flies on `aircraft`: the requested
 * one if fitted, else the best lower one fitted (first → business on a 787), as real airlines
 * sell mixed-cabin itineraries. Economy is fitted on every type.
 */
export function cabinFlown(aircraft: AircraftType, requested: CabinClass): CabinClass {
  for (let i = CABIN_CLASSES.indexOf(requested); i > 0; i--) {
    const cabin = CABIN_CLASSES[i]!;
    if (aircraft.seats[cabin] > 0) return cabin;
  }
  return "economy";
}
