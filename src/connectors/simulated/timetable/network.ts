import type { Airport } from "../../../locations/airport";
import { NARROWBODY_MAX_KM, NONSTOP_MAX_KM } from "./aircraft";
import type { CarrierProfile, FareFamily } from "./carriers";
import { greatCircleKm } from "../../../geo/great-circle";
import { unitHash } from "./random";
import type { CarrierRef } from "../../../gateway/contract/air";
import { sizeClassOfRank } from "../../../locations/size-rank";

/**
 * Which carrier flies which airport pair nonstop, and where it connects. A route exists when it
 * is plausible (see `fliesNonstop`) and a seeded draw per carrier and airport pair says so, so
 * carriers overlap on busy routes without all flying everything.
 */

export interface Hub {
  airport: Airport;
  minConnectionMinutes: { domestic: number; international: number };
}

/** A carrier with its hubs resolved to airports. */
export interface Carrier {
  ref: CarrierRef;
  fareFamily: FareFamily;
  priceLevel: number;
  hubs: readonly Hub[];
  /** Ids of every carrier's hubs: world gateways that hubs link to even on long hauls. */
  gatewayIds: ReadonlySet<string>;
}

/** Size class: one of the world's busiest airports, else OurAirports' large, medium or small. */
export type AirportTier = "major" | "large" | "medium" | "small";

/** Shortest nonstop worth scheduling: below it people take the train or drive. */
const MIN_NONSTOP_KM = 150;
/** Point-to-point routes (neither end a hub) stay within this distance of one of the carrier's hubs. */
const HOME_REGION_KM = 1_500;
const POINT_TO_POINT_MAX_KM = 2_500;
const POINT_TO_POINT_SHARE = 0.25;
/** Value carriers live on point-to-point routes. */
const VALUE_POINT_TO_POINT_SHARE = 0.5;
/** Value carriers keep to narrowbody range with margin. */
const VALUE_CARRIER_MAX_KM = 4_000;
const TIER_BY_SIZE_CLASS: readonly AirportTier[] = ["small", "small", "medium", "large", "major"];

/** An airport's tier, from its size class (only the class is reliable enough to plan a network on). */
export function airportTier(airport: Airport): AirportTier {
  const sizeClass = sizeClassOfRank(airport.sizeRank);
  return TIER_BY_SIZE_CLASS[Math.min(Math.max(sizeClass, 0), TIER_BY_SIZE_CLASS.length - 1)]!;
}

/** Large or major: big enough for point-to-point service and mainline jets. */
export function isLargeAirport(airport: Airport): boolean {
  const tier = airportTier(airport);
  return tier === "large" || tier === "major";
}

/**
 * Resolves the carriers' hub codes to airports once, at construction.
 * @throws Error naming the hub when the location data lacks it (a configuration bug).
 */
export function resolveCarriers(
  profiles: readonly CarrierProfile[],
  airportByIata: (iataCode: string) => Airport | undefined,
): Carrier[] {
  const gatewayIds = new Set<string>();
  return profiles.map((profile) => ({
    ref: { iataCode: profile.iataCode, name: profile.name },
    fareFamily: profile.fareFamily,
    priceLevel: profile.priceLevel,
    hubs: profile.hubs.map((hub) => {
      const airport = airportByIata(hub.iataCode);
      if (!airport) throw new Error(`Hub ${hub.iataCode} of carrier ${profile.iataCode} is not a known airport`);
      gatewayIds.add(airport.id);
      return { airport, minConnectionMinutes: hub.minConnectionMinutes };
    }),
    gatewayIds,
  }));
}

function isHubOf(carrier: Carrier, airport: Airport): boolean {
  return carrier.hubs.some((hub) => hub.airport.id === airport.id);
}

/**
 * Share of plausible hub-to-spoke routes a carrier actually flies: nearly all to gateways (other
 * carriers' hubs), otherwise falling with distance and spoke size, long-haul only to large and
 * major airports.
 */
function hubRouteShare(carrier: Carrier, spoke: Airport, km: number): number {
  if (carrier.gatewayIds.has(spoke.id)) return 0.9;
  switch (airportTier(spoke)) {
    case "small":
      return km <= 1_000 ? 0.3 : 0;
    case "medium":
      return km <= 2_500 ? 0.5 : km <= NARROWBODY_MAX_KM ? 0.15 : 0;
    case "large":
      return km <= 2_500 ? 0.9 : km <= NARROWBODY_MAX_KM ? 0.6 : 0.25;
    case "major":
      return km <= NARROWBODY_MAX_KM ? 0.9 : 0.6;
  }
}

/**
 * Whether `carrier` flies between `a` and `b` nonstop (in both directions). Plausible means:
 * hub to hub always (within range); hub to spoke when the spoke is big enough for the distance
 * (see `hubRouteShare`); point to point only between large airports in the carrier's home
 * region on short routes, and less often. Value carriers stay within narrowbody range.
 */
export function fliesNonstop(carrier: Carrier, a: Airport, b: Airport): boolean {
  if (a.id === b.id) return false;
  const aIsHub = isHubOf(carrier, a);
  const bIsHub = isHubOf(carrier, b);
  // Cheap tests first: this runs for every leg of every candidate routing.
  if (!aIsHub && !bIsHub && !(isLargeAirport(a) && isLargeAirport(b))) return false;
  const km = greatCircleKm(a, b);
  const maxKm = carrier.fareFamily === "value" ? VALUE_CARRIER_MAX_KM : NONSTOP_MAX_KM;
  if (km < MIN_NONSTOP_KM || km > maxKm) return false;
  if (aIsHub && bIsHub) return true;

  let share: number;
  if (aIsHub || bIsHub) {
    share = hubRouteShare(carrier, aIsHub ? b : a, km);
  } else {
    if (km > POINT_TO_POINT_MAX_KM) return false;
    const inRegion = carrier.hubs.some(
      (hub) => greatCircleKm(hub.airport, a) <= HOME_REGION_KM && greatCircleKm(hub.airport, b) <= HOME_REGION_KM,
    );
    if (!inRegion) return false;
    share = carrier.fareFamily === "value" ? VALUE_POINT_TO_POINT_SHARE : POINT_TO_POINT_SHARE;
  }
  // Order the pair so both directions draw the same number.
  const [first, second] = a.iataCode < b.iataCode ? [a, b] : [b, a];
  return unitHash(`route|${carrier.ref.iataCode}|${first.iataCode}|${second.iataCode}`) < share;
}

/**
 * Minimum connection time at a hub: the international figure when either leg crosses a border.
 */
export function minimumConnectionMinutes(hub: Hub, inboundFrom: Airport, outboundTo: Airport): number {
  const country = hub.airport.iataCountryCode;
  const domestic = inboundFrom.iataCountryCode === country && outboundTo.iataCountryCode === country;
  return domestic ? hub.minConnectionMinutes.domestic : hub.minConnectionMinutes.international;
}
