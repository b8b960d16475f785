-- CreateTable
CREATE TABLE "PricingRule" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT,
    "name" TEXT NOT NULL,
    "match" JSONB NOT NULL,
    "feePercent" TEXT,
    "feeFixedAmount" BIGINT,
    "feeFixedCurrency" TEXT,
    "feePer" TEXT NOT NULL DEFAULT 'order',
    "priority" INTEGER NOT NULL DEFAULT 0,
    "refundable" BOOLEAN NOT NULL DEFAULT false,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "PricingRule_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- AlterTable (an added column with a default: SQLite adds it in place, no copy of the ledger)
ALTER TABLE "LedgerEntry" ADD COLUMN "feeAmount" BIGINT NOT NULL DEFAULT 0;

-- CreateIndex
CREATE INDEX "PricingRule_createdAt_id_idx" ON "PricingRule"("createdAt", "id");

-- CreateIndex
CREATE INDEX "PricingRule_tenantId_createdAt_id_idx" ON "PricingRule"("tenantId", "createdAt", "id");
