-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "OrderJobKind" ADD VALUE 'emd';
ALTER TYPE "OrderJobKind" ADD VALUE 'reissue';

-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "LedgerEntryType" ADD VALUE 'services_debit';
ALTER TYPE "LedgerEntryType" ADD VALUE 'change_debit';
ALTER TYPE "LedgerEntryType" ADD VALUE 'change_credit';

-- DropIndex
DROP INDEX "LedgerEntry_orderId_type_key";

-- AlterTable
ALTER TABLE "ApiKey" ADD COLUMN     "permissions" JSONB;

-- AlterTable
ALTER TABLE "LedgerEntry" ADD COLUMN     "operationId" TEXT NOT NULL DEFAULT '';

-- CreateTable
CREATE TABLE "OrderServiceAddition" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "services" JSONB NOT NULL,
    "totalAmount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "paidAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrderServiceAddition_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderCancellation" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "refundAmount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "fullRefund" BOOLEAN NOT NULL DEFAULT false,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "confirmedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrderCancellation_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderChangeRequest" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "slices" JSONB NOT NULL,
    "noPenalty" BOOLEAN NOT NULL DEFAULT false,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrderChangeRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderChangeOffer" (
    "id" TEXT NOT NULL,
    "changeRequestId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "payload" JSONB NOT NULL,
    "changeTotalAmount" BIGINT NOT NULL,
    "penaltyAmount" BIGINT NOT NULL,
    "newTotalAmount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrderChangeOffer_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderChange" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "changeOfferId" TEXT NOT NULL,
    "confirmedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrderChange_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "AirlineInitiatedChange" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "removed" JSONB NOT NULL,
    "added" JSONB NOT NULL,
    "actionTaken" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "AirlineInitiatedChange_pkey" PRIMARY KEY ("id")
);

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
CREATE UNIQUE INDEX "LedgerEntry_orderId_type_operationId_key" ON "LedgerEntry"("orderId", "type", "operationId");

-- CreateIndex
CREATE INDEX "OrderEvent_orderId_createdAt_id_idx" ON "OrderEvent"("orderId", "createdAt", "id");
