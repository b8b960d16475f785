import type { Database } from "../../db/database";
import type { Prisma } from "../../db/models";
import { queryRows } from "../../db/query-rows";
import { sqlJson, sqlTimestamp } from "../../db/sql-values";
import { guarded, type BatchStatement, type GuardedStatement } from "../../db/write-batch";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { ACTIONS_TAKEN, airlineChangeFrom, type AirlineChangeActionTaken, type AirlineChangeRecord, type AirlineInitiatedChange } from "./airline-change";

/**
 * The rows of airline-initiated changes, and the statements that answer them: read and written
 * here only, by this domain and by the cancellation and change flows that answer a change.
 */

/** Names the guard of an acceptance in `GuardFailed`: the change was answered already. */
const AIRLINE_CHANGE_GUARD = "airline_change";

type Reader = Prisma.TransactionClient;

/** Names the guard of a reported change's insertion in `GuardFailed`: the supplier's change was recorded already. */
export const REPORTED_CHANGE_GUARD = "reported_change";

/** Inserts the change; one the supplier reported is inserted once per its id (a second insertion fails `REPORTED_CHANGE_GUARD`, so its batch and event roll back). */
export function insertAirlineChange(db: Database, change: AirlineInitiatedChange): BatchStatement {
  const { provider } = db;
  const at = sqlTimestamp(provider, change.createdAt);
  const insert = Sql.sql`INSERT INTO "AirlineInitiatedChange" ("id", "orderId", "tenantId", "removed", "added", "actionTaken", "supplierChangeId", "createdAt", "updatedAt")
    VALUES (${change.id}, ${change.orderId}, ${change.tenantId}, ${sqlJson(provider, change.removed)}, ${sqlJson(provider, change.added)}, NULL, ${change.supplierChangeId}, ${at}, ${at})`;
  if (change.supplierChangeId === null) return insert;
  return guarded(Sql.sql`${insert} ON CONFLICT ("orderId", "supplierChangeId") DO NOTHING`, REPORTED_CHANGE_GUARD);
}

/**
 * Answers the change once (`accepted` by default; any answer when it was taken outside the API):
 * of racing answers one changes the row, the others fail `AIRLINE_CHANGE_GUARD`.
 */
export function acceptAirlineChange(db: Database, change: Pick<AirlineInitiatedChange, "id" | "tenantId">, at: Date, actionTaken: AirlineChangeActionTaken = ACTIONS_TAKEN.accept): GuardedStatement {
  return guarded(
    Sql.sql`UPDATE "AirlineInitiatedChange" SET "actionTaken" = ${actionTaken}, "updatedAt" = ${sqlTimestamp(db.provider, at)}
      WHERE "id" = ${change.id} AND "tenantId" = ${change.tenantId} AND "actionTaken" IS NULL`,
    AIRLINE_CHANGE_GUARD,
  );
}

/**
 * Records that the order's open change was answered by cancelling (a confirmed full-refund
 * quote) or changing the order (a confirmed change without penalty), in the transaction that
 * does it; nothing when it has none. Unguarded: what decides between racing answers is the
 * order's own guard (every answer changes the order, and each checks it is as it was priced).
 */
export function answerAirlineChanges(db: Database, order: { id: string; tenantId: string }, action: "cancel" | "change", at: Date): Sql.Sql {
  return Sql.sql`UPDATE "AirlineInitiatedChange" SET "actionTaken" = ${ACTIONS_TAKEN[action]}, "updatedAt" = ${sqlTimestamp(db.provider, at)}
    WHERE "orderId" = ${order.id} AND "tenantId" = ${order.tenantId} AND "actionTaken" IS NULL`;
}

/**
 * The order's change still awaiting an answer, if any (an order has at most one: the trigger
 * refuses a second). A raw read: every cancellation quote of a ticketed order makes one.
 */
export async function openAirlineChange(db: Database, order: { id: string; tenantId: string }): Promise<AirlineInitiatedChange | null> {
  const [row] = await queryRows<AirlineChangeRecord>(
    db,
    Sql.sql`SELECT * FROM "AirlineInitiatedChange" WHERE "tenantId" = ${order.tenantId} AND "orderId" = ${order.id} AND "actionTaken" IS NULL`,
  );
  return row ? airlineChangeFrom(row) : null;
}

/** The changes of each order, oldest first (one query for any number of orders). */
export async function airlineChangesOf(reader: Reader, tenantId: string, orderIds: readonly string[]): Promise<AirlineInitiatedChange[][]> {
  const rows = await reader.airlineInitiatedChange.findMany({ where: { tenantId, orderId: { in: [...orderIds] } }, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  const groups = new Map<string, AirlineInitiatedChange[]>(orderIds.map((id) => [id, []]));
  for (const row of rows) groups.get(row.orderId)?.push(airlineChangeFrom(row));
  return orderIds.map((id) => groups.get(id)!);
}
