import { itineraryDates, type Order } from "./order";

/**
 * Why the order cannot be refunded, or null when it can: the fare's `refund_before_departure`
 * condition, as the offer showed it, must allow it, and the first flight must not have left.
 */
export function refundRefusal(order: Order, now: Date): string | null {
  const condition = order.offer.payload.conditions.refundBeforeDeparture;
  if (!condition.allowed) return `The ${order.offer.payload.fareBrandName} fare is not refundable.`;
  const { firstDepartureUtc } = itineraryDates(order.offer);
  if (firstDepartureUtc <= now) return `The first flight departed at ${firstDepartureUtc.toISOString()}.`;
  return null;
}

/** What a refund gives back, in the order's currency: the total less the fare's refund penalty. */
export function refundAmount(order: Order): number {
  const penalty = order.offer.payload.conditions.refundBeforeDeparture.penaltyAmount ?? 0;
  return Math.max(0, order.totalAmount - penalty);
}
