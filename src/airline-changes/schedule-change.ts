import type { Order, SelectedService } from "../orders/core/order";
import type { OfferPayload, StoredOffer, StoredSegment, StoredSlice } from "../search/offer-payload";
import type { FlightTimes, SupplierBooking } from "../gateway/contract/bookings";
import type { AirlineInitiatedChange } from "../orders/core/airline-change";

/**
 * The arithmetic of an airline's change (docs/rest-api.md#airline-initiated-changes), pure: a slice with a flight retimed, and
 * the order as it stands once a change is accepted.
 */

const MINUTE_MS = 60_000;

/** The date part of a local date-time, whatever its year's width. */
const dateOf = (localIso: string) => localIso.split("T")[0]!;

/**
 * The slice with the flight at its new times: the same flight (its segment keeps its id, so the
 * seats and bags booked on it stay), the slice's departure date and duration as they now are.
 */
export function retimedSlice(slice: StoredSlice, flightKey: string, times: FlightTimes): StoredSlice {
  const segments = slice.segments.map(
    (segment): StoredSegment =>
      segment.flightKey === flightKey
        ? { ...segment, departingAtUtc: times.departingAtUtc, arrivingAtUtc: times.arrivingAtUtc, departingAt: times.departingAtLocal, arrivingAt: times.arrivingAtLocal }
        : segment,
  );
  const first = segments[0]!;
  const last = segments.at(-1)!;
  return {
    ...slice,
    departureDate: dateOf(first.departingAt),
    durationMinutes: Math.round((Date.parse(last.arrivingAtUtc) - Date.parse(first.departingAtUtc)) / MINUTE_MS),
    segments,
  };
}

/** The order's fare with other slices: how a change's `removed` and `added` parts are kept. */
export function withSlices(payload: OfferPayload, slices: StoredSlice[]): OfferPayload {
  return { ...payload, slices };
}

const segmentsOf = (payload: OfferPayload) => payload.slices.flatMap((slice) => slice.segments);

/** The order once a change is accepted: what it books, what it now costs, and how its seats move at the airline. */
export interface AcceptedChange {
  offer: StoredOffer;
  services: SelectedService[];
  totalAmount: number;
  /** Seats chosen on flights the airline cancelled: dropped and given back (minor units of the order's currency). */
  refundAmount: number;
  /** Flights (keys) the booking leaves, and the flights it now takes. */
  release: string[];
  hold: SupplierBooking["segments"];
}

/**
 * The order as the change leaves it: each removed slice replaced by the added one in its place,
 * in departure order; the fare unchanged (the airline's doing is not repriced). Services follow
 * their flight: on a retimed flight nothing changes; on a flight the airline cancelled, bags move
 * to the slice that replaces it, and a seat chosen on it is dropped and its price given back
 * (the airline cannot give that seat). The booking leaves the cancelled flights and holds seats
 * on the new ones.
 */
export function acceptedChange(order: Pick<Order, "offer" | "services" | "totalAmount">, change: Pick<AirlineInitiatedChange, "removed" | "added">): AcceptedChange {
  const replacements = new Map(change.removed.slices.map((slice, index) => [slice.id, change.added.slices[index]!]));
  const slices = order.offer.payload.slices
    .map((slice) => replacements.get(slice.id) ?? slice)
    .sort((a, b) => Date.parse(a.segments[0]!.departingAtUtc) - Date.parse(b.segments[0]!.departingAtUtc));
  const keptSegments = new Set(slices.flatMap((slice) => slice.segments.map((segment) => segment.id)));
  // The segments of each removed slice that are gone, by the slice that replaces them.
  const movedTo = new Map<string, StoredSlice>();
  for (const slice of change.removed.slices) {
    for (const segment of slice.segments) if (!keptSegments.has(segment.id)) movedTo.set(segment.id, replacements.get(slice.id)!);
  }
  let refundAmount = 0;
  const services = order.services.flatMap((service): SelectedService[] => {
    const replacement = service.segmentIds.map((id) => movedTo.get(id)).find((slice) => slice !== undefined);
    if (!replacement) return [service];
    if (service.type === "seat") {
      refundAmount += service.unitAmount * service.quantity;
      return [];
    }
    return [{ ...service, segmentIds: replacement.segments.map((segment) => segment.id) }];
  });
  const removedFlights = new Set(segmentsOf(change.removed).map((segment) => segment.flightKey));
  const addedFlights = new Set(segmentsOf(change.added).map((segment) => segment.flightKey));
  return {
    offer: { ...order.offer, payload: withSlices(order.offer.payload, slices) },
    services,
    totalAmount: order.totalAmount - refundAmount,
    refundAmount,
    release: [...removedFlights].filter((flightKey) => !addedFlights.has(flightKey)),
    hold: segmentsOf(change.added)
      .filter((segment) => !removedFlights.has(segment.flightKey))
      .map((segment) => ({ flightKey: segment.flightKey, cabinClass: segment.cabinClass, marketingCarrier: segment.marketingCarrier, seatsForSale: segment.seatsLeft })),
  };
}
