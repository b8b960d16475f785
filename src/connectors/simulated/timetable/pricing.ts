import type { FareFamily } from "./carriers";
import { unitHash } from "./random";
import type { FlightForFare } from "./schedule";
import type { CabinClass, PassengerType } from "../../../gateway/contract/air";
import type { OfferConditions } from "../../../gateway/contract/offers";

/**
 * Fares in USD cents. An adult fare per flight comes from distance, cabin, carrier and a seeded
 * per-flight variation; an itinerary discounts connections; other passenger types pay a fixed
 * share of the adult fare.
 */

const CABIN_MULTIPLIER: Record<CabinClass, number> = {
  economy: 1,
  premium_economy: 1.7,
  business: 3.8,
  first: 6.5,
};

/** Percent of the adult fare each passenger type pays. */
const PASSENGER_TYPE_PERCENT: Record<PassengerType, number> = {
  adult: 100,
  child: 75,
  infant_without_seat: 10,
};

/** Through fares undercut the sum of their flights, as they do in real life: 0, 1, 2 connections. */
const CONNECTION_FACTOR = [1, 0.9, 0.8] as const;
/** Fewer than this many seats left in the cabin: the cheap fare buckets are sold out. */
const SCARCE_SEATS = 10;
const SCARCITY_MARKUP = 1.2;

/**
 * A one-way economy fare in USD by distance: a fixed part plus a rate per km that falls with
 * distance (LHR–CDG ≈ 85, LHR–JFK ≈ 510, LHR–SIN ≈ 800 before variation).
 */
function economyFareUsd(distanceKm: number): number {
  const short = Math.min(distanceKm, 1_000);
  const medium = Math.min(Math.max(distanceKm - 1_000, 0), 3_000);
  const long = Math.max(distanceKm - 4_000, 0);
  return 40 + 0.13 * short + 0.085 * medium + 0.055 * long;
}

/**
 * The adult fare in USD cents for one flight in the cabin flown: distance fare × cabin ×
 * carrier price level × a seeded variation of 0.85–1.30 per flight and cabin, with a markup
 * when the cabin is nearly full.
 */
export function flightAdultFare(flight: FlightForFare, cabin: CabinClass, seatsLeft: number): number {
  const variation = 0.85 + 0.45 * unitHash(`fare|${flight.key}|${cabin}`);
  const scarcity = seatsLeft < SCARCE_SEATS ? SCARCITY_MARKUP : 1;
  const usd =
    economyFareUsd(flight.distanceKm) * CABIN_MULTIPLIER[cabin] * flight.carrier.priceLevel * variation * scarcity;
  return Math.round(usd * 100);
}

/** The adult fare in cents for a slice: its flights' fares with the connection discount. */
export function sliceAdultFare(flightFares: readonly number[]): number {
  const connections = Math.min(flightFares.length - 1, CONNECTION_FACTOR.length - 1);
  let sum = 0;
  for (const fare of flightFares) sum += fare;
  return Math.round(sum * CONNECTION_FACTOR[connections]!);
}

/**
 * A passenger's fare from the adult fare, both in minor units: child 75 %, infant without seat
 * 10 %, rounded half up in integer arithmetic (no binary-fraction surprises).
 */
export function passengerFare(adultAmount: number, type: PassengerType): number {
  return Math.floor((adultAmount * PASSENGER_TYPE_PERCENT[type] + 50) / 100);
}

interface FareRules {
  brandName: string;
  /** Per seated passenger in USD cents, 0 = free; undefined = not allowed. */
  changePenalty: number | undefined;
  refundPenalty: number | undefined;
}

const FARE_RULES: Record<FareFamily, Partial<Record<CabinClass, FareRules>>> = {
  full_service: {
    economy: { brandName: "Economy Classic", changePenalty: 7_500, refundPenalty: undefined },
    premium_economy: { brandName: "Premium Flex", changePenalty: 5_000, refundPenalty: 15_000 },
    business: { brandName: "Business Flex", changePenalty: 0, refundPenalty: 20_000 },
    first: { brandName: "First", changePenalty: 0, refundPenalty: 0 },
  },
  // Basic economy, as value carriers sell it: neither changed nor refunded.
  value: {
    economy: { brandName: "Basic", changePenalty: undefined, refundPenalty: undefined },
  },
};

/** Whether a carrier of this fare family sells the cabin at all (value carriers: economy only). */
export function sellsCabin(fareFamily: FareFamily, cabin: CabinClass): boolean {
  return FARE_RULES[fareFamily][cabin] !== undefined;
}

function rulesFor(fareFamily: FareFamily, cabin: CabinClass): FareRules {
  const rules = FARE_RULES[fareFamily][cabin];
  if (!rules) throw new Error(`${fareFamily} carriers do not sell ${cabin}`);
  return rules;
}

/** The fare brand a carrier of this family sells in the cabin, e.g. "Business Flex". */
export function fareBrandName(fareFamily: FareFamily, cabin: CabinClass): string {
  return rulesFor(fareFamily, cabin).brandName;
}

/**
 * Change and refund conditions of the fare brand. Penalties are for the whole offer: the per
 * passenger penalty times the passengers holding a seat (lap infants change with their adult).
 */
export function fareConditions(fareFamily: FareFamily, cabin: CabinClass, seatedPassengers: number): OfferConditions {
  const rules = rulesFor(fareFamily, cabin);
  const condition = (penalty: number | undefined) =>
    penalty === undefined
      ? { allowed: false, penaltyAmount: null }
      : { allowed: true, penaltyAmount: penalty * seatedPassengers };
  return {
    changeBeforeDeparture: condition(rules.changePenalty),
    refundBeforeDeparture: condition(rules.refundPenalty),
  };
}
