import type { StoredOffer } from "../search/offer-payload";
import { FlightSeatingCache } from "./flight-seating";
import { seatMapsFor, type SeatMap, type SeatMapSubject } from "./seat-map";

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
 * map routes and booking: a booking resolves an `ase_…` seat id by deriving its offer's map again.
 */
export class SeatCatalogue {
  private readonly seating = new FlightSeatingCache();

  /** The subject's maps, one per segment. */
  maps(subject: SeatMapSubject): SeatMap[] {
    return seatMapsFor(subject, (segment) => this.seating.forSegment(segment));
  }

  /**
   * Every seat service the offer's map can offer, by id, taken seats included: whether a seat is
   * still free is the database's to decide when the booking holds it (SeatAssignment).
   */
  optionsFor(offer: StoredOffer): Map<string, SeatOption> {
    const subject: SeatMapSubject = { id: offer.id, currency: offer.currency, slices: offer.payload.slices, passengers: offer.payload.passengers, onSale: true, taken: new Map() };
    const flightKeys = new Map(offer.payload.slices.flatMap((slice) => slice.segments.map((segment) => [segment.id, segment.flightKey])));
    const options = new Map<string, SeatOption>();
    for (const map of this.maps(subject)) {
      const flightKey = flightKeys.get(map.segmentId)!;
      const seats = map.cabins.flatMap((cabin) => cabin.rows.flatMap((row) => row.sections.flatMap((section) => section.elements)));
      for (const seat of seats) {
        if (seat.type !== "seat") continue;
        for (const service of seat.availableServices) {
          options.set(service.id, { id: service.id, passengerId: service.passengerId, segmentId: map.segmentId, flightKey, designator: seat.designator, totalAmount: service.totalAmount });
        }
      }
    }
    return options;
  }
}
