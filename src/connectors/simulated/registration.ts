import type { Config } from "../../config";
import type { Database } from "../../db/database";
import type { Connector, ConnectorRegistration } from "../../gateway/contract/connector";
import { ORIGINAL_SUPPLIER } from "../../gateway/contract/offers";
import type { AirportIndex } from "../../locations/airport-index";
import { LOW_COST_EXTRAS, NETWORK_EXTRAS, type ExtrasPrices } from "./extras";
import type { LatencyProfile } from "./latency-profile";
import { SimulatedAirline } from "./simulated-airline";
import { CARRIERS, LOW_COST_CARRIERS, type CarrierProfile } from "./timetable/carriers";

/** What the simulated suppliers take from the composition root. */
export interface SimulatedParts {
  config: Pick<Config, "JOB_LEASE_SECONDS" | "SUPPLIER_LCC_LATENCY_MS" | "SUPPLIER_LCC_FAILURE_RATE">;
  db: Database;
  airports: AirportIndex;
}

/** Searches are answered again from the gateway's memory for a minute: the timetable changes by the day, availability is asked afresh. */
const ANSWERS_KEEP_MS = 60_000;

/**
 * `simulated`: the network of full-service and value carriers (docs/simulated-airline.md),
 * answering at once and never failing; it does everything a supplier may.
 */
export const simulatedNetwork: Connector<SimulatedParts> = {
  ref: ORIGINAL_SUPPLIER,
  create: (parts) => {
    const airline = simulatedAirline(parts, CARRIERS, { latencyMs: { min: 0, max: 0 }, failureRate: 0 }, NETWORK_EXTRAS);
    return registration(airline, { holds: airline, seatSelection: airline.seatSelection, services: airline, orderChanges: airline, airlineChanges: airline, lowestFares: airline, availability: airline.availability });
  },
};

/**
 * `simulated_lcc`: low-cost carriers of its own, with the latency and failures of
 * SUPPLIER_LCC_LATENCY_MS and SUPPLIER_LCC_FAILURE_RATE, bags and seats sold at its own prices.
 * Low-cost carriers change no booking (a new flight is a new booking), so neither an order change
 * nor an airline's change is one of its capabilities.
 */
export const simulatedLowCost: Connector<SimulatedParts> = {
  ref: { id: "simulated_lcc", name: "Simulated low-cost carriers" },
  create: (parts) => {
    const airline = simulatedAirline(parts, LOW_COST_CARRIERS, { latencyMs: parts.config.SUPPLIER_LCC_LATENCY_MS, failureRate: parts.config.SUPPLIER_LCC_FAILURE_RATE }, LOW_COST_EXTRAS);
    return registration(airline, { holds: airline, seatSelection: airline.seatSelection, services: airline, lowestFares: airline, availability: airline.availability });
  },
};

/** One simulated airline over its own carriers: their bookings live in the airline's shared tables, and its carriers' flights never collide with another's. */
function simulatedAirline(parts: SimulatedParts, carriers: readonly CarrierProfile[], profile: LatencyProfile, extras: ExtrasPrices): SimulatedAirline {
  return new SimulatedAirline({ airportByIata: (code) => parts.airports.getByIata(code), db: parts.db, slowAnswerMs: 2 * parts.config.JOB_LEASE_SECONDS * 1000, carriers, profile, extras });
}

function registration(airline: SimulatedAirline, capabilities: ConnectorRegistration["capabilities"]): ConnectorRegistration {
  return {
    supplier: airline,
    capabilities,
    runsOnMovedClock: true,
    settlement: "wallet",
    searchedByDefault: true,
    answersKeepMs: ANSWERS_KEEP_MS,
    tenantTables: [
      { table: "SeatHold", deleteFor: (tx, tenantId) => tx.seatHold.deleteMany({ where: { tenantId } }) },
      { table: "SeatAssignment", deleteFor: (tx, tenantId) => tx.seatAssignment.deleteMany({ where: { tenantId } }) },
    ],
  };
}
