import type { Config } from "../../config";
import type { Database } from "../../db/database";
import type { AirportIndex } from "../../locations/airport-index";
import type { Logger } from "../../logger";
import { CachingSupplier } from "../../gateway/pipeline/answer-cache";
import { SupplierCallPolicy, type CallPolicy } from "../../gateway/pipeline/call-policy";
import { CARRIERS, LOW_COST_CARRIERS, type CarrierProfile } from "./timetable/carriers";
import { SimulatedAirline } from "./simulated-airline";
import { SeatsUnavailable, SeatTaken } from "../../gateway/contract/supplier";
import type { CallOutcome, SupplierCalls } from "../../gateway/pipeline/supplier-calls";
import { SearchAbandoned, withProfile, type SupplierProfile } from "./latency-profile";
import { NETWORK_SUPPLIER, type RegisteredSupplier } from "../../gateway/registry";
import { supplierCapabilities } from "../../gateway/contract/capabilities";

/** The simulated network answers at once and never fails unless a sandbox search forces it. */
const NETWORK_PROFILE: SupplierProfile = { latencyMs: { min: 0, max: 0 }, failureRate: 0 };


/**
 * The two built-in suppliers: `simulated`, the network of full-service and value carriers, and
 * `simulated_lcc`, low-cost carriers of its own with the latency and failures of
 * SUPPLIER_LCC_LATENCY_MS and SUPPLIER_LCC_FAILURE_RATE. Each is one simulated airline over its own
 * carriers (their bookings live in the simulated airline's tables, and its carriers' flights
 * never collide with the other's), answers searches from its own cache, has each call bounded
 * and retried by `policy` (supplier-call-policy.ts), and every call counted by `calls`.
 */
export function simulatedSuppliers(config: Config, db: Database, airports: AirportIndex, calls: SupplierCalls, policy: CallPolicy, log: Logger): RegisteredSupplier[] {
  const simulated = (id: string, name: string, carriers: readonly CarrierProfile[], profile: SupplierProfile): RegisteredSupplier => {
    const airline = new SimulatedAirline({ airportByIata: (code) => airports.getByIata(code), db, slowAnswerMs: 2 * config.JOB_LEASE_SECONDS * 1000, carriers });
    const codes = new Set(carriers.map((carrier) => carrier.iataCode));
    return {
      id,
      name,
      supplier: calls.instrument(id, withProfile(new CachingSupplier(new SupplierCallPolicy(airline, policy, log)), profile), callOutcome),
      capabilities: supplierCapabilities(id),
      needsConnection: false,
      // A flight key starts with its carrier's code and flight number (`ZA102@…`).
      sellsFlight: (flightKey) => codes.has(flightKey.slice(0, 2)),
    };
  };
  return [
    simulated(NETWORK_SUPPLIER.id, NETWORK_SUPPLIER.name, CARRIERS, NETWORK_PROFILE),
    simulated("simulated_lcc", "Simulated low-cost carriers", LOW_COST_CARRIERS, { latencyMs: config.SUPPLIER_LCC_LATENCY_MS, failureRate: config.SUPPLIER_LCC_FAILURE_RATE }),
  ];
}

/** A refusal the airline answered with is an answer (`ok`); a deadline passed is `timeout`; anything else is the supplier's `error`. */
function callOutcome(error: unknown): CallOutcome {
  if (error instanceof SeatsUnavailable || error instanceof SeatTaken) return "ok";
  return error instanceof SearchAbandoned ? "timeout" : "error";
}
