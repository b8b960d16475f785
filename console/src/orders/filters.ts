import type { OrderStatus } from "../generated/graphql";

export const ORDER_STATUSES: readonly OrderStatus[] = ["PENDING", "PROCESSING", "TICKETED", "FAILED", "CANCELED", "REFUNDED"];
export const FILTER_NAMES = ["status", "from", "to", "reference", "name"] as const;
export type OrderFilterValues = Record<(typeof FILTER_NAMES)[number], string>;

/** Local midnight of a `YYYY-MM-DD` day, as an instant. */
function localMidnight(day: string, addDays = 0): string | null {
  const [year, month, date] = day.split("-").map(Number);
  if (!year || !month || !date) return null;
  return new Date(year, month - 1, date + addDays).toISOString();
}

/**
 * The URL's filters as the `orders` query's arguments: the days are the person's own (booked
 * from the start of `from` to the end of `to`, in their time zone).
 */
export function orderFilterVariables(values: OrderFilterValues) {
  return {
    status: ORDER_STATUSES.includes(values.status as OrderStatus) ? (values.status as OrderStatus) : null,
    createdFrom: values.from ? localMidnight(values.from) : null,
    createdBefore: values.to ? localMidnight(values.to, 1) : null,
    bookingReference: values.reference || null,
    passengerName: values.name || null,
  };
}
