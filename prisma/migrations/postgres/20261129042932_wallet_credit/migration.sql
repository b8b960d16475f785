-- AlterTable
ALTER TABLE "Wallet" ADD COLUMN     "lowBalanceAlerted" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "lowBalanceThreshold" BIGINT;

-- The balance may now go down to -"creditLimit" (guarded by each debit, src/wallet/wallet-change.ts),
-- so its CHECK (never below zero) goes; a credit limit is never negative.
ALTER TABLE "Wallet" DROP CONSTRAINT "Wallet_balance_not_negative";
ALTER TABLE "Wallet" ADD CONSTRAINT "Wallet_creditLimit_not_negative" CHECK ("creditLimit" >= 0);
