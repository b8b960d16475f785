import type { Airport } from "../../../locations/airport";
import { aircraftForRoute, type AircraftType } from "./aircraft";
import { eastwardComponent, greatCircleKm } from "../../../geo/great-circle";
import { airportTier, isLargeAirport, type Carrier } from "./network";
import { intBetween, seededRandom } from "./random";
import {
  dayToIsoDate,
  instantToLocalDay,
  instantToLocalIso,
  instantToUtcIso,
  localToInstant,
  wallTimeOccursOnce,
  weekday,
} from "../../../time/local-time";

/**
 * Timetables: for a carrier and a nonstop route, the same flights (number, local departure time,
 * aircraft, duration) every week, each flight operating on a seeded set of weekdays. Nothing
 * depends on the search, so a flight looks the same in every search that includes it.
 */

/** One flight instance: a numbered flight on one local departure date. */
export interface Flight {
  /** `ZA102@2026-03-07:LHR-JFK`: carrier, number, local departure date, route. */
  key: string;
  carrier: Carrier;
  flightNumber: string;
  aircraft: AircraftType;
  origin: Airport;
  destination: Airport;
  distanceKm: number;
  /** Local date at the origin. */
  departureDate: string;
  departureMs: number;
  arrivalMs: number;
  durationMinutes: number;
  /** The instants as offers show them, formatted once per flight rather than once per offer. */
  departingAtUtc: string;
  arrivingAtUtc: string;
  /** Local wall times at origin and destination, ISO 8601 without offset. */
  departingAtLocal: string;
  arrivingAtLocal: string;
}

/** What a flight's fare and seats depend on: its key, carrier, aircraft and distance, never its times. */
export type FlightForFare = Pick<Flight, "key" | "carrier" | "aircraft" | "distanceKm">;

interface TimetableSlot {
  flightNumber: string;
  /** Local departure time, minutes after midnight. */
  departureMinute: number;
  durationMinutes: number;
  /** Bit d set = operates on weekday d (0 = Sunday). */
  weekdays: number;
}

interface RouteTimetable {
  distanceKm: number;
  aircraft: AircraftType;
  slots: TimetableSlot[];
}

/** Taxi-out, climb, descent and taxi-in on top of the cruise, as airline block times include. */
const GROUND_AND_CLIMB_MINUTES = 45;
/** Headwind/tailwind effect of the westerly jet stream on the airborne time. */
const JET_STREAM_EFFECT = 0.07;
const FIRST_DEPARTURE_MINUTE = 6 * 60;
const LAST_DEPARTURE_MINUTE = 22 * 60 + 30;
const EVERY_DAY = 0b111_1111;
const MINUTE_MS = 60_000;
/** Flights are pure functions of their key, so the memo only bounds memory; clearing it loses nothing. */
const MAX_CACHED_ROUTE_DAYS = 20_000;

function roundToFive(minutes: number): number {
  return Math.round(minutes / 5) * 5;
}

/**
 * Scheduled block time in minutes: cruise at the aircraft's speed, slowed by a westbound
 * headwind or sped up eastbound, plus ground and climb time; rounded to 5 minutes.
 */
function blockMinutes(distanceKm: number, aircraft: AircraftType, eastward: number): number {
  const airborne = (distanceKm / aircraft.cruiseKmh) * 60 * (1 - JET_STREAM_EFFECT * eastward);
  return roundToFive(GROUND_AND_CLIMB_MINUTES + airborne);
}

/** Daily frequency: many short hops, one or two long hauls, more between gateways; the same both ways. */
function dailyFrequency(carrier: Carrier, a: Airport, b: Airport, km: number, draw: number): number {
  const tiers = [airportTier(a), airportTier(b)];
  let frequency: number;
  if (km <= 1_500) frequency = intBetween(draw, 3, 6);
  else if (km <= 3_000) frequency = intBetween(draw, 2, 4);
  else if (km <= 5_000) frequency = intBetween(draw, 1, 3);
  else frequency = intBetween(draw, 1, 2);
  if (carrier.gatewayIds.has(a.id) && carrier.gatewayIds.has(b.id)) frequency += 1;
  if (tiers.includes("small")) frequency = Math.min(frequency, 2);
  else if (tiers.includes("medium")) frequency = Math.min(frequency, 3);
  if (carrier.fareFamily === "value") frequency = Math.min(frequency, 3);
  return frequency;
}

