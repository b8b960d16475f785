import type { Database } from "../../db/database";
import { sqlEnum } from "../../db/sql-enum";
import { sqlTimestamp } from "../../db/sql-values";
import { guarded, type GuardedStatement } from "../../db/write-batch";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import type { OrderStatus } from "./order";

/**
 * The order lifecycle (docs/rest-api.md#order-lifecycle) as data: each trigger, the one state it applies to, and
 * the state it leads to. Every state change goes through `transition` (or `transitionAll`, for
 * a batch of orders), so an order moves only along these rows. Which actions a client may ask
 * of an order in each state, and the words of a refusal, are in order-actions.ts.
 */
export const orderTransitions = {
  ticket: { from: "PENDING", to: "PROCESSING" },
  ticketed: { from: "PROCESSING", to: "TICKETED" },
  fail: { from: "PROCESSING", to: "FAILED" },
  /** The supplier failed a booking it had accepted without confirming it (order-actions.ts `awaitsConfirmation`). */
  bookingFailed: { from: "PENDING", to: "FAILED" },
  cancel: { from: "PENDING", to: "CANCELED" },
  refund: { from: "TICKETED", to: "REFUNDED" },
} as const satisfies Record<string, { from: OrderStatus; to: OrderStatus }>;

export type OrderTrigger = keyof typeof orderTransitions;

export const TERMINAL_STATUSES: readonly OrderStatus[] = ["TICKETED", "FAILED", "CANCELED", "REFUNDED"];

/** Names the guard of a transition in `GuardFailed`: the order was no longer in the trigger's state. */
export const ORDER_GUARD = "order";

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
