import { splitTotal } from "../../search/offer-payload";
import { fareRisePercent } from "../../connectors/simulated/timetable/repricing";
import { itineraryDates, type Order } from "../core/order";
import { supplierDoes } from "../core/order-supplier";

/**
 * What an unpaid order costs now (docs/rest-api.md#holds-and-payments): within its price guarantee (the offer's expiry),
 * what it was booked at; after it, the airline's base fare again (`fareRisePercent`), the offer's
 * taxes kept as booked and its services as priced. Deterministic for an order and a day. A
 * supplier that prices its own holds (Duffel: it refuses a payment of a changed total, and
 * ticketing then fails with the debit reversed) is never priced again here.
 */
export function currentTotal(order: Pick<Order, "offer" | "services" | "totalAmount" | "bookingReference">, now: Date): number {
  if (now < order.offer.expiresAt || !supplierDoes(order.offer, "reprice")) return order.totalAmount;
  const { baseAmount } = splitTotal(order.offer.totalAmount, order.offer.payload);
  const rise = Math.round((baseAmount * fareRisePercent(order.bookingReference, itineraryDates(order.offer).firstDepartureUtc, now)) / 100);
  return bookedTotal(order) + rise;
}

/** The order's total as booked: its offer and services, before any new pricing. */
export function bookedTotal(order: Pick<Order, "offer" | "services">): number {
  return order.offer.totalAmount + servicesTotal(order);
}

function servicesTotal(order: Pick<Order, "services">): number {
  return order.services.reduce((sum, service) => sum + service.unitAmount * service.quantity, 0);
}
