import type { CabinClass, Environment, PassengerType } from "./air";
import type { SliceView, SupplierOfferRef } from "./offers";

/** What fills a place of a seat map's row that is not a seat. */
export type FacilityType = "empty" | "exit_row" | "lavatory" | "galley" | "closet" | "stairs" | "bassinet";

/** Choosing one seat for one passenger on one segment, priced in the subject's currency. */
export interface SeatService {
  /** `ase_…` naming the subject, passenger, segment and seat: a booking reads the seat from it. */
  id: string;
  passengerId: string;
  /** Minor units of `currency`; 0 is a free seat. */
  totalAmount: number;
  currency: string;
}

export interface SeatElement {
  type: "seat";
  designator: string;
  name: string;
  disclosures: readonly string[];
  /** Empty when the seat is not for sale (taken, or in another cabin than the one flown). */
  availableServices: SeatService[];
}

export type SeatMapElement = SeatElement | { type: FacilityType };

export interface SeatMapCabin {
  cabinClass: CabinClass;
  deck: 0 | 1;
  aisles: number;
  /** Indexes into `rows` of the first and last seat row over the wing; null when the wing is beside no row of this cabin. */
  wings: { firstRowIndex: number; lastRowIndex: number } | null;
  rows: Array<{ sections: Array<{ elements: SeatMapElement[] }> }>;
}

/** One segment's seat map (docs/rest-api.md#seat-maps). */
export interface SeatMap {
  id: string;
  segmentId: string;
  sliceId: string;
  cabins: SeatMapCabin[];
}

/** What seats are chosen for: an offer, or a booked order (its offer as booked). */
export interface SeatMapSubject {
  /** The offer's or the order's id: service ids are derived from it. */
  id: string;
  kind: "offer" | "order";
  /** Whose offer or order: a remote supplier asks with the account that found it. */
  tenantId: string;
  /** The supplier's own names for the offer (as booked), when it gave them (a remote supplier's). */
  supplierOffer?: SupplierOfferRef;
  currency: string;
  slices: readonly SliceView[];
  passengers: ReadonlyArray<{ id: string; type: PassengerType }>;
  /** False when no seat can be chosen any more (an order past the states that take services). */
  onSale: boolean;
  /** Whose maps: the seats bookings of this environment hold are not for sale. */
  environment: Environment;
}

/** A subject's seat maps as the supplier answers them: drawn on demand, the same for the same `key`. */
export interface SeatMapAnswer {
  /** Equal for two answers that draw the same maps (the seats taken included): a renderer may keep what it drew under it. */
  key: string;
  /** One map per segment, in travel order. */
  draw(): SeatMap[];
}

/** A seat service of a map, as a booking names it: who sits where, on which flight, at what price. */
export interface SeatOption {
  id: string;
  passengerId: string;
  segmentId: string;
  flightKey: string;
  designator: string;
  /** Minor units of the offer's currency. */
  totalAmount: number;
}

/** An extra an offer can be booked with, or an order given later: a bag or a seat selection, at the supplier's price in the offer's currency. */
export interface AvailableService {
  id: string;
  type: "baggage" | "seat";
  totalAmount: number;
  currency: string;
  maximumQuantity: number;
  passengerIds: string[];
  segmentIds: string[];
}
