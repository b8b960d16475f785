/**
 * Hold limits (docs/rest-api.md#hold-limits): what a tenant may hold without paying, since a
 * booking holds the airline's seats until its payment deadline without taking money. Each limit
 * is a whole number, or null for none. Booking past one is 422 `hold_limit_reached`
 * (orders/payment/unpaid-holds.ts, which enforces them); lowering one below what is held only
 * refuses new bookings.
 */
export interface HoldLimits {
  /** The most unpaid (PENDING) orders at once. */
  maxUnpaidOrders: number | null;
  /** The most seats the unpaid orders hold on any one flight (passengers who occupy a seat). */
  maxUnpaidSeatsPerFlight: number | null;
}

export type HoldLimit = keyof HoldLimits;

/**
 * A live tenant's limits unless the owner sets others: airlines treat ten passengers or more as a
 * group, booked through their group desks. Sandbox tenants have none: their holds never take live
 * seats (the environments' inventories are apart).
 */
export const LIVE_HOLD_LIMITS: HoldLimits = { maxUnpaidOrders: 100, maxUnpaidSeatsPerFlight: 9 };
export const NO_HOLD_LIMITS: HoldLimits = { maxUnpaidOrders: null, maxUnpaidSeatsPerFlight: null };

export function defaultHoldLimits(environment: "sandbox" | "live"): HoldLimits {
  return environment === "live" ? LIVE_HOLD_LIMITS : NO_HOLD_LIMITS;
}

/** The largest limit that can be set (the columns are 32-bit). */
export const MAX_HOLD_LIMIT = 1_000_000;

/** Each limit as the API names it (the wallet's `hold_limits`, the field of a refusal). */
export const HOLD_LIMIT_FIELDS: Record<HoldLimit, string> = {
  maxUnpaidOrders: "hold_limits.max_unpaid_orders",
  maxUnpaidSeatsPerFlight: "hold_limits.max_unpaid_seats_per_flight",
};
