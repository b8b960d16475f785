import type { CarrierProfile } from "./carriers";
import type { CabinClass } from "../../../gateway/contract/air";
import type { DatedFare, FareQuote, SupplierSearchPassenger } from "../../../gateway/contract/offers";

/**
 * The fare questions the simulated airline sends to its fare worker (fare-worker.ts), as plain
 * data: airports by IATA code, carriers by their profiles, so a message is a few kilobytes.
 */
export type FareTask =
  | {
      kind: "lowestFares";
      carriers: readonly CarrierProfile[];
      search: {
        slices: Array<{ origins: string[]; destinations: string[]; departureDate: string }>;
        passengers: SupplierSearchPassenger[];
        cabinClass: CabinClass;
        maxConnections: number;
      };
      limit: number;
    }
  | {
      kind: "nonstopFaresTo";
      carriers: readonly CarrierProfile[];
      origins: string[];
      destinations: string[];
      days: readonly string[];
      cabinClass: CabinClass;
      limit: number;
    };

/** What each task answers. */
export type FareAnswer<T extends FareTask> = T extends { kind: "lowestFares" } ? FareQuote[] : DatedFare[][];

/** A task as it crosses to the worker, and its answer back. */
export interface FareRequestMessage {
  id: number;
  task: FareTask;
}

export type FareAnswerMessage = { id: number; answer: FareQuote[] | DatedFare[][] } | { id: number; error: string };
