-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN "permissions" JSONB;

-- CreateTable
CREATE TABLE "OrderServiceAddition" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "services" JSONB NOT NULL,
    "totalAmount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "paidAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "OrderCancellation" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "refundAmount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "fullRefund" BOOLEAN NOT NULL DEFAULT false,
    "expiresAt" DATETIME NOT NULL,
    "confirmedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "OrderChangeRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "slices" JSONB NOT NULL,
    "noPenalty" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "OrderChangeOffer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "changeRequestId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "changeTotalAmount" BIGINT NOT NULL,
    "penaltyAmount" BIGINT NOT NULL,
    "newTotalAmount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "OrderChange" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "changeOfferId" TEXT NOT NULL,
    "confirmedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "AirlineInitiatedChange" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "removed" JSONB NOT NULL,
    "added" JSONB NOT NULL,
    "actionTaken" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_LedgerEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "balanceAfter" BIGINT NOT NULL,
    "orderId" TEXT,
    "reference" TEXT,
    "operationId" TEXT NOT NULL DEFAULT '',
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "LedgerEntry_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_LedgerEntry" ("amount", "balanceAfter", "createdAt", "currency", "id", "orderId", "reference", "tenantId", "type") SELECT "amount", "balanceAfter", "createdAt", "currency", "id", "orderId", "reference", "tenantId", "type" FROM "LedgerEntry";
DROP TABLE "LedgerEntry";
ALTER TABLE "new_LedgerEntry" RENAME TO "LedgerEntry";
CREATE INDEX "LedgerEntry_tenantId_createdAt_id_idx" ON "LedgerEntry"("tenantId", "createdAt", "id");
CREATE UNIQUE INDEX "LedgerEntry_orderId_type_operationId_key" ON "LedgerEntry"("orderId", "type", "operationId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "OrderServiceAddition_orderId_createdAt_id_idx" ON "OrderServiceAddition"("orderId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "OrderCancellation_tenantId_orderId_createdAt_id_idx" ON "OrderCancellation"("tenantId", "orderId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "OrderChangeRequest_tenantId_orderId_createdAt_id_idx" ON "OrderChangeRequest"("tenantId", "orderId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "OrderChangeOffer_changeRequestId_createdAt_id_idx" ON "OrderChangeOffer"("changeRequestId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "OrderChange_changeOfferId_key" ON "OrderChange"("changeOfferId");

-- CreateIndex
CREATE INDEX "OrderChange_tenantId_orderId_createdAt_id_idx" ON "OrderChange"("tenantId", "orderId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "AirlineInitiatedChange_tenantId_orderId_createdAt_id_idx" ON "AirlineInitiatedChange"("tenantId", "orderId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "OrderEvent_orderId_createdAt_id_idx" ON "OrderEvent"("orderId", "createdAt", "id");
