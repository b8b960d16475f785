import { derivedId } from "../../../ids";
import { convertFromUsdMinor } from "../../../money/exchange-rates";
import type { CabinClass } from "../../../gateway/contract/air";
import type { SegmentView, SliceView } from "../../../gateway/contract/offers";
import type { SeatElement, SeatMap, SeatMapSubject } from "../../../gateway/contract/seat-maps";
import type { FlightSeat, FlightSeating } from "./flight-seating";
import { maySit } from "./seat-descriptions";
import { seatServiceId } from "./seat-service-ids";

/**
 * The subject's seat maps, one per segment in travel order. Every seat of the cabin flown that
 * the airline has not sold is offered to each passenger who may sit there, at its price converted
 * to the subject's currency; the rest (and the seats bookings hold) show with no services.
 */
export function seatMapsFor(subject: SeatMapSubject, taken: ReadonlyMap<string, ReadonlySet<string>>, seatingOf: (segment: SegmentView) => FlightSeating): SeatMap[] {
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
    const takenOnFlight = taken.get(segment.flightKey);
    return {
      id: derivedId("sea", subject.id, segment.id),
      segmentId: segment.id,
      sliceId: slice.id,
      cabins: seatingOf(segment).cabins.map((cabin) => ({
        ...cabin,
        rows: cabin.rows.map((row) => ({
          sections: row.sections.map((section) => ({
            elements: section.elements.map((element) =>
              element.type === "seat" ? seatElement(element, subject.onSale && airlineSells(element, cabin.cabinClass, segment) && !takenOnFlight?.has(element.designator)) : element,
            ),
          })),
        })),
      })),
    };
  });
}

/** Whether the airline sells us the seat on the segment: one of the cabin flown, not sold to its own customers (bookings' holds apart). */
export function airlineSells(seat: FlightSeat, cabinClass: CabinClass, segment: SegmentView): boolean {
  return cabinClass === segment.cabinClass && !seat.soldByAirline;
}

/** The subject's segments in travel order, each with its slice and its position among them all (seat service ids name it). */
export function segmentsOf(subject: Pick<SeatMapSubject, "slices">): Array<{ slice: SliceView; segment: SegmentView; index: number }> {
  return subject.slices.flatMap((slice) => slice.segments.map((segment) => ({ slice, segment }))).map((entry, index) => ({ ...entry, index }));
}
