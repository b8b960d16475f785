import { appError, type AppError, type AppErrorDetails } from "../../errors/app-error";
import type { ErrorCode } from "../../errors/catalogue";
import { itineraryDates, type Order, type OrderStatus } from "./order";
import { orderTransitions } from "./order-state-machine";

/**
 * What an order allows: every action a client can ask of an order, the states it applies to,
 * and why an order refuses it now (`refusal`). The services ask here before they write; their
 * writes are still compare-and-sets on the state they read (order-state-machine.ts), and an order
 * that changed in between is refused in the same words (`stateConflict`).
 *
 * The states of each action; where the action is a transition, they are the state machine's own.
 * `phrase` names the action in a refusal: "only a PENDING order can be cancelled".
 */
export const ORDER_ACTIONS = {
  /** The ticket action or a payment: an unpaid hold, before its payment deadline. */
  pay: { from: [orderTransitions.ticket.from], phrase: "be ticketed" },
  /** The unpaid cancel action. */
  cancel: { from: [orderTransitions.cancel.from], phrase: "be cancelled" },
  /** Passengers' details change only before ticketing begins. */
  updatePassengers: { from: ["PENDING"], phrase: "have its passengers changed" },
  /** Bags and seats: a hold before its payment deadline, or a ticketed order with no refund under way. */
  addServices: { from: ["PENDING", "TICKETED"], phrase: "have services added" },
  /** A cancellation quote and its confirmation: a hold, or a ticketed order with no refund under way before its first flight. */
  cancelWithQuote: { from: ["PENDING", "TICKETED"], phrase: "be cancelled with a quote" },
  /** The one-step refund: a ticketed order with no refund under way, on a refundable fare, before its first flight. */
  refund: { from: [orderTransitions.refund.from], phrase: "be refunded" },
  /** Changing slices: a ticketed order with no refund under way, on a fare that allows changes (unless it answers the airline's change), before its first flight. */
  change: { from: ["TICKETED"], phrase: "be changed" },
  /** Accepting the airline's change: a ticketed order with no refund under way. */
  acceptAirlineChange: { from: ["TICKETED"], phrase: "accept an airline-initiated change" },
  /** The sandbox's airline change: a ticketed order with no refund under way, before its first flight. */
  simulateAirlineChange: { from: ["TICKETED"], phrase: "have an airline-initiated change" },
} as const satisfies Record<string, { from: readonly OrderStatus[]; phrase: string }>;

export type OrderAction = keyof typeof ORDER_ACTIONS;

/** What an action may depend on beyond the order and the time. */
export interface RefusalOptions {
  /** A change that answers the airline's own change: the fare's change condition does not apply. */
  noPenalty?: boolean;
}

/** A refusal before it is an error: the catalogue code and details to answer with. */
interface Refusal {
  code: ErrorCode;
  details: AppErrorDetails;
}

const refused = (code: ErrorCode, details: AppErrorDetails): Refusal => ({ code, details });
const asError = (refusal: Refusal): AppError => appError(refusal.code, refusal.details);

/**
 * Why `order` refuses `action` at `now`, as the error to answer (its code and details: an error is
 * made only when one is answered, since every order view asks of each action), or null when it
 * allows it:
 * - a state the action does not apply to: 409 `order_state_conflict` (a change: 422 `change_not_allowed`);
 * - a hold past its payment deadline takes no payment and no services (409);
 * - an order being refunded takes no services, no second refund, no change, no airline change (409; a change 422);
 * - once the first flight has left: no refund (422 `refund_not_allowed`), no change (422 `change_not_allowed`);
 * - a fare whose conditions forbid it: no one-step refund (422 `refund_not_allowed`; a quote still
 *   returns its taxes), no change unless it answers the airline's change (422 `change_not_allowed`).
 */
function refusalOf(order: Order, action: OrderAction, now: Date, options: RefusalOptions): Refusal | null {
  const inState = stateAllows(order, action);
  switch (action) {
    case "pay": {
      if (!inState) return conflict(order, action);
      if (awaitsConfirmation(order)) return conflict(order, action, UNCONFIRMED);
      return deadlinePassed(order, now) ? conflict(order, action, deadlineNote(order)) : null;
    }
    case "cancel":
    case "updatePassengers":
      return inState ? null : conflict(order, action);
    case "addServices": {
      if (!inState) return conflict(order, action);
      if (awaitsConfirmation(order)) return conflict(order, action, UNCONFIRMED);
      if (deadlinePassed(order, now)) return conflict(order, action, deadlineNote(order));
      return isRefunding(order) ? conflict(order, action, "a refund is under way") : null;
    }
    case "cancelWithQuote": {
      if (!inState) return conflict(order, action);
      if (isRefunding(order)) return conflict(order, "refund", REFUND_UNDER_WAY);
      const departed = isTicketed(order) ? departure(order, now) : null;
      return departed ? refused("refund_not_allowed", { reason: departed }) : null;
    }
    case "refund": {
      if (!inState) return conflict(order, action);
      if (isRefunding(order)) return conflict(order, action, REFUND_UNDER_WAY);
      const { fareBrandName, conditions } = order.offer.payload;
      if (!conditions.refundBeforeDeparture.allowed) return refused("refund_not_allowed", { reason: `The ${fareBrandName} fare is not refundable.` });
      const departed = departure(order, now);
      return departed ? refused("refund_not_allowed", { reason: departed }) : null;
    }
    case "change": {
      const notAllowed = (reason: string) => refused("change_not_allowed", { field: "order_id", reason });
      if (!inState) return notAllowed(stateMessage(order, action));
      if (isRefunding(order)) return notAllowed(`Order ${order.id} is being refunded.`);
      const { fareBrandName, conditions } = order.offer.payload;
      if (!options.noPenalty && !conditions.changeBeforeDeparture.allowed) return notAllowed(`The ${fareBrandName} fare does not allow changes.`);
      const departed = departure(order, now);
      return departed ? notAllowed(departed) : null;
    }
    case "acceptAirlineChange":
      return inState && !isRefunding(order) ? null : notOpen(order, action);
    case "simulateAirlineChange": {
      if (!inState || isRefunding(order)) return notOpen(order, action);
      const departed = departure(order, now);
      return departed ? refused("change_not_allowed", { field: "id", reason: departed }) : null;
    }
  }
}

