import { orderPriceSplit, type Order } from "../core/order";
import { awaitsPayment } from "../core/order-actions";

/**
 * The refund rule: what cancelling an order gives back (`refundAmount`). Whether the order may be
 * cancelled for a refund, or refunded in one step, at all (its state, a refund under way, its
 * first departure, its fare) is `refusal` in ../core/order-actions.ts.
 */

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
 * THE refund of cancelling an order (docs/rest-api.md#cancellations-with-a-quote), in minor units of its currency, shared by
 * cancellation quotes and the refund action so the two never disagree:
 * - PENDING: nothing was paid, nothing comes back;
 * - a full refund (the airline cancelled): the whole total, services paid later included;
 * - a refundable fare: the total less the fare's penalty, without services paid after ticketing;
 * - a non-refundable fare: its taxes only (`tax_amount`).
 * The platform's fee (docs/running-the-platform.md#fees) is kept in every case, unless the rule that
 * priced it said `refundable`: then it comes back with whatever else does (`refundedFee`).
 */
export function refundAmount(order: Order, basis: RefundBasis): number {
  if (awaitsPayment(order)) return 0;
  const { taxAmount, feeAmount } = orderPriceSplit(order);
  const paidBeforeFee = order.totalAmount - feeAmount;
  if (basis.fullRefund) return paidBeforeFee + refundedFee(order);
  const condition = order.offer.payload.conditions.refundBeforeDeparture;
  if (!condition.allowed) return taxAmount + refundedFee(order);
  return Math.max(0, paidBeforeFee - basis.servicesPaidAfterTicketing - (condition.penaltyAmount ?? 0)) + refundedFee(order);
}

/** The part of a paid order's refund that is the platform's fee: all of it when its rule said `refundable`, else nothing. */
export function refundedFee(order: Pick<Order, "offer">): number {
  const fee = order.offer.payload.fee;
  return fee?.refundable ? fee.amount : 0;
}
