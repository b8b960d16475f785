import type { Database } from "../db/database";
import { sqlTimestamp } from "../db/sql-values";
import { queueDeliveries } from "../events/outbox";
import type { WalletEventNotice } from "../events/wallet-events";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import { walletEventPayloadSql, walletFiguresSql } from "./wallet-figures";

const LOW_BALANCE = "wallet.low_balance";

/** The statements of a low-balance check, and where among them the one that writes the event is. */
export interface LowBalanceCheck {
  statements: Sql.Sql[];
  /** Its index in `statements`: the event was sent when it changed a row. */
  eventStatement: number;
  /** The event, should it be written. */
  notice: WalletEventNotice;
}

/**
 * The end of every batch that changes what a tenant's wallet has available (a booking, a payment
 * or ticketing, a reversal, refund or cancellation, an owner credit, a settings change): decides,
 * in the batch's own transaction, whether `available` crossed below `low_balance_threshold`.
 * `Wallet.lowBalanceAlerted` is the crossing's state: the event `wallet.low_balance` (and its
 * deliveries) is written only when the wallet is below and was not alerted; the state then
 * follows the figures, so it is armed again once `available` is at or above the threshold. On
 * PostgreSQL the first statement locks the wallet's row (when it has a threshold), so of
 * concurrent batches each decides after the one before it committed: a crossing sends one event,
 * whatever races it. SQLite runs one batch at a time.
 */
export function lowBalanceCheck(db: Database, tenantId: string, at: Date, firstAttemptDelayMs: number): LowBalanceCheck {
  const notice: WalletEventNotice = { id: newId("evt", at.getTime()), tenantId, type: LOW_BALANCE, createdAt: at.toISOString() };
  const figures = walletFiguresSql(db, tenantId, { withThresholdOnly: true });
  const below = Sql.sql`f."available" < f."lowBalanceThreshold"`;
  const payload = walletEventPayloadSql({ id: notice.id, event: LOW_BALANCE, created_at: notice.createdAt }, tenantId);
  const lock =
    db.provider === "postgresql"
      ? [Sql.sql`UPDATE "Wallet" SET "lowBalanceAlerted" = "lowBalanceAlerted" WHERE "tenantId" = ${tenantId} AND "lowBalanceThreshold" IS NOT NULL`]
      : [];
  const statements = [
    ...lock,
    Sql.sql`INSERT INTO "OrderEvent" ("id", "tenantId", "orderId", "type", "payload", "createdAt")
      SELECT ${notice.id}, f."tenantId", NULL, ${LOW_BALANCE}, ${payload}, ${sqlTimestamp(db.provider, at)} FROM ${figures}
      WHERE ${below} AND f."lowBalanceAlerted" = FALSE`,
    ...queueDeliveries(db, [{ id: notice.id, tenantId, orderId: null, type: LOW_BALANCE, createdAt: at }], firstAttemptDelayMs, true),
    Sql.sql`UPDATE "Wallet" SET "lowBalanceAlerted" = NOT "lowBalanceAlerted"
      WHERE "tenantId" = ${tenantId} AND "lowBalanceAlerted" <> COALESCE((SELECT ${below} FROM ${figures}), FALSE)`,
  ];
  return { statements, eventStatement: lock.length, notice };
}
