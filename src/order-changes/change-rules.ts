import { appError } from "../errors/app-error";
import { itineraryDates, type Order } from "../orders/core/order";
import type { StoredSlice } from "../search/offer-payload";
import type { SupplierOffer, SupplierSlice } from "../supplier/supplier";
import type { ChangeSlices } from "./order-change";

/**
 * Why the order cannot be changed now, or null when it can (servicing §5): it must be TICKETED,
 * with no refund under way, before its first flight, on a fare whose `change_before_departure`
 * allows changes. An airline-initiated change (`noPenalty`) is the airline's doing: the fare's
 * rule does not apply to it.
 */
export function changeRefusal(order: Order, now: Date, noPenalty: boolean): string | null {
  if (order.status !== "TICKETED") return `Order ${order.id} is ${order.status}; only a TICKETED order can be changed.`;
  if (order.refundRequestedAt !== null) return `Order ${order.id} is being refunded.`;
  if (!noPenalty && !order.offer.payload.conditions.changeBeforeDeparture.allowed) return `The ${order.offer.payload.fareBrandName} fare does not allow changes.`;
  const { firstDepartureUtc } = itineraryDates(order.offer);
  if (firstDepartureUtc <= now) return `The first flight departed at ${firstDepartureUtc.toISOString()}.`;
  return null;
}

/** 422 `change_not_allowed` when `changeRefusal` has a reason. */
export function requireChangeable(order: Order, now: Date, noPenalty: boolean): void {
  const refusal = changeRefusal(order, now, noPenalty);
  if (refusal) throw appError("change_not_allowed", { field: "order_id", reason: refusal });
}

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
