import { convertFromUsdMinor } from "../../../money/exchange-rates";
import type { StoredOffer } from "../../../search/offer-payload";
import { FlightSeatingCache, segmentSeat } from "./flight-seating";
import { maySit } from "./seat-descriptions";
import { airlineSells, seatMapsFor, segmentsOf, type SeatMap, type SeatMapSubject } from "./seat-map";
import { readSeatServiceId, seatServiceId } from "./seat-service-ids";

/** A seat service of an offer's map, as a booking names it: who sits where, on which flight, at what price. */
export interface SeatOption {
  id: string;
  passengerId: string;
  segmentId: string;
  flightKey: string;
  designator: string;
  /** Minor units of the offer's currency. */
  totalAmount: number;
}

/**
 * Seat maps and the seat services they offer, over one cache of flights' seating shared by the
 * map routes; a booking resolves an `ase_…` seat id from what the id names, without a map.
 */
export class SeatCatalogue {
  private readonly seating = new FlightSeatingCache();

  /** The subject's maps, one per segment. */
  maps(subject: SeatMapSubject): SeatMap[] {
    return seatMapsFor(subject, (segment) => this.seating.forSegment(segment));
  }

  /**
   * The seat service `id` names, if the maps of `offer` (or of the order `subjectId` that booked
   * it) offer or would offer it: the same seat, passenger, segment and price, taken seats
   * included, since whether a seat is still free is the database's to decide when the booking
   * holds it (SeatAssignment). Undefined for an id of another offer, order or passenger, a seat
   * the airline does not sell, or one the passenger may not sit in.
   */
  seatOption(offer: StoredOffer, id: string, subjectId = offer.id): SeatOption | undefined {
    const named = readSeatServiceId(id);
    if (!named) return undefined;
    const place = segmentsOf({ slices: offer.payload.slices })[named.segmentIndex];
    const passenger = offer.payload.passengers[named.passengerIndex];
    if (!place || !passenger) return undefined;
    const { segment } = place;
    if (seatServiceId(subjectId, { index: place.index, id: segment.id }, { index: named.passengerIndex, id: passenger.id }, named.designator) !== id) return undefined;
    const found = segmentSeat(segment, named.designator);
    if (!found || !airlineSells(found.seat, found.cabinClass, segment) || !maySit(found.seat, passenger.type)) return undefined;
    return {
      id,
      passengerId: passenger.id,
      segmentId: segment.id,
      flightKey: segment.flightKey,
      designator: named.designator,
      totalAmount: convertFromUsdMinor(found.seat.priceUsd, offer.currency),
    };
  }
}