function buildTimetable(carrier: Carrier, origin: Airport, destination: Airport): RouteTimetable {
  const [first, second] = origin.iataCode < destination.iataCode ? [origin, destination] : [destination, origin];
  const pairKey = `${carrier.ref.iataCode}|${first.iataCode}|${second.iataCode}`;
  const pairRandom = seededRandom(`timetable|${pairKey}`);
  const distanceKm = greatCircleKm(origin, destination);
  const thinRoute = !isLargeAirport(origin) || !isLargeAirport(destination);
  const fleet = aircraftForRoute(distanceKm, thinRoute, carrier.fareFamily);
  const aircraft = fleet[intBetween(pairRandom(), 0, fleet.length - 1)]!;
  const frequency = dailyFrequency(carrier, origin, destination, distanceKm, pairRandom());
  // Even numbers one way, odd the other, as airlines number outbound and return flights.
  const longHaul = aircraft.aircraftClass === "widebody";
  const baseNumber = longHaul ? 2 * intBetween(pairRandom(), 1, 190) : 2 * intBetween(pairRandom(), 200, 1490);
  const direction = origin === first ? 0 : 1;
  const baseDuration = blockMinutes(distanceKm, aircraft, eastwardComponent(origin, destination));

  const random = seededRandom(`timetable|${pairKey}|${origin.iataCode}`);
  const window = (LAST_DEPARTURE_MINUTE - FIRST_DEPARTURE_MINUTE) / frequency;
  const slots: TimetableSlot[] = [];
  for (let i = 0; i < frequency; i++) {
    let weekdays = EVERY_DAY;
    // The first flight runs daily; later ones skip the odd weekday.
    if (i > 0) for (let day = 0; day < 7; day++) if (random() < 0.15) weekdays &= ~(1 << day);
    slots.push({
      flightNumber: String(baseNumber + 2 * i + direction),
      departureMinute: roundToFive(FIRST_DEPARTURE_MINUTE + window * (i + 0.8 * random())),
      durationMinutes: baseDuration + 5 * intBetween(random(), -1, 1),
      weekdays,
    });
  }
  return { distanceKm, aircraft, slots };
}

/** Hours a departure may be moved to keep its local times unambiguous (more than any DST shift needs). */
const MAX_DST_RETIMING_HOURS = 3;

/**
 * The slot's departure on `localDate`, retimed as real timetables are around daylight-saving
 * switches: a departure in the spring-forward gap (a local time that never happens) leaves when
 * the clocks have moved on (localToInstant), and a departure or arrival whose local time happens
 * twice (the fall-back hour) moves one hour later until both happen exactly once. So a local
 * `departing_at`/`arriving_at` always names one instant, and local times, UTC times and the
 * duration agree for any client that reads them.
 */
function unambiguousDeparture(origin: Airport, destination: Airport, localDate: string, slot: TimetableSlot): number {
  for (let hours = 0; ; hours++) {
    const minute = slot.departureMinute + hours * 60;
    const departureMs = localToInstant(origin.timeZone, localDate, minute);
    const arrivalMs = departureMs + slot.durationMinutes * MINUTE_MS;
    const unambiguous = wallTimeOccursOnce(origin.timeZone, departureMs) && wallTimeOccursOnce(destination.timeZone, arrivalMs);
    if (unambiguous || hours === MAX_DST_RETIMING_HOURS) return departureMs;
  }
}

function flightKey(carrier: Carrier, slot: TimetableSlot, localDate: string, origin: Airport, destination: Airport): string {
  return `${carrier.ref.iataCode}${slot.flightNumber}@${localDate}:${origin.iataCode}-${destination.iataCode}`;
}

