import { offerSupplier } from "../search/offer-payload";
import type { OrderSuppliers } from "../gateway/contract/gateway";
import { availableActions } from "../orders/core/order-supplier";
import type { z } from "zod";
import { orderPriceSplit, type OrderDetail, type OrderDocument, type OrderPassenger, type OrderStatus } from "../orders/core/order";
import { isRefunded, isRefunding } from "../orders/core/order-actions";
import { formatMinor } from "../money/format";
import { paymentStatus } from "../orders/payment/hold-deadline";
import { airlineChangeView } from "./airline-change.views";
import { offerViewA, priceSplitView } from "./offer.views";
import { documentViewA, serviceViewA, VARIANT_A_STATES } from "../orders/presentation/variant-a";
import type { createdOrderBSchema, documentSchema, orderASchema, orderBSchema, orderDetailSchema, paymentStatusSchema } from "./order.schemas";

/** Variant A status names as a list filter may spell them, mapped to the lifecycle's. */
const STATUS_FILTER_NAMES: Record<string, OrderStatus> = {
  pending: "PENDING",
  processing: "PROCESSING",
  ticketed: "TICKETED",
  confirmed: "TICKETED",
  failed: "FAILED",
  canceled: "CANCELED",
  cancelled: "CANCELED",
  refunded: "REFUNDED",
};

/** `?status=` of an order list, in either variant's spelling; undefined when not recognised. */
export function statusFilter(value: string): OrderStatus | undefined {
  return STATUS_FILTER_NAMES[value.toLowerCase()];
}

export const STATUS_FILTER_VALUES = Object.keys(STATUS_FILTER_NAMES);

function passengerView(passenger: OrderPassenger) {
  return {
    id: passenger.id,
    type: passenger.type,
    title: passenger.title,
    given_name: passenger.givenName,
    family_name: passenger.familyName,
    born_on: passenger.bornOn,
    gender: passenger.gender,
    email: passenger.email,
    phone_number: passenger.phoneNumber,
    identity_documents: passenger.identityDocuments.map((document) => ({
      type: document.type,
      number: document.number,
      issuing_country_code: document.issuingCountryCode,
      expires_on: document.expiresOn,
    })),
    loyalty_programme_accounts: (passenger.loyaltyProgrammeAccounts ?? []).map((account) => ({ airline_iata_code: account.airlineIataCode, account_number: account.accountNumber })),
    infant_passenger_id: passenger.infantPassengerId ?? null,
  };
}

export function documentView(document: OrderDocument): z.output<typeof documentSchema> {
  return { ...documentViewA(document), issued_at: document.createdAt.toISOString() };
}

/**
 * Variant A order (Variant A's names), as created, listed and read: status in Variant A's terms,
 * the booked itinerary, passengers, services and, once ticketed, the e-tickets; what the order
 * allows (`available_actions`) as of `now`, the tenant's time.
 */
export function orderViewA(order: OrderDetail, now: Date, suppliers: Pick<OrderSuppliers, "does" | "declared">): z.output<typeof orderASchema> {
  const { currency } = order;
  return {
    id: order.id,
    booking_reference: order.bookingReference,
    ...VARIANT_A_STATES[order.status],
    refund_status: isRefunded(order) ? "refunded" : isRefunding(order) ? "in_progress" : null,
    failure_reason: order.failureReason,
    cancellation_reason: order.cancellationReason,
    settlement: order.settlement,
    payment_status: paymentStatusView(order),
    offer_id: order.offerId,
    supplier: offerSupplier(order.offer.payload),
    available_actions: availableActions(order, now, suppliers),
    total_amount: formatMinor(order.totalAmount, currency),
    total_currency: currency,
    ...priceSplitView(orderPriceSplit(order), currency),
    passengers: order.passengers.map(passengerView),
    slices: offerViewA(order.offer).slices,
    services: order.services.map((service) => serviceViewA(service, currency)),
    documents: order.documents.map(documentView),
    airline_initiated_changes: order.airlineInitiatedChanges.map(airlineChangeView),
    metadata: order.metadata,
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
  };
}

function paymentStatusView(order: OrderDetail): z.output<typeof paymentStatusSchema> {
  const status = paymentStatus(order);
  return {
    awaiting_payment: status.awaitingPayment,
    payment_required_by: status.paymentRequiredBy?.toISOString() ?? null,
    price_guarantee_expires_at: status.priceGuaranteeExpiresAt?.toISOString() ?? null,
    paid_at: status.paidAt?.toISOString() ?? null,
  };
}

/** Variant B's order (docs/rest-api.md#orders-and-ticketing): its lifecycle status, uppercase. */
export function orderViewB(order: Pick<OrderDetail, "id" | "status" | "currency">): z.output<typeof orderBSchema> {
  return { id: order.id, status: order.status, currency: order.currency };
}

/** Variant B's create response, unwrapped (docs/rest-api.md#orders-and-ticketing). */
export function createdOrderViewB(order: OrderDetail): z.output<typeof createdOrderBSchema> {
  return {
    id: order.id,
    status: order.status,
    totalCents: order.totalAmount,
    currency: order.currency,
    createdAt: order.createdAt.toISOString(),
    offerId: order.offerId,
    bookingReference: order.bookingReference,
  };
}

/**
 * GET /v1/air/orders/:id serves both variants at once (docs/rest-api.md#two-interface-variants): `data` is the Variant A
 * order with the offer as booked at `data.offer`; `order` and `offer` are Variant B's view.
 */
export function orderDetailView(order: OrderDetail, now: Date, suppliers: Pick<OrderSuppliers, "does" | "declared">): z.output<typeof orderDetailSchema> {
  const offer = offerViewA(order.offer);
  return {
    success: true as const,
    message: "OK",
    data: { ...orderViewA(order, now, suppliers), offer },
    order: orderViewB(order),
    offer: { id: offer.id, total_amount: offer.total_amount },
  };
}
