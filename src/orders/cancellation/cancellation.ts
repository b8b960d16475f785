import type { Database } from "../../db/database";
import { dateFrom, exactNumber, sqlTimestamp } from "../../db/sql-values";
import { guarded, type GuardedStatement } from "../../db/write-batch";
import { Prisma as Sql, type OrderCancellation as CancellationRow } from "../../generated/prisma-sqlite/client";

/** How long a quote can be confirmed (docs/rest-api.md#cancellations-with-a-quote). */
export const QUOTE_LIFETIME_MS = 15 * 60 * 1000;

/** Names the guard of a confirmation in `GuardFailed`: the quote was confirmed already. */
export const CANCELLATION_GUARD = "cancellation";

/**
 * A cancellation quote (`ore_`, docs/rest-api.md#cancellations-with-a-quote): what cancelling the order refunds, fixed when it
 * was quoted; confirming it cancels (PENDING) or refunds (TICKETED) the order and credits
 * exactly this amount.
 */
export interface OrderCancellation {
  id: string;
  orderId: string;
  tenantId: string;
  /** Minor units of `currency`, the order's. */
  refundAmount: number;
  currency: string;
  /** Quoted for an airline-initiated change's `cancel`: the whole total comes back. */
  fullRefund: boolean;
  /** The supplier's own quote this one repeats (a remote supplier's order cancellation), confirmed at the supplier by the refund; null when our refund rule priced it. */
  supplierReference: string | null;
  expiresAt: Date;
  confirmedAt: Date | null;
  createdAt: Date;
}

/** A quote's row as Prisma reads it, or as a raw read does (queryRows: dates as ISO text on SQLite, the flag as 0 or 1). */
export type CancellationRecord = Pick<CancellationRow, "id" | "orderId" | "tenantId" | "currency" | "supplierReference"> & Record<"refundAmount" | "fullRefund" | "expiresAt" | "confirmedAt" | "createdAt", unknown>;

export function cancellationFrom(row: CancellationRecord): OrderCancellation {
  return {
    id: row.id,
    orderId: row.orderId,
    tenantId: row.tenantId,
    refundAmount: exactNumber(row.refundAmount as bigint | number),
    currency: row.currency,
    fullRefund: Boolean(row.fullRefund),
    supplierReference: row.supplierReference,
    expiresAt: dateFrom(row.expiresAt),
    confirmedAt: row.confirmedAt === null ? null : dateFrom(row.confirmedAt),
    createdAt: dateFrom(row.createdAt),
  };
}

/** Writes a quote (confirmed already when the refund action quotes and confirms in one step). */
export function insertCancellation(db: Database, quote: OrderCancellation): Sql.Sql {
  const at = (date: Date | null) => (date === null ? null : sqlTimestamp(db.provider, date));
  return Sql.sql`INSERT INTO "OrderCancellation" ("id", "orderId", "tenantId", "refundAmount", "currency", "fullRefund", "supplierReference", "expiresAt", "confirmedAt", "createdAt")
    VALUES (${quote.id}, ${quote.orderId}, ${quote.tenantId}, ${BigInt(quote.refundAmount)}, ${quote.currency}, ${quote.fullRefund ? Sql.sql`TRUE` : Sql.sql`FALSE`},
      ${quote.supplierReference}, ${at(quote.expiresAt)}, ${at(quote.confirmedAt)}, ${at(quote.createdAt)})`;
}

/**
 * A new quote replaces the order's earlier unconfirmed ones: they expire now (an airline confirms
 * only the latest quote it gave for an order, so an earlier one could not be carried out).
 */
export function expireEarlierQuotes(db: Database, quote: OrderCancellation): Sql.Sql {
  const at = sqlTimestamp(db.provider, quote.createdAt);
  return Sql.sql`UPDATE "OrderCancellation" SET "expiresAt" = ${at}
    WHERE "orderId" = ${quote.orderId} AND "tenantId" = ${quote.tenantId} AND "confirmedAt" IS NULL AND "expiresAt" > ${at}`;
}

/**
 * Confirms a quote once, while it has not expired: of racing confirmations one changes the row, the
 * others fail `CANCELLATION_GUARD`, as does one racing a newer quote that replaced it.
 */
export function confirmCancellation(db: Database, quote: OrderCancellation, at: Date): GuardedStatement {
  const now = sqlTimestamp(db.provider, at);
  return guarded(
    Sql.sql`UPDATE "OrderCancellation" SET "confirmedAt" = ${now}
      WHERE "id" = ${quote.id} AND "tenantId" = ${quote.tenantId} AND "confirmedAt" IS NULL AND "expiresAt" > ${now}`,
    CANCELLATION_GUARD,
  );
}
