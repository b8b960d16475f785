import type { Airport } from "../../../locations/airport";
import { greatCircleKm } from "../../../geo/great-circle";
import { fliesNonstop, minimumConnectionMinutes, type Carrier, type Hub } from "./network";
import type { Flight, FlightSchedule } from "./schedule";
import { localDay } from "../../../time/local-time";

/**
 * Itineraries of one carrier for one slice: nonstop flights, and connections through one or two
 * of its hubs that respect each hub's minimum connection time and a maximum layover.
 */

export const MAX_LAYOVER_MINUTES = 6 * 60;
/** After an arriving flight only the first few onward departures make sensible connections. */
const ONWARD_FLIGHTS_PER_ARRIVAL = 2;
/** How far a connecting routing may exceed the direct distance, by number of connections:
 * LHR–ORD–JFK passes, LHR–DXB–JFK does not. */
const MAX_DETOUR_FACTOR = [1, 1.25, 1.35] as const;
const MAX_DETOUR_EXTRA_KM = [0, 800, 1_000] as const;
const MINUTE_MS = 60_000;

export interface SliceRoutingQuery {
  origins: readonly Airport[];
  destinations: readonly Airport[];
  /** Local date at the origin of the first flight. */
  departureDate: string;
  maxConnections: number;
}

/**
 * Every flight chain of `carrier` for the slice: each chain starts at one of the origins on the
 * departure date, ends at one of the destinations, and each flight departs from the airport the
 * previous one arrived at, no sooner than the hub's minimum connection time and no later than
 * `MAX_LAYOVER_MINUTES` after it. Connections never pass through a searched origin or
 * destination airport.
 */
export function flightChains(schedule: FlightSchedule, carrier: Carrier, query: SliceRoutingQuery): Flight[][] {
  const searched = new Set([...query.origins, ...query.destinations].map((airport) => airport.id));
  const viaHubs = carrier.hubs.filter((hub) => !searched.has(hub.airport.id));
  const departureDay = localDay(query.departureDate);
  const chains: Flight[][] = [];
  const addRouting = (stops: readonly Airport[], hubs: readonly Hub[]) => {
    for (let i = 1; i < stops.length; i++) if (!fliesNonstop(carrier, stops[i - 1]!, stops[i]!)) return;
    chains.push(...chainsAlong(schedule, carrier, stops, hubs, departureDay));
  };

  for (const origin of query.origins) {
    for (const destination of query.destinations) {
      if (origin.id === destination.id) continue;
      addRouting([origin, destination], []);
      if (query.maxConnections < 1) continue;
      // Detour limits: the routed distance may exceed the direct one by a factor plus a margin.
      const directKm = greatCircleKm(origin, destination);
      const fromOriginKm = viaHubs.map((hub) => greatCircleKm(origin, hub.airport));
      const toDestinationKm = viaHubs.map((hub) => greatCircleKm(hub.airport, destination));
      const oneStopLimitKm = directKm * MAX_DETOUR_FACTOR[1] + MAX_DETOUR_EXTRA_KM[1];
      const twoStopLimitKm = directKm * MAX_DETOUR_FACTOR[2] + MAX_DETOUR_EXTRA_KM[2];
      viaHubs.forEach((hub, i) => {
        if (fromOriginKm[i]! + toDestinationKm[i]! <= oneStopLimitKm) {
          addRouting([origin, hub.airport, destination], [hub]);
        }
      });
      if (query.maxConnections < 2) continue;
      viaHubs.forEach((first, i) => {
        viaHubs.forEach((second, j) => {
          if (i === j || fromOriginKm[i]! + toDestinationKm[j]! > twoStopLimitKm) return;
          if (fromOriginKm[i]! + greatCircleKm(first.airport, second.airport) + toDestinationKm[j]! <= twoStopLimitKm) {
            addRouting([origin, first.airport, second.airport, destination], [first, second]);
          }
        });
      });
    }
  }
  return chains;
}

/** Flight chains along a fixed sequence of airports whose inner stops are `hubs`. */
function chainsAlong(
  schedule: FlightSchedule,
  carrier: Carrier,
  stops: readonly Airport[],
  hubs: readonly Hub[],
  departureDay: number,
): Flight[][] {
  let chains = schedule.flightsOnDay(carrier, stops[0]!, stops[1]!, departureDay).map((flight) => [flight]);
  for (let leg = 1; leg < stops.length - 1 && chains.length > 0; leg++) {
    const from = stops[leg]!;
    const to = stops[leg + 1]!;
    const connectMs = minimumConnectionMinutes(hubs[leg - 1]!, stops[leg - 1]!, to) * MINUTE_MS;
    const extended: Flight[][] = [];
    for (const chain of chains) {
      const arrivalMs = chain[chain.length - 1]!.arrivalMs;
      const onward = schedule.flightsDepartingBetween(
        carrier,
        from,
        to,
        arrivalMs + connectMs,
        arrivalMs + MAX_LAYOVER_MINUTES * MINUTE_MS,
      );
      for (const flight of onward.slice(0, ONWARD_FLIGHTS_PER_ARRIVAL)) extended.push([...chain, flight]);
    }
    chains = extended;
  }
  return chains;
}

/** The airports among `candidates` that `carrier` flies to nonstop from one of `origins` (on the days its timetable says). */
export function nonstopDestinations(carrier: Carrier, origins: readonly Airport[], candidates: readonly Airport[]): Airport[] {
  return candidates.filter((destination) => origins.some((origin) => fliesNonstop(carrier, origin, destination)));
}
