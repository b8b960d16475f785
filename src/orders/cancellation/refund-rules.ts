import { itineraryDates, orderPriceSplit, type Order } from "../core/order";

/**
 * Why a TICKETED order cannot be cancelled for a refund at all, or null: the first flight must not
 * have left. Applies to cancellation quotes and the refund action alike.
 */
export function departureRefusal(order: Order, now: Date): string | null {
  const { firstDepartureUtc } = itineraryDates(order.offer);
  return firstDepartureUtc <= now ? `The first flight departed at ${firstDepartureUtc.toISOString()}.` : null;
}

/**
 * Why the one-step refund action (`/refund`) refuses the order, or null: besides the departure,
 * the fare's `refund_before_departure` condition must allow refunds (a non-refundable fare is
 * cancelled through a quote, which returns its taxes).
 */
export function refundRefusal(order: Order, now: Date): string | null {
  if (!order.offer.payload.conditions.refundBeforeDeparture.allowed) return `The ${order.offer.payload.fareBrandName} fare is not refundable.`;
  return departureRefusal(order, now);
}

/** What is owed back, beyond the order itself. */
export interface RefundBasis {
  /**
   * Services bought and paid for after ticketing that are still on the order (minor units of its
   * currency): counted in the total, never refunded by the fare. Those a change dropped with their
   * flight already left the total, so they are not taken off again.
   */
  servicesPaidAfterTicketing: number;
  /** An airline-initiated change's `cancel`: everything paid comes back. */
  fullRefund: boolean;
}

/**
 * THE refund of cancelling an order (servicing §4), in minor units of its currency, shared by
 * cancellation quotes and the refund action so the two never disagree:
 * - PENDING: nothing was paid, nothing comes back;
 * - a full refund (the airline cancelled): the whole total, services paid later included;
 * - a refundable fare: the total less the fare's penalty, without services paid after ticketing;
 * - a non-refundable fare: its taxes only (`tax_amount`).
 */
export function refundAmount(order: Order, basis: RefundBasis): number {
  if (order.status === "PENDING") return 0;
  if (basis.fullRefund) return order.totalAmount;
  const condition = order.offer.payload.conditions.refundBeforeDeparture;
  if (!condition.allowed) return orderPriceSplit(order).taxAmount;
  return Math.max(0, order.totalAmount - basis.servicesPaidAfterTicketing - (condition.penaltyAmount ?? 0));
}
