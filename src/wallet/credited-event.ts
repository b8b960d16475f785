import type { Database } from "../db/database";
import { sqlTimestamp } from "../db/sql-values";
import { queueDeliveries } from "../events/outbox";
import type { WalletEventNotice } from "../events/wallet-events";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import { formatMinor } from "../money/format";
import { walletEventPayloadSql, walletFiguresSql } from "./wallet-figures";

const CREDITED = "wallet.credited";

/** An owner credit as its event reports it: the ledger entry it made. */
export interface CreditLanded {
  tenantId: string;
  entryId: string;
  /** Minor units of `currency`, positive. */
  amount: number;
  currency: string;
  reference: string | null;
  at: Date;
}

/**
 * `wallet.credited` and its deliveries, as statements for the end of the credit's batch: its
 * `data` is the wallet as the credit left it, plus `transaction` (the ledger entry: id, amount,
 * currency, reference).
 */
export function creditedEvent(db: Database, credit: CreditLanded, firstAttemptDelayMs: number): { statements: Sql.Sql[]; notice: WalletEventNotice } {
  const notice: WalletEventNotice = { id: newId("evt", credit.at.getTime()), tenantId: credit.tenantId, type: CREDITED, createdAt: credit.at.toISOString() };
  const transaction = { id: credit.entryId, amount: formatMinor(credit.amount, credit.currency), currency: credit.currency, reference: credit.reference };
  const payload = walletEventPayloadSql({ id: notice.id, event: CREDITED, created_at: notice.createdAt }, credit.tenantId, { transaction });
  return {
    notice,
    statements: [
      Sql.sql`INSERT INTO "OrderEvent" ("id", "tenantId", "orderId", "type", "payload", "createdAt")
        SELECT ${notice.id}, f."tenantId", NULL, ${CREDITED}, ${payload}, ${sqlTimestamp(db.provider, credit.at)} FROM ${walletFiguresSql(db, credit.tenantId)}`,
      ...queueDeliveries(db, [{ id: notice.id, tenantId: credit.tenantId, orderId: null, type: CREDITED, createdAt: credit.at }], firstAttemptDelayMs),
    ],
  };
}
