-- CreateEnum
CREATE TYPE "OrderStatus" AS ENUM ('PENDING', 'PROCESSING', 'TICKETED', 'FAILED', 'CANCELED', 'REFUNDED');

-- CreateEnum
CREATE TYPE "OrderJobKind" AS ENUM ('ticket', 'refund');

-- CreateEnum
CREATE TYPE "LedgerEntryType" AS ENUM ('opening_balance', 'owner_credit', 'ticketing_debit', 'ticketing_reversal', 'refund_credit', 'redenomination');

-- CreateTable
CREATE TABLE "Order" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "offerId" TEXT NOT NULL,
    "status" "OrderStatus" NOT NULL DEFAULT 'PENDING',
    "totalAmount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "offerSnapshot" JSONB NOT NULL,
    "services" JSONB NOT NULL,
    "metadata" JSONB NOT NULL,
    "bookingReference" TEXT NOT NULL,
    "failureReason" TEXT,
    "refundRequestedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Order_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderPassenger" (
    "orderId" TEXT NOT NULL,
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "type" TEXT NOT NULL,
    "title" TEXT,
    "givenName" TEXT NOT NULL,
    "familyName" TEXT NOT NULL,
    "bornOn" TEXT NOT NULL,
    "gender" TEXT NOT NULL,
    "email" TEXT NOT NULL,
    "phoneNumber" TEXT NOT NULL,
    "identityDocuments" JSONB NOT NULL,

    CONSTRAINT "OrderPassenger_pkey" PRIMARY KEY ("orderId","id")
);

-- CreateTable
CREATE TABLE "OrderDocument" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "passengerId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "uniqueIdentifier" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrderDocument_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "OrderJob" (
    "id" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "kind" "OrderJobKind" NOT NULL,
    "runAt" TIMESTAMP(3) NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OrderJob_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SeatHold" (
    "holdId" TEXT NOT NULL,
    "flightKey" TEXT NOT NULL,
    "cabinClass" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "seats" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SeatHold_pkey" PRIMARY KEY ("holdId","flightKey")
);

-- CreateTable
CREATE TABLE "Wallet" (
    "tenantId" TEXT NOT NULL,
    "currency" TEXT NOT NULL,
    "balance" BIGINT NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Wallet_pkey" PRIMARY KEY ("tenantId")
);

-- CreateTable
CREATE TABLE "LedgerEntry" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "type" "LedgerEntryType" NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "balanceAfter" BIGINT NOT NULL,
    "orderId" TEXT,
    "reference" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "LedgerEntry_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "IdempotencyRecord" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "tenantId" TEXT,
    "fingerprint" TEXT NOT NULL,
    "responseStatus" INTEGER,
    "responseBody" TEXT,
    "lockedUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdempotencyRecord_pkey" PRIMARY KEY ("scope","key")
);

-- CreateIndex
CREATE INDEX "Order_tenantId_createdAt_id_idx" ON "Order"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Order_tenantId_status_createdAt_id_idx" ON "Order"("tenantId", "status", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Order_tenantId_offerId_key" ON "Order"("tenantId", "offerId");

-- CreateIndex
CREATE INDEX "OrderPassenger_tenantId_orderId_idx" ON "OrderPassenger"("tenantId", "orderId");

-- CreateIndex
CREATE INDEX "OrderDocument_tenantId_orderId_idx" ON "OrderDocument"("tenantId", "orderId");

-- CreateIndex
CREATE INDEX "OrderJob_runAt_idx" ON "OrderJob"("runAt");

-- CreateIndex
CREATE UNIQUE INDEX "OrderJob_orderId_kind_key" ON "OrderJob"("orderId", "kind");

-- CreateIndex
CREATE INDEX "SeatHold_flightKey_cabinClass_idx" ON "SeatHold"("flightKey", "cabinClass");

-- CreateIndex
CREATE INDEX "SeatHold_tenantId_idx" ON "SeatHold"("tenantId");

-- CreateIndex
CREATE INDEX "LedgerEntry_tenantId_createdAt_id_idx" ON "LedgerEntry"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "LedgerEntry_orderId_type_key" ON "LedgerEntry"("orderId", "type");

-- CreateIndex
CREATE INDEX "IdempotencyRecord_tenantId_idx" ON "IdempotencyRecord"("tenantId");

-- CreateIndex
CREATE INDEX "IdempotencyRecord_expiresAt_idx" ON "IdempotencyRecord"("expiresAt");

-- AddForeignKey
ALTER TABLE "Order" ADD CONSTRAINT "Order_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderPassenger" ADD CONSTRAINT "OrderPassenger_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderDocument" ADD CONSTRAINT "OrderDocument_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "OrderJob" ADD CONSTRAINT "OrderJob_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Wallet" ADD CONSTRAINT "Wallet_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "LedgerEntry" ADD CONSTRAINT "LedgerEntry_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- A balance never goes below zero, whatever a bug or a race might attempt (added by hand).
ALTER TABLE "Wallet" ADD CONSTRAINT "Wallet_balance_not_negative" CHECK ("balance" >= 0);

-- Wallets for the tenants that existed before wallets (added by hand): a sandbox tenant opens
-- with 100000.00 of play money in its currency (minor units as src/money/format.ts counts them),
-- a live one with nothing. Deleted tenants get none.
INSERT INTO "Wallet" ("tenantId", "currency", "balance", "updatedAt")
SELECT "id", "defaultCurrency",
       CASE WHEN "environment" = 'sandbox' THEN 100000 * CASE
         WHEN "defaultCurrency" IN ('JPY', 'KRW', 'IDR', 'VND', 'ISK', 'HUF', 'CLP', 'COP') THEN 1
         WHEN "defaultCurrency" IN ('KWD', 'BHD', 'OMR', 'JOD') THEN 1000
         ELSE 100 END ELSE 0 END,
       (now() AT TIME ZONE 'UTC')
FROM "Tenant" WHERE "status" <> 'deleted';

INSERT INTO "LedgerEntry" ("id", "tenantId", "type", "amount", "currency", "balanceAfter", "createdAt")
SELECT 'wtx_' || md5(random()::text || "tenantId"), "tenantId", 'opening_balance', "balance", "currency", "balance", (now() AT TIME ZONE 'UTC')
FROM "Wallet" WHERE "balance" > 0;
