import { availableActions, type AirlineInitiatedChange } from "../core/airline-change";
import { formatMinor } from "../../money/format";
import type { CancellationReason, Order, OrderDocument, OrderStatus } from "../core/order";
import type { ServiceAddition } from "../services/service-addition";
import { documentViewA, serviceViewA, VARIANT_A_STATES } from "./variant-a";
import type { OrderEvent, OrderEventType } from "../../events/order-events";
import { newId } from "../../ids";
import type { AirlineCredit } from "../credits/airline-credits";
import type { OrderCancellation } from "../cancellation/cancellation";

/** An airline credit in the API's names (REST, webhooks). */
export function airlineCreditView(credit: AirlineCredit) {
  return {
    id: credit.id,
    order_id: credit.orderId,
    passenger_id: credit.passengerId,
    airline_iata_code: credit.airlineIataCode,
    amount: credit.amount === null || credit.currency === null ? null : formatMinor(credit.amount, credit.currency),
    currency: credit.currency,
    code: credit.code,
    name: credit.name,
    expires_at: credit.expiresAt?.toISOString() ?? null,
    created_at: credit.createdAt.toISOString(),
  };
}

/** A cancellation quote in the API's names (REST, webhooks). */
export function cancellationViewA(quote: OrderCancellation) {
  return {
    id: quote.id,
    order_id: quote.orderId,
    refund_amount: formatMinor(quote.refundAmount, quote.currency),
    refund_currency: quote.currency,
    refund_to: "balance" as const,
    expires_at: quote.expiresAt.toISOString(),
    confirmed_at: quote.confirmedAt?.toISOString() ?? null,
    created_at: quote.createdAt.toISOString(),
  };
}

/** The state each event of a transition leaves the order in; the others (services added) leave it where it is. */
const STATE_AFTER: Partial<Record<OrderEventType, OrderStatus>> = {
  "order.created": "PENDING",
  "order.ticketed": "TICKETED",
  "order.failed": "FAILED",
  "order.cancelled": "CANCELED",
  "order.refunded": "REFUNDED",
  "airline_credit.created": "REFUNDED",
};

/** What an event adds to the order's fields in its `data`. */
export type OrderEventDetails =
  | { type: "order.created" }
  | { type: "order.cancelled"; cancellationReason: CancellationReason }
  | { type: "order.ticketed"; documents: readonly OrderDocument[] }
  | { type: "order.failed"; failureReason: string; paymentReversed: boolean }
  | { type: "order.refunded"; refundAmount: number; refundCurrency: string }
  | { type: "order.services_added"; addition: ServiceAddition }
  | { type: "order.changed"; change: { id: string; changeTotalAmount: number; currency: string } }
  | { type: "order.changed"; airlineChange: { id: string; refundAmount: number; currency: string } }
  | { type: "order.airline_initiated_change_detected"; change: AirlineInitiatedChange }
  | { type: "airline_credit.created"; credit: AirlineCredit }
  | { type: "order_cancellation.created" | "order_cancellation.confirmed"; cancellation: OrderCancellation };

/**
 * The event reporting a change of `order` (as it was before a transition, as it is after a change
 * within its state) at `at`. The body is `{ id, event, created_at, data }`, `data` being the order
 * in Variant A's names as the change leaves it, plus what the event adds: e-tickets with their
 * `url` (ticketed), `failure_reason` and `payment_reversed` (failed), the amount credited back
 * (refunded), the addition with its services (services added), the change and what it cost
 * (changed: the order's slices are then the new ones; an airline-initiated change accepted names
 * it, and the seats given back with a cancelled flight as a negative cost), the airline's change
 * and what can be done about it (detected: the order shows its slices removed and added), the
 * cancellation quote (created, confirmed: the order as it was when it was quoted or confirmed).
 */
export function orderEvent(order: Order, at: Date, details: OrderEventDetails): OrderEvent {
  const id = newId("evt", at.getTime());
  const data: Record<string, unknown> = {
    id: order.id,
    booking_reference: order.bookingReference,
    ...VARIANT_A_STATES[STATE_AFTER[details.type] ?? order.status],
    offer_id: order.offerId,
    total_amount: formatMinor(order.totalAmount, order.currency),
    total_currency: order.currency,
    metadata: order.metadata,
    created_at: order.createdAt.toISOString(),
    updated_at: at.toISOString(),
  };
  if (details.type === "order.ticketed") {
    data.documents = details.documents.map(documentViewA);
  } else if (details.type === "order.failed") {
    data.failure_reason = details.failureReason;
    data.payment_reversed = details.paymentReversed;
  } else if (details.type === "order.cancelled") {
    data.cancellation_reason = details.cancellationReason;
  } else if (details.type === "order.refunded") {
    data.refund_amount = formatMinor(details.refundAmount, details.refundCurrency);
    data.refund_currency = details.refundCurrency;
  } else if (details.type === "order.services_added") {
    const { addition } = details;
    data.service_addition = {
      id: addition.id,
      services: addition.services.map((service) => serviceViewA(service, addition.currency)),
      total_amount: formatMinor(addition.totalAmount, addition.currency),
      total_currency: addition.currency,
      paid_at: addition.paidAt?.toISOString() ?? null,
    };
  } else if (details.type === "order.changed" && "change" in details) {
    data.order_change_id = details.change.id;
    data.change_total_amount = formatMinor(details.change.changeTotalAmount, details.change.currency);
    data.change_total_currency = details.change.currency;
  } else if (details.type === "order.changed") {
    data.airline_initiated_change_id = details.airlineChange.id;
    // What the change cost: nothing, or the seats it gave back (negative); `|| 0` keeps a zero unsigned.
    data.change_total_amount = formatMinor(-details.airlineChange.refundAmount || 0, details.airlineChange.currency);
    data.change_total_currency = details.airlineChange.currency;
  } else if (details.type === "order.airline_initiated_change_detected") {
    const { change } = details;
    data.airline_initiated_change = { id: change.id, available_actions: availableActions(change), created_at: change.createdAt.toISOString() };
  } else if (details.type === "airline_credit.created") {
    data.airline_credit = airlineCreditView(details.credit);
  } else if (details.type === "order_cancellation.created" || details.type === "order_cancellation.confirmed") {
    data.order_cancellation = cancellationViewA(details.cancellation);
  }
  const payload = JSON.stringify({ id, event: details.type, created_at: at.toISOString(), data });
  return { id, tenantId: order.tenantId, orderId: order.id, type: details.type, createdAt: at, payload };
}
