-- RedefineTables: the balance's CHECK (never below zero) goes, as the balance may now go down to
-- -"creditLimit" (guarded by each debit, src/wallet/wallet-change.ts); a credit limit is never negative.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Wallet" (
    "tenantId" TEXT NOT NULL PRIMARY KEY,
    "currency" TEXT NOT NULL,
    "balance" BIGINT NOT NULL,
    "creditLimit" BIGINT NOT NULL DEFAULT 0,
    "maxUnpaidOrders" INTEGER,
    "maxUnpaidSeatsPerFlight" INTEGER,
    "lowBalanceThreshold" BIGINT,
    "lowBalanceAlerted" BOOLEAN NOT NULL DEFAULT false,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Wallet_creditLimit_not_negative" CHECK ("creditLimit" >= 0),
    CONSTRAINT "Wallet_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Wallet" ("balance", "creditLimit", "currency", "maxUnpaidOrders", "maxUnpaidSeatsPerFlight", "tenantId", "updatedAt") SELECT "balance", "creditLimit", "currency", "maxUnpaidOrders", "maxUnpaidSeatsPerFlight", "tenantId", "updatedAt" FROM "Wallet";
DROP TABLE "Wallet";
ALTER TABLE "new_Wallet" RENAME TO "Wallet";
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