/** Why `order` refuses `action` at `now`, as the error to answer, or null when it allows it (`refusalOf`). */
export function refusal(order: Order, action: OrderAction, now: Date, options: RefusalOptions = {}): AppError | null {
  const found = refusalOf(order, action, now, options);
  return found && asError(found);
}

/** Whether `order` allows `action` at `now`. */
export function allows(order: Order, action: OrderAction, now: Date, options: RefusalOptions = {}): boolean {
  return refusalOf(order, action, now, options) === null;
}

/** `refusal`, thrown. */
export function requireAllowed(order: Order, action: OrderAction, now: Date, options?: RefusalOptions): void {
  const refused = refusal(order, action, now, options);
  if (refused) throw refused;
}

/** Whether the order is in a state `action` applies to, whatever else refuses it now (a seat map keeps an order's seats on sale so). */
export function stateAllows(order: Pick<Order, "status">, action: OrderAction): boolean {
  return (ORDER_ACTIONS[action].from as readonly OrderStatus[]).includes(order.status);
}

/**
 * 409 `order_state_conflict`, naming the state the order is in and the states `action` applies
 * to: also the answer when an order moved on between a service's read and its write.
 */
export function stateConflict(order: Pick<Order, "id" | "status">, action: OrderAction, detail?: string): AppError {
  return asError(conflict(order, action, detail));
}

function conflict(order: Pick<Order, "id" | "status">, action: OrderAction, detail?: string): Refusal {
  const message = stateMessage(order, action, detail);
  return refused("order_state_conflict", { message, reason: message });
}

// ─── The order's lifecycle, named ─────────────────────────────────────────────────────────────

/** Unpaid: a hold, which a payment or its deadline ends. */
export function awaitsPayment(order: Pick<Order, "status">): boolean {
  return order.status === "PENDING";
}

/**
 * Booked at a supplier that took the booking without confirming it yet (its answer `accepted`):
 * PENDING with no booking reference, though its offer can be held (an offer that cannot is booked
 * only at ticketing). Its `confirm_booking` job reads it until the supplier confirms it (its
 * reference given) or fails it; until then it takes no payment and no services.
 */
export function awaitsConfirmation(order: Pick<Order, "status" | "bookingReference" | "offer">): boolean {
  return order.status === "PENDING" && order.bookingReference === "" && order.offer.payload.supplierOffer?.requiresInstantPayment !== true;
}

/** Paid, and the airline asked to ticket it: the ticketing job's to finish. */
export function awaitsTicketing(order: Pick<Order, "status">): boolean {
  return order.status === "PROCESSING";
}

/** Ticketed (a refund may be under way). */
export function isTicketed(order: Pick<Order, "status">): boolean {
  return order.status === "TICKETED";
}

/** Ticketed, and its refund asked for: the refund job's to finish. */
export function isRefunding(order: Pick<Order, "status" | "refundRequestedAt">): boolean {
  return isTicketed(order) && order.refundRequestedAt !== null;
}

/** Refunded: the refund job credited the wallet. */
export function isRefunded(order: Pick<Order, "status">): boolean {
  return order.status === "REFUNDED";
}

/**
 * The states in which an order owns its seats at the airline: held, paid and ticketing, or
 * ticketed. Every other state gave them back (cancelled, failed, refunded), so a seat intent of
 * an order in one of these states is the order's, and any other intent's seats go back on sale.
 */
export const SEAT_OWNING_STATUSES: readonly OrderStatus[] = ["PENDING", "PROCESSING", "TICKETED"];

// ─── Refusals' words ──────────────────────────────────────────────────────────────────────────

const REFUND_UNDER_WAY = "a refund is already under way";
const UNCONFIRMED = "the airline has not confirmed the booking yet";

function stateMessage(order: Pick<Order, "id" | "status">, action: OrderAction, detail?: string): string {
  const { from, phrase } = ORDER_ACTIONS[action];
  return `Order ${order.id} is ${order.status}; only a ${from.join(" or ")} order can ${phrase}${detail ? ` (${detail})` : ""}.`;
}

/** 409 for an airline change on an order that is not TICKETED with no refund under way. */
function notOpen(order: Order, action: "acceptAirlineChange" | "simulateAirlineChange"): Refusal {
  const refunding = isRefunding(order) ? " and being refunded" : "";
  const { from, phrase } = ORDER_ACTIONS[action];
  const message = `Order ${order.id} is ${order.status}${refunding}; only a ${from.join(" or ")} order with no refund under way can ${phrase}.`;
  return refused("order_state_conflict", { message, reason: message });
}

function deadlinePassed(order: Order, now: Date): boolean {
  return awaitsPayment(order) && order.paymentRequiredBy !== null && order.paymentRequiredBy <= now;
}

function deadlineNote(order: Order): string {
  return `its payment deadline ${order.paymentRequiredBy!.toISOString()} has passed`;
}

/** Why nothing more can be done with the order's flights, or null: its first flight has left. */
function departure(order: Order, now: Date): string | null {
  const { firstDepartureUtc } = itineraryDates(order.offer);
  return firstDepartureUtc <= now ? `The first flight departed at ${firstDepartureUtc.toISOString()}.` : null;
}
