import type { Order, SelectedService } from "../orders/core/order";
import type { OfferPayload, StoredOffer, StoredSlice } from "../search/offer-payload";

/**
 * The arithmetic of an order change (docs/rest-api.md#order-changes), pure: what part of the booked fare the removed
 * slices take with them, what the change costs, and the order as it stands once changed.
 */

const distanceOf = (slices: readonly StoredSlice[]) => slices.reduce((sum, slice) => sum + slice.segments.reduce((km, segment) => km + segment.distanceKm, 0), 0);

const fareOf = (payload: OfferPayload) => payload.passengers.reduce((sum, passenger) => sum + passenger.fareAmount, 0);

/**
 * The part of the booked fare the removed slices give up: those slices, with each passenger's fare
 * and taxes shared out by distance flown (a fare is priced for the whole itinerary; the airline
 * priced it by distance). Removing every slice gives up the whole fare, exactly.
 */
export function removedPart(payload: OfferPayload, removedSliceIds: ReadonlySet<string>): OfferPayload {
  const slices = payload.slices.filter((slice) => removedSliceIds.has(slice.id));
  const removedKm = distanceOf(slices);
  const totalKm = distanceOf(payload.slices);
  const share = (amount: number) => (removedKm === totalKm ? amount : Math.round((amount * removedKm) / totalKm));
  return {
    ...payload,
    slices,
    passengers: payload.passengers.map((passenger) => ({ id: passenger.id, type: passenger.type, fareAmount: share(passenger.fareAmount), taxAmount: share(passenger.taxAmount ?? 0) })),
  };
}

/**
 * The new part of a change a supplier priced itself: its slices, with the removed part's fares
 * raised (or lowered) by `fareDifference` (its change total less its penalty), shared evenly
 * across the passengers, so that `priceChange` answers the supplier's own amounts. Taxes keep the
 * removed part's share (the supplier does not split them).
 */
export function quotedPart(removed: OfferPayload, slices: StoredSlice[], fareDifference: number): OfferPayload {
  const count = removed.passengers.length;
  const shares = removed.passengers.map((_, index) => Math.trunc(fareDifference / count) + (index < Math.abs(fareDifference % count) ? Math.sign(fareDifference) : 0));
  return {
    ...removed,
    slices,
    passengers: removed.passengers.map((passenger, index) => {
      const fareAmount = Math.max(passenger.fareAmount + shares[index]!, 0);
      return { ...passenger, fareAmount, taxAmount: Math.min(passenger.taxAmount ?? 0, fareAmount) };
    }),
  };
}

/** Services tied to a removed segment: seats on its flight, bags of its slice. They go with it. */
function dropsWith(service: SelectedService, removedSegmentIds: ReadonlySet<string>): boolean {
  return service.segmentIds.some((id) => removedSegmentIds.has(id));
}

const segmentIdsOf = (payload: OfferPayload) => new Set(payload.slices.flatMap((slice) => slice.segments.map((segment) => segment.id)));

export interface ChangePrice {
  /** New fare − old fare + penalty: what the wallet pays (positive) or gets back (negative). */
  changeTotalAmount: number;
  penaltyAmount: number;
  /** The order's total once changed: less the old fare and the services that go with it, plus the new fare. */
  newTotalAmount: number;
}

/**
 * What replacing `removed` with `added` costs: the new fare less the old, plus the penalty (kept
 * even when money comes back). Services booked on removed flights go with them, unrefunded, as
 * services are on a cancellation; so they leave the order's total too.
 */
export function priceChange(order: Pick<Order, "totalAmount" | "services">, removed: OfferPayload, added: OfferPayload, penaltyAmount: number): ChangePrice {
  const removedSegments = segmentIdsOf(removed);
  const dropped = order.services.filter((service) => dropsWith(service, removedSegments)).reduce((sum, service) => sum + service.unitAmount * service.quantity, 0);
  return {
    changeTotalAmount: fareOf(added) - fareOf(removed) + penaltyAmount,
    penaltyAmount,
    newTotalAmount: order.totalAmount - fareOf(removed) + fareOf(added) - dropped,
  };
}

/**
 * The order's booked offer and services once changed: the kept slices and the added ones in
 * departure order; each passenger's fare and taxes less the removed part's plus the new fare's
 * (so base + taxes stays the total); the new fare's brand and conditions, since that is the fare
 * now held; services on removed flights dropped.
 */
export function changedBooking(order: Pick<Order, "offer" | "services">, removed: OfferPayload, added: OfferPayload): { offer: StoredOffer; services: SelectedService[] } {
  const removedSlices = new Set(removed.slices.map((slice) => slice.id));
  const slices = [...order.offer.payload.slices.filter((slice) => !removedSlices.has(slice.id)), ...added.slices].sort(
    (a, b) => Date.parse(a.segments[0]!.departingAtUtc) - Date.parse(b.segments[0]!.departingAtUtc),
  );
  const removedFares = new Map(removed.passengers.map((passenger) => [passenger.id, passenger]));
  const addedFares = new Map(added.passengers.map((passenger) => [passenger.id, passenger]));
  const passengers = order.offer.payload.passengers.map((passenger) => {
    const gone = removedFares.get(passenger.id);
    const gained = addedFares.get(passenger.id);
    const fareAmount = passenger.fareAmount - (gone?.fareAmount ?? 0) + (gained?.fareAmount ?? 0);
    const taxAmount = (passenger.taxAmount ?? 0) - (gone?.taxAmount ?? 0) + (gained?.taxAmount ?? 0);
    return { id: passenger.id, type: passenger.type, fareAmount, taxAmount: Math.min(Math.max(taxAmount, 0), fareAmount) };
  });
  const payload: OfferPayload = {
    owner: order.offer.payload.owner,
    fareBrandName: added.fareBrandName,
    slices,
    passengers,
    conditions: added.conditions,
    passengerIdentityDocumentsRequired: order.offer.payload.passengerIdentityDocumentsRequired || added.passengerIdentityDocumentsRequired,
    // The platform's fee was paid for the booking, and stays with it (and its refund rule).
    ...(order.offer.payload.fee && { fee: order.offer.payload.fee }),
    // The booking stays its supplier's, under the supplier's names for it (a remote supplier's order and passengers).
    ...(order.offer.payload.supplier && { supplier: order.offer.payload.supplier }),
    ...(order.offer.payload.supplierOffer && { supplierOffer: order.offer.payload.supplierOffer }),
  };
  const removedSegments = segmentIdsOf(removed);
  return {
    offer: { ...order.offer, totalAmount: fareOf(payload) + (payload.fee?.amount ?? 0), payload },
    services: order.services.filter((service) => !dropsWith(service, removedSegments)),
  };
}
