import type { Database } from "../../db/database";
import { sqlEnum } from "../../db/sql-enum";
import { sqlTimestamp } from "../../db/sql-values";
import { guarded, type GuardedStatement } from "../../db/write-batch";
import { appError, type AppError } from "../../errors/app-error";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import type { OrderStatus } from "./order";

/**
 * The order lifecycle (interface §3.1) as data: each trigger, the one state it applies to, and
 * the state it leads to. Every state change goes through `transition` (or `transitionAll`, for
 * a batch of orders), so an order moves only along these rows.
 */
export const orderTransitions = {
  ticket: { from: "PENDING", to: "PROCESSING" },
  ticketed: { from: "PROCESSING", to: "TICKETED" },
  fail: { from: "PROCESSING", to: "FAILED" },
  cancel: { from: "PENDING", to: "CANCELED" },
  refund: { from: "TICKETED", to: "REFUNDED" },
} as const satisfies Record<string, { from: OrderStatus; to: OrderStatus }>;

export type OrderTrigger = keyof typeof orderTransitions;

/** Passengers can be changed only before ticketing begins (§3.1 rule 1). */
export const EDITABLE_STATUS: OrderStatus = "PENDING";

export const TERMINAL_STATUSES: readonly OrderStatus[] = ["TICKETED", "FAILED", "CANCELED", "REFUNDED"];

/** Names the guard of a transition in `GuardFailed`: the order was no longer in the trigger's state. */
export const ORDER_GUARD = "order";

/** What a client asked that the order's state refuses, as the error names it. */
const ACTIONS: Record<OrderTrigger | "updatePassengers" | "requestRefund" | "cancelWithQuote" | "addServices", string> = {
  ticket: "be ticketed",
  ticketed: "be ticketed",
  fail: "fail ticketing",
  cancel: "be cancelled",
  refund: "be refunded",
  requestRefund: "be refunded",
  updatePassengers: "have its passengers changed",
  cancelWithQuote: "be cancelled with a quote",
  addServices: "have services added",
};

/** The states an action that is no transition of its own applies to. */
const ALLOWED_FROM: Partial<Record<keyof typeof ACTIONS, string>> = {
  updatePassengers: EDITABLE_STATUS,
  requestRefund: "TICKETED",
  cancelWithQuote: "PENDING or TICKETED",
  addServices: "PENDING or TICKETED",
};

/**
 * The compare-and-set that performs `trigger`, as a guarded batch statement: the order moves to
 * the trigger's state (`set` applied too) only if it is still in the state the trigger applies
 * to and `condition` holds; otherwise the batch rolls back with `GuardFailed(ORDER_GUARD)`. The
 * writes that go with the change (debit, job, documents, reversal) ride in the same batch.
 */
export function transition(db: Database, order: { id: string; tenantId: string }, trigger: OrderTrigger, at: Date, set: Sql.Sql = Sql.empty, condition: Sql.Sql = Sql.empty): GuardedStatement {
  return guarded(transitionUpdate(db, trigger, at, set, Sql.sql`"id" = ${order.id} AND "tenantId" = ${order.tenantId}`, condition), ORDER_GUARD);
}

/**
 * `transition` for several orders in one statement (a batch of them, e.g. holds whose deadlines
 * came): every one of them must move, or the batch rolls back with `GuardFailed(ORDER_GUARD)`.
 */
export function transitionAll(db: Database, orders: ReadonlyArray<{ id: string; tenantId: string }>, trigger: OrderTrigger, at: Date, set: Sql.Sql = Sql.empty): GuardedStatement {
  const keys = Sql.join(orders.map((order) => Sql.sql`(${order.id}, ${order.tenantId})`));
  return guarded(transitionUpdate(db, trigger, at, set, Sql.sql`("id", "tenantId") IN (VALUES ${keys})`, Sql.empty), ORDER_GUARD, orders.length);
}

function transitionUpdate(db: Database, trigger: OrderTrigger, at: Date, set: Sql.Sql, orders: Sql.Sql, condition: Sql.Sql): Sql.Sql {
  const { from, to } = orderTransitions[trigger];
  return Sql.sql`UPDATE "Order" SET "status" = ${sqlEnum(db.provider, "OrderStatus", to)},
      "updatedAt" = ${sqlTimestamp(db.provider, at)} ${set}
      WHERE ${orders} AND "status" = ${sqlEnum(db.provider, "OrderStatus", from)} ${condition}`;
}

/**
 * A change within a state (passengers edited, a refund asked for): the order's `updatedAt` moves
 * only if it is in `status` and `condition` holds, guarded like a transition.
 */
export function touchIn(db: Database, order: { id: string; tenantId: string }, status: OrderStatus, at: Date, set: Sql.Sql = Sql.empty, condition: Sql.Sql = Sql.empty): GuardedStatement {
  return guarded(
    Sql.sql`UPDATE "Order" SET "updatedAt" = ${sqlTimestamp(db.provider, at)} ${set}
      WHERE "id" = ${order.id} AND "tenantId" = ${order.tenantId} AND "status" = ${sqlEnum(db.provider, "OrderStatus", status)} ${condition}`,
    ORDER_GUARD,
  );
}

/** 409 `order_state_conflict`, naming the state the order is in and what was refused. */
export function stateConflict(order: { id: string; status: OrderStatus }, action: keyof typeof ACTIONS, detail?: string): AppError {
  const allowedFrom = ALLOWED_FROM[action] ?? orderTransitions[action as OrderTrigger].from;
  const message = `Order ${order.id} is ${order.status}; only a ${allowedFrom} order can ${ACTIONS[action]}${detail ? ` (${detail})` : ""}.`;
  return appError("order_state_conflict", { message, reason: message });
}
