import type { Holds } from "../../gateway/contract/capabilities";
import { splitTotal } from "../../search/offer-payload";
import { itineraryDates, type Order } from "../core/order";

/**
 * What an unpaid order costs now (docs/rest-api.md#holds-and-payments): within its price guarantee (the offer's expiry),
 * what it was booked at; after it, its base fare risen by its supplier's rule (`holds`: the
 * supplier's Holds capability), the offer's taxes kept as booked and its services as priced.
 * Deterministic for an order and a day. A supplier without holds on our terms prices its own
 * holds (it refuses a payment of a changed total, and ticketing then fails with the debit
 * reversed), so its orders are never priced again here.
 */
export function currentTotal(order: Pick<Order, "offer" | "services" | "totalAmount" | "bookingReference">, now: Date, holds: Holds | undefined): number {
  if (now < order.offer.expiresAt || !holds) return order.totalAmount;
  const { baseAmount } = splitTotal(order.offer.totalAmount, order.offer.payload);
  const rise = Math.round((baseAmount * holds.fareRisePercent({ bookingReference: order.bookingReference, firstDepartureUtc: itineraryDates(order.offer).firstDepartureUtc }, now)) / 100);
  return bookedTotal(order) + rise;
}

/** The order's total as booked: its offer and services, before any new pricing. */
export function bookedTotal(order: Pick<Order, "offer" | "services">): number {
  return order.offer.totalAmount + servicesTotal(order);
}

function servicesTotal(order: Pick<Order, "services">): number {
  return order.services.reduce((sum, service) => sum + service.unitAmount * service.quantity, 0);
}
