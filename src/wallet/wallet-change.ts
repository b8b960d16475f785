import type { Database } from "../db/database";
import { sqlEnum } from "../db/sql-enum";
import { sqlTimestamp } from "../db/sql-values";
import { guarded, type BatchStatement } from "../db/write-batch";
import { Prisma } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import { MAX_MINOR } from "../money/minor-units";
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
  /** The service addition or order change the entry belongs to, for the types an order may have several of. */
  operationId?: string;
  /** How much of the amount is the platform's fee (minor units of `currency`, not negative): the fee a debit pays or a reversal or refund gives back. */
  feeAmount?: number;
  /**
   * Money entering from outside (an owner credit) may not take the balance past 2^53 − 1 minor
   * units (src/money/minor-units.ts): the guard fails instead. Reversals and refunds only return
   * what was debited, so they have no ceiling.
   */
  capped?: boolean;
  /** A debit of what a supplier was paid already (it cannot be taken back): it lands even past the credit limit. */
  owed?: boolean;
  at: Date;
}

/** Names the guard of a wallet change in `GuardFailed`: the balance and credit limit did not cover a debit, a credit would pass the ceiling, or the currency moved. */
export const WALLET_GUARD = "wallet";

/**
 * One change of a wallet as write-batch statements: the balance moves by `amount`, a debit
 * guarded so that it never takes the balance below `-creditLimit` (the database re-checks the
 * condition on the row it updates, so concurrent debits cannot pass the credit limit), and the ledger records the change with the balance
 * after it, in the same transaction. An order is debited, reversed and refunded at most once, and
 * each of its service additions and changes moves money at most once: the ledger's unique
 * (orderId, type, operationId) fails the batch on a second attempt.
 */
export function walletChange(db: Database, change: WalletChange): { entryId: string; statements: BatchStatement[] } {
  const entryId = newId("wtx", change.at.getTime());
  const at = sqlTimestamp(db.provider, change.at);
  // Bound as a 64-bit integer: SQLite binds a JavaScript number as a double, and sums past 2^53 would round.
  const amount = BigInt(change.amount);
  const ceiling = change.capped ? Prisma.sql`AND "balance" + ${amount} <= ${BigInt(MAX_MINOR)}` : Prisma.empty;
  // Only a debit needs the money: money coming in lands even on a wallet a lowered credit limit left below its floor.
  const floor = change.amount < 0 && !change.owed ? Prisma.sql`AND "balance" + ${amount} >= -"creditLimit"` : Prisma.empty;
  return {
    entryId,
    statements: [
      guarded(
        Prisma.sql`UPDATE "Wallet" SET "balance" = "balance" + ${amount}, "updatedAt" = ${at}
          WHERE "tenantId" = ${change.tenantId} AND "currency" = ${change.currency} ${floor} ${ceiling}`,
        WALLET_GUARD,
      ),
      Prisma.sql`INSERT INTO "LedgerEntry" ("id", "tenantId", "type", "amount", "currency", "balanceAfter", "orderId", "reference", "operationId", "feeAmount", "createdAt")
        SELECT ${entryId}, "tenantId", ${sqlEnum(db.provider, "LedgerEntryType", change.type)}, ${amount}, "currency", "balance",
          ${change.orderId ?? null}, ${change.reference ?? null}, ${change.operationId ?? ""}, ${BigInt(change.feeAmount ?? 0)}, ${at}
        FROM "Wallet" WHERE "tenantId" = ${change.tenantId}`,
    ],
  };
}
