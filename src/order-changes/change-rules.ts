import { appError } from "../errors/app-error";
import type { Order } from "../orders/core/order";
import type { StoredSlice } from "../search/offer-payload";
import type { SupplierOffer, SupplierSlice } from "../gateway/contract/offers";
import type { ChangeSlices } from "./order-change";

/**
 * The slices to remove, checked against the order: each a slice of it, named once (422
 * `invalid_field_value` naming `slices.remove[i].slice_id`); and the added slices' one cabin (the
 * airline prices a change in one cabin: `slices.add[i].cabin_class` otherwise).
 */
export function checkChangeSlices(order: Order, slices: ChangeSlices): { removed: Set<string>; cabinClass: ChangeSlices["add"][number]["cabinClass"] } {
  const sliceIds = new Set(order.offer.payload.slices.map((slice) => slice.id));
  const removed = new Set<string>();
  slices.remove.forEach(({ sliceId }, index) => {
    const field = `slices.remove[${index}].slice_id`;
    if (!sliceIds.has(sliceId)) throw appError("invalid_field_value", { field, message: `${field}: ${sliceId} is not a slice of order ${order.id}` });
    if (removed.has(sliceId)) throw appError("invalid_field_value", { field, message: `${field}: ${sliceId} is named twice` });
    removed.add(sliceId);
  });
  const cabinClass = slices.add[0]!.cabinClass;
  const other = slices.add.findIndex((slice) => slice.cabinClass !== cabinClass);
  if (other >= 0) {
    const field = `slices.add[${other}].cabin_class`;
    throw appError("invalid_field_value", { field, message: `${field}: every added slice must be in one cabin (slices.add[0] is ${cabinClass})` });
  }
  return { removed, cabinClass };
}

const departureMs = (slice: { segments: ReadonlyArray<{ departingAtUtc: string }> }) => Date.parse(slice.segments[0]!.departingAtUtc);
const arrivalMs = (slice: { segments: ReadonlyArray<{ arrivingAtUtc: string }> }) => Date.parse(slice.segments.at(-1)!.arrivingAtUtc);

/**
 * Whether the airline's offer can replace the removed slices: it is the order's own airline (a
 * change stays with the carrier that ticketed it), it flies no flight the order holds already,
 * and its slices fit between the kept ones (each slice of the changed itinerary departs after the
 * one before it lands).
 */
export function canReplace(offer: SupplierOffer, order: Order, removedSliceIds: ReadonlySet<string>): boolean {
  const { owner, slices } = order.offer.payload;
  if (offer.owner.iataCode !== owner.iataCode) return false;
  const held = new Set(slices.flatMap((slice) => slice.segments.map((segment) => segment.flightKey)));
  if (offer.slices.some((slice) => slice.segments.some((segment) => held.has(segment.flightKey)))) return false;
  const kept = slices.filter((slice) => !removedSliceIds.has(slice.id));
  const itinerary: Array<StoredSlice | SupplierSlice> = [...kept, ...offer.slices].sort((a, b) => departureMs(a) - departureMs(b));
  return itinerary.every((slice, index) => index === 0 || departureMs(slice) > arrivalMs(itinerary[index - 1]!));
}
