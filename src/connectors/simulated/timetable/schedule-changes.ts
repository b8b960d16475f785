import type { Airport } from "../../../locations/airport";
import { minimumConnectionMinutes, type Carrier } from "./network";
import type { BookedItinerary, FlightTimes } from "../../../gateway/contract/bookings";
import { instantToLocalIso, instantToUtcIso, wallTimeOccursOnce } from "../../../time/local-time";

/**
 * The simulated airline's schedule changes (the sandbox's `retime` trigger, docs/rest-api.md#airline-initiated-changes): a
 * flight moved by a fixed step, deterministic like the rest of its timetable.
 */

/** How far a retimed flight moves: 2 h 05 min, later if every booking on it still connects, else earlier. */
export const RETIME_MINUTES = 125;

/** Hours a retimed departure may move on to keep its local times unambiguous (as the timetable does around DST). */
const MAX_DST_HOURS = 3;

/** A connection at an airport that is none of the carrier's hubs (a booking never has one): the longest hub minimum. */
const FALLBACK_CONNECTION_MINUTES = 90;

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

export interface RetimeContext {
  carriers: readonly Carrier[];
  airportByIata: (iataCode: string) => Airport | undefined;
}

/**
 * The flight's new times: `RETIME_MINUTES` later, or earlier when later would break a connection
 * of one of the `itineraries` holding it (a flight after it in its slice must leave at least the
 * hub's minimum connection time after it lands; the next slice must leave after it lands); null
 * when neither fits, or earlier would be past `now`. A move that makes a local time ambiguous
 * (the hour clocks go back repeats) goes on by whole hours in the same direction, as timetable
 * departures do around DST, so the local and UTC times and the duration always agree. The block
 * time is kept.
 */
export function retimedFlight(context: RetimeContext, flightKey: string, itineraries: readonly BookedItinerary[], now: Date): FlightTimes | null {
  const booked = itineraries.flatMap((itinerary) => itinerary.flatMap((slice) => slice.segments)).find((segment) => segment.flightKey === flightKey);
  if (!booked) return null;
  const origin = context.airportByIata(booked.origin);
  const destination = context.airportByIata(booked.destination);
  if (!origin || !destination) return null;
  for (const direction of [1, -1]) {
    const times = moved(booked, origin, destination, direction * RETIME_MINUTES * MINUTE_MS);
    if (Date.parse(times.departingAtUtc) <= now.getTime()) continue;
    if (itineraries.every((itinerary) => stillConnects(context, itinerary, flightKey, times))) return times;
  }
  return null;
}

/** The flight's times moved by `shiftMs`, on by whole hours (same direction) while a local time is ambiguous. */
function moved(flight: { departingAtUtc: string; arrivingAtUtc: string }, origin: Airport, destination: Airport, shiftMs: number): FlightTimes {
  const blockMs = Date.parse(flight.arrivingAtUtc) - Date.parse(flight.departingAtUtc);
  let departureMs = Date.parse(flight.departingAtUtc) + shiftMs;
  for (let hours = 0; hours < MAX_DST_HOURS; hours++) {
    if (wallTimeOccursOnce(origin.timeZone, departureMs) && wallTimeOccursOnce(destination.timeZone, departureMs + blockMs)) break;
    departureMs += Math.sign(shiftMs) * HOUR_MS;
  }
  const arrivalMs = departureMs + blockMs;
  return {
    departingAtUtc: instantToUtcIso(departureMs),
    arrivingAtUtc: instantToUtcIso(arrivalMs),
    departingAtLocal: instantToLocalIso(origin.timeZone, departureMs),
    arrivingAtLocal: instantToLocalIso(destination.timeZone, arrivalMs),
  };
}

/** Whether the itinerary, with the flight at its new times, still flies: every connection made, every slice after the one before. */
function stillConnects(context: RetimeContext, itinerary: BookedItinerary, flightKey: string, times: FlightTimes): boolean {
  const slices = itinerary.map((slice) =>
    slice.segments.map((segment) => (segment.flightKey === flightKey ? { ...segment, departingAtUtc: times.departingAtUtc, arrivingAtUtc: times.arrivingAtUtc } : segment)),
  );
  return slices.every((segments, sliceIndex) => {
    const previous = slices[sliceIndex - 1]?.at(-1);
    if (previous && Date.parse(segments[0]!.departingAtUtc) <= Date.parse(previous.arrivingAtUtc)) return false;
    return segments.every((segment, index) => {
      const inbound = segments[index - 1];
      if (!inbound) return true;
      const connection = connectionMinutes(context, segment.marketingCarrier.iataCode, inbound.origin, segment.origin, segment.destination);
      return Date.parse(segment.departingAtUtc) - Date.parse(inbound.arrivingAtUtc) >= connection * MINUTE_MS;
    });
  });
}

/** The carrier's minimum connection time at `at`, arriving from `from` and leaving for `to`. */
function connectionMinutes(context: RetimeContext, carrierCode: string, from: string, at: string, to: string): number {
  const hub = context.carriers.find((carrier) => carrier.ref.iataCode === carrierCode)?.hubs.find((candidate) => candidate.airport.iataCode === at);
  const inboundFrom = context.airportByIata(from);
  const outboundTo = context.airportByIata(to);
  if (!hub || !inboundFrom || !outboundTo) return FALLBACK_CONNECTION_MINUTES;
  return minimumConnectionMinutes(hub, inboundFrom, outboundTo);
}
