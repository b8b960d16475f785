import type { Order } from "../../src/orders/core/order";
import type { StoredOffer } from "../../src/search/offer-payload";

/** A TICKETED order of `offer`, as pure rules see one (no database): `overrides` set the rest. */
export function orderOf(offer: StoredOffer, overrides: Partial<Order> = {}): Order {
  return {
    id: "ord_fixture",
    tenantId: offer.tenantId,
    offerId: offer.id,
    status: "TICKETED",
    totalAmount: 120_000,
    currency: offer.currency,
    offer,
    services: [],
    metadata: {},
    bookingReference: "ABC234",
    failureReason: null,
    refundRequestedAt: null,
    paymentRequiredBy: null,
    paidAt: null,
    cancellationReason: null,
    settlement: "wallet",
    createdAt: new Date("2026-06-01T12:05:00Z"),
    updatedAt: new Date("2026-06-01T12:06:00Z"),
    ...overrides,
  };
}
