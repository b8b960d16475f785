import type { CabinClass, CarrierRef, Environment, PassengerType, Traveller } from "./air";
import type { SupplierOfferRef, SupplierSlice } from "./offers";

/** How calls after booking name it: our order id, whose it is, and its environment (its inventory and its circuit). */
export interface BookingRef {
  id: string;
  tenantId: string;
  environment: Environment;
}

/** An order as a call naming only the order and its supplier sees it. */
export interface OrderRef extends BookingRef {
  supplier: string;
}

/** A booking as the airline sees it: whose, which flights in which cabins, who travels and the seats they chose. */
export interface SupplierBooking extends OrderRef {
  /** The supplier's own names for the offer booked, when it gave them (a remote supplier's). */
  supplierOffer?: SupplierOfferRef;
  segments: BookedSegment[];
  /** Who travels, in the offer's passenger order; with every detail (`traveller`) when the caller has them, as a supplier that books by name needs. */
  passengers: SupplierPassenger[];
  /** Seats chosen by designator (seat maps): each held for this booking alone, or none is. */
  seats: SeatChoice[];
  /**
   * Every extra chosen at booking (bags and seats), by the id the supplier gave it
   * (`availableServices`, its seat maps), with how many: a supplier that books extras by its own
   * ids sends them, and pays their price with the fare.
   */
  services: BookedService[];
}

/** An extra booked, as its supplier named it, how many, and the price it was sold at. */
export interface BookedService {
  id: string;
  quantity: number;
  /** Minor units of `currency` (the order's), per unit: what the order charges for it, so a supplier pricing it otherwise now refuses rather than charge another price. */
  unitAmount: number;
  currency: string;
}

export interface BookedSegment {
  flightKey: string;
  cabinClass: CabinClass;
  marketingCarrier: CarrierRef;
  /** Seats the flight was offered with (SupplierSegment.seatsLeft): the airline's capacity for sale. */
  seatsForSale: number;
}

export interface SupplierPassenger {
  /** The id the search gave the passenger. */
  id: string;
  type: PassengerType;
  familyName: string;
  traveller?: Traveller;
}

/**
 * How the supplier answered a booking: `held`, booked and unpaid until a deadline (its own, in
 * real time, when it keeps one; ours applies too), or `pay_now`, an offer it cannot hold: nothing
 * is booked until the order is paid, and ticketing then books it and pays at once; or `accepted`,
 * taken and not yet confirmed: the supplier confirms it (held, with its reference) or fails it
 * later, and the booking is read (`Supplier.readOrder`) until it says which.
 */
export type BookingAnswer = { outcome: "held"; bookingReference: string; paymentRequiredBy: Date | null } | { outcome: "pay_now" } | { outcome: "accepted" };

/** A booking as the supplier has it now (the order read). */
export interface SupplierOrder {
  bookingReference: string | null;
  /** `held`: booked, not yet ticketed (a booking still to be confirmed has no reference yet); `ticketed`; `cancelled`: nothing held any more. */
  status: "held" | "ticketed" | "cancelled";
  /** The supplier's own deadline for paying a held booking (real time), when it keeps one. */
  paymentRequiredBy?: Date | null;
}

export type TicketingAnswer =
  /** `bookingReference`: the airline's, when the booking gets one only at ticketing (an offer that could not be held). */
  | { outcome: "ticketed"; tickets: Array<{ passengerId: string; number: string }>; bookingReference?: string }
  | { outcome: "rejected"; reason: "airline_rejected" | "airline_timeout" }
  /** Paid at the supplier, its tickets not issued yet (or its order not yet confirmed): ask again later, nothing failed. */
  | { outcome: "pending"; reason: string };

/** A supplier's own cancellation quote: what it refunds, converted to the currency asked, until when, and its reference. */
export interface CancellationQuote {
  reference: string;
  /** Minor units of the currency asked. */
  refundAmount: number;
  /** When the supplier's quote lapses, if it says. */
  expiresAt: Date | null;
}

/** One seat of one flight, chosen by its designator (`14C`). */
export interface SeatChoice {
  flightKey: string;
  designator: string;
}

/** A service sold on a ticketed booking, named by our reference for it (the airline echoes it with its EMD). */
export interface ServiceSale {
  reference: string;
  passengerId: string;
  type: "baggage" | "seat";
}

/** An EMD the airline issued: its 13-digit number, for the service `reference` names. */
export interface IssuedEmd {
  reference: string;
  number: string;
}

/** An e-ticket the airline reissued for a passenger. */
export interface ReissuedTicket {
  passengerId: string;
  number: string;
}

/** A change's move of a booking: the flights (keys) it leaves, the flights it takes (none of them one it leaves), and who travels (a seat each but lap infants). */
export interface FlightChange {
  release: readonly string[];
  hold: BookedSegment[];
  passengers: ReadonlyArray<{ type: PassengerType }>;
}

/** A change a supplier is asked to quote (QuotedChanges): the booked slices it leaves, named by their flights (keys), and the slices to search in their place. */
export interface ChangeQuoteRequest {
  remove: ReadonlyArray<{ flightKeys: readonly string[] }>;
  add: ReadonlyArray<{ origin: string; destination: string; departureDate: string }>;
  cabinClass: CabinClass;
}

/** A change offer a supplier quoted: its own id (what confirming names), the new slices, and its prices in minor units of the currency asked. */
export interface SupplierChangeOffer {
  supplierOfferId: string;
  added: SupplierSlice[];
  /** What the change costs, penalty included; negative when money comes back. */
  changeTotalAmount: number;
  penaltyAmount: number;
  /** When the supplier stops honouring it (real time). */
  expiresAt: Date;
}

/** A booking's slices as the airline reads them to retime a flight: each flight's key, route, carrier and times. */
export type BookedItinerary = ReadonlyArray<{
  segments: ReadonlyArray<{ flightKey: string; origin: string; destination: string; marketingCarrier: { iataCode: string }; departingAtUtc: string; arrivingAtUtc: string }>;
}>;

/** A flight's times as offers carry them: UTC instants, and local wall times at its origin and destination. */
export interface FlightTimes {
  departingAtUtc: string;
  arrivingAtUtc: string;
  departingAtLocal: string;
  arrivingAtLocal: string;
}

/** A credit the airline gave instead of cash for refunded tickets (a voucher, airline credits): for the traveller to use with that airline. */
export interface AirlineCreditIssued {
  /** Our passenger id it is in the name of; null when the airline named none. */
  passengerId: string | null;
  airlineIataCode: string | null;
  /** Minor units of `currency`; null when the airline stated no amount (unknown, not zero). */
  amount: number | null;
  currency: string | null;
  code: string | null;
  name: string | null;
  expiresAt: Date | null;
}

/** What refunding tickets gave back besides (or instead of) cash: the airline's credits, when it refunded to them. */
export interface RefundOutcome {
  airlineCredits: AirlineCreditIssued[];
}

/** A change of a booking's flights its supplier reports (the airline's doing): the slices it takes away, the ones it puts in their place, and the answer given so far. */
export interface ReportedChange {
  /** The supplier's own id of the change: one change of ours per id. */
  supplierChangeId: string;
  removed: SupplierSlice[];
  added: SupplierSlice[];
  /** Null until answered; `accepted` once accepted (here, or at the supplier directly). */
  actionTaken: "accepted" | "cancelled" | "changed" | null;
}
