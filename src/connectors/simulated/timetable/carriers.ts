import type { CarrierRef } from "../../../gateway/contract/air";

/**
 * The simulated airline network's fictional carriers. Codes are two letters starting with Z,
 * a corner of the IATA code space with no large real airline, so they never pass for one.
 * Hubs are real airports; connections happen only there.
 */

export interface HubProfile {
  iataCode: string;
  /** Minimum connection times at this hub, when both legs are domestic and otherwise. */
  minConnectionMinutes: { domestic: number; international: number };
}

export type FareFamily = "full_service" | "value";

export interface CarrierProfile extends CarrierRef {
  /** Value carriers fly narrowbodies with economy only, point to point within their region. */
  fareFamily: FareFamily;
  hubs: readonly HubProfile[];
  /** Multiplies every fare: premium carriers cost more. */
  priceLevel: number;
  /** Low-cost carriers charge for every seat chosen on the seat map, middle seats too. */
  everySeatPaid?: true;
}

function hub(iataCode: string, domestic: number, international: number): HubProfile {
  return { iataCode, minConnectionMinutes: { domestic, international } };
}

export const CARRIERS: readonly CarrierProfile[] = [
  {
    iataCode: "ZA",
    name: "Aurora Atlantic Airways",
    fareFamily: "full_service",
    hubs: [hub("LHR", 60, 90), hub("JFK", 60, 90), hub("ORD", 50, 75)],
    priceLevel: 1.1,
  },
  {
    iataCode: "ZE",
    name: "Eurasia Meridian",
    fareFamily: "full_service",
    hubs: [hub("FRA", 45, 45), hub("IST", 45, 60), hub("DEL", 60, 90)],
    priceLevel: 1.0,
  },
  {
    iataCode: "ZF",
    name: "Falcon Crescent Airways",
    fareFamily: "full_service",
    hubs: [hub("DXB", 60, 75), hub("BOM", 60, 90), hub("NBO", 45, 60)],
    priceLevel: 1.05,
  },
  {
    iataCode: "ZP",
    name: "Pacific Crest Airlines",
    fareFamily: "full_service",
    hubs: [hub("LAX", 60, 90), hub("HND", 45, 60), hub("SYD", 60, 90)],
    priceLevel: 1.05,
  },
  {
    iataCode: "ZO",
    name: "Orient Jade Airways",
    fareFamily: "full_service",
    hubs: [hub("HKG", 50, 60), hub("SIN", 45, 60), hub("ICN", 50, 70)],
    priceLevel: 1.0,
  },
  {
    iataCode: "ZL",
    name: "Latitude Airlines",
    fareFamily: "full_service",
    hubs: [hub("MIA", 60, 90), hub("GRU", 60, 90), hub("MAD", 45, 60)],
    priceLevel: 0.95,
  },
  {
    iataCode: "ZN",
    name: "Northstar Airlines",
    fareFamily: "full_service",
    hubs: [hub("DFW", 45, 90), hub("YYZ", 50, 90), hub("SEA", 45, 90)],
    priceLevel: 0.95,
  },
  {
    iataCode: "ZV",
    name: "Vela Connect",
    fareFamily: "value",
    hubs: [hub("LGW", 60, 75), hub("BER", 45, 60), hub("BCN", 45, 60)],
    priceLevel: 0.65,
  },
];

/**
 * The low-cost carriers that the `simulated_lcc` supplier sells (and the network does not): value
 * fares only (no checked bag, neither changed nor refunded), from secondary airports of cities the
 * network serves, so some city pairs overlap (London–Barcelona, Chicago–New York).
 */
export const LOW_COST_CARRIERS: readonly CarrierProfile[] = [
  {
    iataCode: "ZJ",
    name: "Jetlark",
    fareFamily: "value",
    hubs: [hub("STN", 45, 60), hub("DUB", 45, 60), hub("BGY", 45, 60)],
    priceLevel: 0.55,
    everySeatPaid: true,
  },
  {
    iataCode: "ZQ",
    name: "Quillwing Air",
    fareFamily: "value",
    hubs: [hub("MDW", 45, 75), hub("FLL", 45, 75), hub("LAS", 45, 75)],
    priceLevel: 0.6,
    everySeatPaid: true,
  },
];

/** The carrier with this IATA code, as a stored segment names it (a network or a low-cost one). */
export function carrierProfile(iataCode: string): CarrierProfile | undefined {
  return CARRIERS.find((carrier) => carrier.iataCode === iataCode) ?? LOW_COST_CARRIERS.find((carrier) => carrier.iataCode === iataCode);
}
