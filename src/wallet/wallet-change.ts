import type { Database } from "../db/database";
import { sqlEnum } from "../db/sql-enum";
import { sqlTimestamp } from "../db/sql-values";
import { guarded, type BatchStatement } from "../db/write-batch";
import { Prisma } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import type { LedgerEntryType } from "./wallet";

export interface WalletChange {
  tenantId: string;
  type: LedgerEntryType;
  /** Signed minor units of `currency`: a debit is negative. */
  amount: number;
  /** The wallet's currency the amount is in; the change fails if the wallet was re-denominated meanwhile. */
  currency: string;
  orderId?: string | null;
  reference?: string | null;
  at: Date;
}

/** Names the guard of a wallet change in `GuardFailed`: the balance did not cover a debit, or the currency moved. */
export const WALLET_GUARD = "wallet";

/**
 * One change of a wallet as write-batch statements: the balance moves by `amount`, guarded so
 * that it never goes below zero (the database re-checks the condition on the row it updates, so
 * concurrent debits cannot overdraw it), and the ledger records the change with the balance
 * after it, in the same transaction. An order is debited, reversed and refunded at most once:
 * the ledger's unique (orderId, type) fails the batch on a second attempt.
 */
export function walletChange(db: Database, change: WalletChange): { entryId: string; statements: BatchStatement[] } {
  const entryId = newId("wtx", change.at.getTime());
  const at = sqlTimestamp(db.provider, change.at);
  return {
    entryId,
    statements: [
      guarded(
        Prisma.sql`UPDATE "Wallet" SET "balance" = "balance" + ${change.amount}, "updatedAt" = ${at}
          WHERE "tenantId" = ${change.tenantId} AND "currency" = ${change.currency} AND "balance" + ${change.amount} >= 0`,
        WALLET_GUARD,
      ),
      Prisma.sql`INSERT INTO "LedgerEntry" ("id", "tenantId", "type", "amount", "currency", "balanceAfter", "orderId", "reference", "createdAt")
        SELECT ${entryId}, "tenantId", ${sqlEnum(db.provider, "LedgerEntryType", change.type)}, ${change.amount}, "currency", "balance",
          ${change.orderId ?? null}, ${change.reference ?? null}, ${at}
        FROM "Wallet" WHERE "tenantId" = ${change.tenantId}`,
    ],
  };
}
