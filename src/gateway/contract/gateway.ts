import type { Airport } from "../../locations/airport";
import type { Environment } from "./air";
import type { BookingRef } from "./bookings";
import type { Capabilities, CapabilityName, LowestFares } from "./capabilities";
import type { Settlement } from "./connector";
import type { FareQuote, SupplierOffer, SupplierOfferRef, SupplierRef, SupplierSearch } from "./offers";
import type { Supplier } from "./supplier";

/**
 * The gateway as the domain holds it: the suppliers, a search's fan-out and the merge of its
 * offers, and the calls after the search sent to the order's own supplier. The domain imports
 * this contract only; src/gateway/ implements it, and the composition root hands it over.
 */

/** What names an offer's or order's supplier: the offer's payload as stored (absent on offers stored before offers named theirs). */
export interface SupplierSubject {
  supplier?: SupplierRef;
  /** The supplier's own names for the offer, and whose account found it. */
  supplierOffer?: SupplierOfferRef;
}

/** A supplier as a search asks it: through the gateway's pipeline, offers it can still sell. */
export interface SearchedSupplier {
  ref: SupplierRef;
  /** Whether it runs on a sandbox tenant's clock moved ahead. */
  runsOnMovedClock: boolean;
  search(request: SupplierSearch): Promise<SupplierOffer[]>;
}

export type SupplierStatus = "ok" | "timeout" | "error" | "unavailable";

/** How one supplier did in one search, as `supplier_results` shows it. */
export interface SupplierResult {
  supplier: string;
  status: SupplierStatus;
  offerCount: number;
  durationMs: number;
}

/** One supplier's part of a search: its result, and its offers when it answered. */
export interface SupplierBatch {
  supplier: SupplierRef;
  result: SupplierResult;
  offers: SupplierOffer[];
}

/** A supplier's offer with its source named, and its comparison key. */
export interface SourcedOffer {
  supplier: SupplierRef;
  offer: SupplierOffer;
  comparisonKey: string;
}

/** A supplier that quotes lowest fares, as the fare calendar and destination ideas ask it. */
export interface FareSource {
  ref: SupplierRef;
  lowestFares(request: SupplierSearch, limit: number): Promise<FareQuote[]>;
  destinationsFrom(origins: readonly Airport[], candidates: readonly Airport[]): Airport[];
  nonstopFaresTo: LowestFares["nonstopFaresTo"];
  /** Of each group of fares (cheapest first), the first it can still sell the party; null when none. */
  sellableFares(groups: ReadonlyArray<readonly FareQuote[]>, party: { seatsNeeded: number; environment: Environment }): Promise<Array<FareQuote | null>>;
}

/** The suppliers as searches see them. */
export interface SupplierSearches {
  /** Every supplier, in the order they were registered. */
  readonly suppliers: readonly SupplierRef[];
  /** The suppliers a tenant that chose none searches. */
  readonly defaultSuppliers: readonly string[];
  has(id: string): boolean;
  /**
   * The suppliers a tenant's search asks, in the tenant's order (`chosen`, or the defaults):
   * registered ones only, and one that needs the tenant's own account only once it has one.
   */
  searchedFor(tenantId: string, chosen: readonly string[] | null): Promise<SearchedSupplier[]>;
  /** The offer's or order's own supplier, asked alone (an order's new flights). */
  searchedAt(subject: SupplierSubject): SearchedSupplier;
  /**
   * Asks every supplier at once, each bounded by one deadline (`deadlineMs` from now), and
   * answers as soon as all have answered or at the deadline with what has arrived: a supplier
   * still out is `timeout`, one whose circuit is open `unavailable`, one that failed `error`.
   * `onBatch` hears each supplier's batch as it settles; `stop` brings the deadline forward.
   */
  fanOut(
    suppliers: readonly SearchedSupplier[],
    ask: (supplier: SearchedSupplier, signal: AbortSignal) => Promise<SupplierOffer[]>,
    deadlineMs: number,
    onBatch?: (batch: SupplierBatch) => void,
    stop?: AbortSignal,
  ): Promise<SupplierBatch[]>;
  /** The batches' offers as one list: the same flights under the same fare brand once (the cheaper), ordered by total then duration. */
  merge(batches: readonly SupplierBatch[]): SourcedOffer[];
  /** The suppliers that quote lowest fares. */
  fareSources(): FareSource[];
}

/** Calls that name only bookings (an undo or a finish whose supplier is not recorded): every supplier that could hold them is asked, each doing what concerns it. */
export interface EverySupplier {
  cancelBookings(bookings: readonly BookingRef[]): Promise<void>;
  cancelSeatSale(booking: BookingRef, saleId: string): Promise<void>;
  completeChange(booking: BookingRef, changeId: string, release: readonly string[]): Promise<void>;
  cancelChange(booking: BookingRef, changeId: string): Promise<void>;
}

/** Everything after the search, sent to the offer's or order's own supplier. */
export interface OrderSuppliers {
  /** The subject's supplier, for the core calls. */
  supplierOf(subject: SupplierSubject): Supplier;
  /** Whether the subject's supplier declares `capability`. */
  does(subject: SupplierSubject, capability: CapabilityName): boolean;
  /** The subject's supplier's `capability`, when it declares it (an optional step of a flow: a hold's repricing). */
  declared<K extends CapabilityName>(subject: SupplierSubject, capability: K): Capabilities[K] | undefined;
  /**
   * The subject's supplier's `capability`, or 422 `unsupported_by_supplier` naming the supplier
   * ("The order's supplier … does not offer `what`."): every refusal of a capability is this one.
   */
  require<K extends CapabilityName>(subject: SupplierSubject, capability: K, what: string, named: "offer" | "order"): Capabilities[K];
  /** Whether the subject's supplier runs on a sandbox tenant's clock moved ahead. */
  runsOnMovedClock(subject: SupplierSubject): boolean;
  /** Who settles the fare of an order booked from the subject (the offer): an offer of the owner's platform account is `wallet`. */
  settlement(subject: SupplierSubject): Settlement;
  readonly everySupplier: EverySupplier;
}
