import { formatMinor } from "../../money/format";
import type { OrderDocument, OrderStatus, SelectedService } from "../core/order";

/**
 * Variant A's serializer, shared by the REST order views (rest/order.views.ts) and the webhook
 * bodies (order-event-payload.ts), so an order reads the same in both.
 *
 * How Variant A names each state (docs/rest-api.md#order-lifecycle): PROCESSING is `pending` with ticketing
 * `in_progress`.
 */
export const VARIANT_A_STATES = {
  PENDING: { status: "pending", ticketing_status: "not_started" },
  PROCESSING: { status: "pending", ticketing_status: "in_progress" },
  TICKETED: { status: "confirmed", ticketing_status: "ticketed" },
  FAILED: { status: "failed", ticketing_status: "failed" },
  CANCELED: { status: "cancelled", ticketing_status: "not_started" },
  REFUNDED: { status: "refunded", ticketing_status: "ticketed" },
} as const satisfies Record<OrderStatus, { status: string; ticketing_status: string }>;

/** A document's address on this API. */
export function documentPath(document: Pick<OrderDocument, "orderId" | "id">): string {
  return `/v1/air/orders/${document.orderId}/documents/${document.id}`;
}

/** An e-ticket or EMD in Variant A's names, with its address: as the `order.ticketed` event carries it (the REST view adds `issued_at`). */
export function documentViewA(document: OrderDocument) {
  return {
    id: document.id,
    type: document.type,
    unique_identifier: document.uniqueIdentifier,
    passenger_id: document.passengerId,
    url: documentPath(document),
  };
}

/** A service of an order (booked with it or added later), in Variant A's names. */
export function serviceViewA(service: SelectedService, currency: string) {
  return {
    id: service.id,
    type: service.type,
    quantity: service.quantity,
    total_amount: formatMinor(service.unitAmount * service.quantity, currency),
    total_currency: currency,
    passenger_ids: service.passengerIds,
    segment_ids: service.segmentIds,
    designator: service.designator ?? null,
  };
}
