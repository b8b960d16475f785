/** Every event an order emits (docs/webhooks.md#events), under the webhook's `event` names. */
export const ORDER_EVENT_TYPES = ["order.created", "order.ticketed", "order.failed", "order.cancelled", "order.refunded", "order.services_added", "order.changed", "order.airline_initiated_change_detected", "airline_credit.created", "order_cancellation.created", "order_cancellation.confirmed"] as const;
export type OrderEventType = (typeof ORDER_EVENT_TYPES)[number];

/**
 * An event as the outbox stores it; `payload` is the webhook body, byte for byte (built by
 * orders/presentation/order-event-payload.ts).
 */
export interface OrderEvent {
  id: string;
  tenantId: string;
  orderId: string;
  type: OrderEventType;
  createdAt: Date;
  payload: string;
}
