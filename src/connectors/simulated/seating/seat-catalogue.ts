import { convertFromUsdMinor } from "../../../money/exchange-rates";
import type { SeatSelection } from "../../../gateway/contract/capabilities";
import type { OfferView } from "../../../gateway/contract/offers";
import type { SeatMapAnswer, SeatMapSubject, SeatOption } from "../../../gateway/contract/seat-maps";
import type { SimulatedBookings } from "../simulated-bookings";
import { FlightSeatingCache, segmentSeat } from "./flight-seating";
import { maySit } from "./seat-descriptions";
import { airlineSells, seatMapsFor, segmentsOf } from "./seat-map";
import { readSeatServiceId, seatServiceId } from "./seat-service-ids";

/**
 * The simulated airline's seat maps and the seat services they offer, over one cache of flights'
 * seating; a booking resolves an `ase_…` seat id from what the id names, without a map.
 */
export class SeatCatalogue implements SeatSelection {
  private readonly seating = new FlightSeatingCache();

  constructor(private readonly bookings: SimulatedBookings) {}

  /**
   * The subject's maps, one per segment: the seats bookings of its environment hold are read (one
   * query, skipped for a map with nothing on sale) and are not for sale; the answer's key names
   * them, so equal keys draw equal maps.
   */
  async seatMaps(subject: SeatMapSubject): Promise<SeatMapAnswer> {
    const flightKeys = subject.slices.flatMap((slice) => slice.segments.map((segment) => segment.flightKey));
    const taken = subject.onSale ? await this.bookings.seatsAssigned(flightKeys, subject.environment) : new Map<string, Set<string>>();
    return { key: takenKey(taken), draw: () => seatMapsFor(subject, taken, (segment) => this.seating.forSegment(segment)) };
  }

  /**
   * The seat services the ids name (read from the ids, without a map), if the maps of `offer` (or
   * of the order `subjectId` that booked it) offer or would offer them: the same seat, passenger, segment and price, taken seats
   * included, since whether a seat is still free is the database's to decide when the booking
   * holds it (SeatAssignment). An id of another offer, order or passenger, a seat the airline
   * does not sell, or one the passenger may not sit in is left out.
   */
  seatOptions(offer: OfferView, ids: readonly string[], subjectId = offer.id): Promise<Map<string, SeatOption>> {
    const options = new Map<string, SeatOption>();
    for (const id of ids) {
      const option = this.seatOption(offer, id, subjectId);
      if (option) options.set(id, option);
    }
    return Promise.resolve(options);
  }

  private seatOption(offer: OfferView, id: string, subjectId: string): SeatOption | undefined {
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

/** The seats taken on the subject's flights, in a fixed order: equal sets give equal keys. */
function takenKey(taken: ReadonlyMap<string, ReadonlySet<string>>): string {
  return [...taken]
    .map(([flightKey, designators]) => `${flightKey}:${[...designators].sort().join(",")}`)
    .sort()
    .join(";");
}
