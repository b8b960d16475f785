import { derivedId } from "../../../ids";
import { convertFromUsdMinor } from "../../../money/exchange-rates";
import type { StoredSegment, StoredSlice } from "../../../search/offer-payload";
import type { CabinClass, PassengerType } from "../../../gateway/contract/supplier";
import type { FacilityType, LayoutCabin } from "./cabin-layout";
import type { FlightSeat, FlightSeating } from "./flight-seating";
import { maySit } from "./seat-descriptions";
import { seatServiceId } from "./seat-service-ids";

/** Choosing one seat for one passenger on one segment, priced in the subject's currency. */
export interface SeatService {
  /** `ase_…` naming the subject, passenger, segment and seat (seat-service-ids.ts): a booking reads the seat from it. */
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
export type SeatMapCabin = LayoutCabin<SeatElement>;

/** One segment's seat map (Duffel's shape, docs/rest-api.md#seat-maps). */
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
  currency: string;
  slices: readonly StoredSlice[];
  passengers: ReadonlyArray<{ id: string; type: PassengerType }>;
  /** False when no seat can be chosen any more (an order past the states that take services). */
  onSale: boolean;
  /** Designators other bookings (or this order) hold, by flight key: not for sale. */
  taken: ReadonlyMap<string, ReadonlySet<string>>;
}

/**
 * The subject's seat maps, one per segment in travel order. Every seat of the cabin flown that
 * the airline has not sold is offered to each passenger who may sit there, at its price converted
 * to the subject's currency; the rest (and the seats bookings hold) show with no services.
 */
export function seatMapsFor(subject: SeatMapSubject, seatingOf: (segment: StoredSegment) => FlightSeating): SeatMap[] {
  const prices = new Map<number, number>();
  const price = (usd: number) => {
    let amount = prices.get(usd);
    if (amount === undefined) prices.set(usd, (amount = convertFromUsdMinor(usd, subject.currency)));
    return amount;
  };
  const passengers = subject.passengers.map((passenger, index) => ({ ...passenger, index }));
  return segmentsOf(subject).map(({ slice, segment, index }): SeatMap => {
    const seatElement = (seat: FlightSeat, forSale: boolean): SeatElement => ({
      type: "seat",
      designator: seat.designator,
      name: seat.name,
      disclosures: seat.disclosures,
      availableServices: forSale
        ? passengers
            .filter((passenger) => maySit(seat, passenger.type))
            .map((passenger) => ({
              id: seatServiceId(subject.id, { index, id: segment.id }, passenger, seat.designator),
              passengerId: passenger.id,
              totalAmount: price(seat.priceUsd),
              currency: subject.currency,
            }))
        : [],
    });
    const taken = subject.taken.get(segment.flightKey);
    return {
      id: derivedId("sea", subject.id, segment.id),
      segmentId: segment.id,
      sliceId: slice.id,
      cabins: seatingOf(segment).cabins.map((cabin) => ({
        ...cabin,
        rows: cabin.rows.map((row) => ({
          sections: row.sections.map((section) => ({
            elements: section.elements.map((element) =>
              element.type === "seat" ? seatElement(element, subject.onSale && airlineSells(element, cabin.cabinClass, segment) && !taken?.has(element.designator)) : element,
            ),
          })),
        })),
      })),
    };
  });
}

/** Whether the airline sells us the seat on the segment: one of the cabin flown, not sold to its own customers (bookings' holds apart). */
export function airlineSells(seat: FlightSeat, cabinClass: CabinClass, segment: StoredSegment): boolean {
  return cabinClass === segment.cabinClass && !seat.soldByAirline;
}

/** The subject's segments in travel order, each with its slice and its position among them all (seat service ids name it). */
export function segmentsOf(subject: Pick<SeatMapSubject, "slices">): Array<{ slice: StoredSlice; segment: StoredSegment; index: number }> {
  return subject.slices.flatMap((slice) => slice.segments.map((segment) => ({ slice, segment }))).map((entry, index) => ({ ...entry, index }));
}