function scheduleFlights(carrier: Carrier, origin: Airport, destination: Airport, localDate: string): Flight[] {
  const timetable = buildTimetable(carrier, origin, destination);
  const dayBit = 1 << weekday(localDate);
  const flights: Flight[] = [];
  for (const slot of timetable.slots) {
    if ((slot.weekdays & dayBit) === 0) continue;
    const departureMs = unambiguousDeparture(origin, destination, localDate, slot);
    const arrivalMs = departureMs + slot.durationMinutes * MINUTE_MS;
    flights.push({
      key: flightKey(carrier, slot, localDate, origin, destination),
      carrier,
      flightNumber: slot.flightNumber,
      aircraft: timetable.aircraft,
      origin,
      destination,
      distanceKm: Math.round(timetable.distanceKm),
      departureDate: localDate,
      departureMs,
      arrivalMs,
      durationMinutes: slot.durationMinutes,
      departingAtUtc: instantToUtcIso(departureMs),
      arrivingAtUtc: instantToUtcIso(arrivalMs),
      departingAtLocal: instantToLocalIso(origin.timeZone, departureMs),
      arrivingAtLocal: instantToLocalIso(destination.timeZone, arrivalMs),
    });
  }
  return flights;
}

/**
 * The flights of one network, memoised per route and local date: connection building asks for
 * the same route-days again and again, and repeated searches ask for the same ones. Each
 * supplier instance owns one, so flights never point at another instance's airports.
 */
export class FlightSchedule {
  readonly #flightsByRouteDay = new Map<string, readonly Flight[]>();
  readonly #timetables = new Map<string, RouteTimetable>();

  /**
   * The carrier's flights on the route departing on `localDate` as their fares see them: the same
   * flights `flightsOnDay` gives, without working out their times (the dear part), for pricing
   * many route-days at once (nonstop lowest fares). Each route's timetable is kept.
   */
  flightsForFares(carrier: Carrier, origin: Airport, destination: Airport, localDate: string): FlightForFare[] {
    const route = `${carrier.ref.iataCode}|${origin.iataCode}|${destination.iataCode}`;
    let timetable = this.#timetables.get(route);
    if (!timetable) {
      if (this.#timetables.size >= MAX_CACHED_ROUTE_DAYS) this.#timetables.clear();
      timetable = buildTimetable(carrier, origin, destination);
      this.#timetables.set(route, timetable);
    }
    const dayBit = 1 << weekday(localDate);
    const distanceKm = Math.round(timetable.distanceKm);
    const flights: FlightForFare[] = [];
    for (const slot of timetable.slots) {
      if ((slot.weekdays & dayBit) !== 0) flights.push({ key: flightKey(carrier, slot, localDate, origin, destination), carrier, aircraft: timetable.aircraft, distanceKm });
    }
    return flights;
  }

  /** The carrier's flights on the route departing within [fromMs, toMs], earliest first. */
  flightsDepartingBetween(
    carrier: Carrier,
    origin: Airport,
    destination: Airport,
    fromMs: number,
    toMs: number,
  ): Flight[] {
    const flights: Flight[] = [];
    const lastDay = instantToLocalDay(origin.timeZone, toMs);
    for (let day = instantToLocalDay(origin.timeZone, fromMs); day <= lastDay; day++) {
      for (const flight of this.flightsOnDay(carrier, origin, destination, day)) {
        if (flight.departureMs >= fromMs && flight.departureMs <= toMs) flights.push(flight);
      }
    }
    return flights;
  }

  /**
   * The carrier's flights from `origin` to `destination` departing on a local day at the origin
   * (days since 1970-01-01, see `localDay`), earliest first. The caller decides whether the
   * carrier flies the route at all (`fliesNonstop`).
   */
  flightsOnDay(carrier: Carrier, origin: Airport, destination: Airport, day: number): readonly Flight[] {
    const key = `${carrier.ref.iataCode}|${origin.iataCode}|${destination.iataCode}|${day}`;
    let flights = this.#flightsByRouteDay.get(key);
    if (!flights) {
      if (this.#flightsByRouteDay.size >= MAX_CACHED_ROUTE_DAYS) this.#flightsByRouteDay.clear();
      flights = scheduleFlights(carrier, origin, destination, dayToIsoDate(day));
      this.#flightsByRouteDay.set(key, flights);
    }
    return flights;
  }
}
