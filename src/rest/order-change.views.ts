import type { z } from "zod";
import { formatMinor } from "../money/format";
import type { OrderChange, OrderChangeOffer, OrderChangeRequest } from "../order-changes/order-change";
import { slicesViewA } from "./offer.views";
import type { orderChangeOfferSchema, orderChangeRequestSchema, orderChangeSchema } from "./order-change.schemas";

/** The slices a change adds and removes, and what it costs. */
function changeView(offer: OrderChangeOffer) {
  const { currency } = offer;
  return {
    slices: { add: slicesViewA(offer.added), remove: slicesViewA(offer.removed) },
    change_total_amount: formatMinor(offer.changeTotalAmount, currency),
    change_total_currency: currency,
    penalty_total_amount: formatMinor(offer.penaltyAmount, currency),
    penalty_total_currency: currency,
    new_total_amount: formatMinor(offer.newTotalAmount, currency),
    new_total_currency: currency,
    refund_to: "balance" as const,
    expires_at: offer.expiresAt.toISOString(),
  };
}

export function orderChangeOfferView(offer: OrderChangeOffer): z.output<typeof orderChangeOfferSchema> {
  return { id: offer.id, order_change_request_id: offer.changeRequestId, order_id: offer.orderId, ...changeView(offer), created_at: offer.createdAt.toISOString() };
}

export function orderChangeRequestView(request: OrderChangeRequest): z.output<typeof orderChangeRequestSchema> {
  return {
    id: request.id,
    order_id: request.orderId,
    slices: {
      remove: request.slices.remove.map((slice) => ({ slice_id: slice.sliceId })),
      add: request.slices.add.map((slice) => ({ origin: slice.origin, destination: slice.destination, departure_date: slice.departureDate, cabin_class: slice.cabinClass })),
    },
    order_change_offers: request.offers.map(orderChangeOfferView),
    created_at: request.createdAt.toISOString(),
  };
}

export function orderChangeView(change: OrderChange): z.output<typeof orderChangeSchema> {
  return {
    id: change.id,
    order_id: change.orderId,
    order_change_offer_id: change.offer.id,
    ...changeView(change.offer),
    confirmed_at: change.confirmedAt?.toISOString() ?? null,
    created_at: change.createdAt.toISOString(),
  };
}
