-- CreateTable
CREATE TABLE "Order" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "offerId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "totalAmount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "offerSnapshot" JSONB NOT NULL,
    "services" JSONB NOT NULL,
    "metadata" JSONB NOT NULL,
    "bookingReference" TEXT NOT NULL,
    "failureReason" TEXT,
    "refundRequestedAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Order_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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

    PRIMARY KEY ("orderId", "id"),
    CONSTRAINT "OrderPassenger_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OrderDocument" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "passengerId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "uniqueIdentifier" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OrderDocument_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "OrderJob" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "runAt" DATETIME NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "lockedUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OrderJob_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SeatHold" (
    "holdId" TEXT NOT NULL,
    "flightKey" TEXT NOT NULL,
    "cabinClass" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "seats" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("holdId", "flightKey")
);

-- CreateTable
CREATE TABLE "Wallet" (
    "tenantId" TEXT NOT NULL PRIMARY KEY,
    "currency" TEXT NOT NULL,
    "balance" BIGINT NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Wallet_balance_not_negative" CHECK ("balance" >= 0),
    CONSTRAINT "Wallet_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "LedgerEntry" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "amount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "balanceAfter" BIGINT NOT NULL,
    "orderId" TEXT,
    "reference" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "LedgerEntry_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IdempotencyRecord" (
    "scope" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "tenantId" TEXT,
    "fingerprint" TEXT NOT NULL,
    "responseStatus" INTEGER,
    "responseBody" TEXT,
    "lockedUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,

    PRIMARY KEY ("scope", "key")
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

-- Wallets for the tenants that existed before wallets (added by hand): a sandbox tenant opens
-- with 100000.00 of play money in its currency (minor units as src/money/format.ts counts them),
-- a live one with nothing. Deleted tenants get none.
INSERT INTO "Wallet" ("tenantId", "currency", "balance", "updatedAt")
SELECT "id", "defaultCurrency",
       CASE WHEN "environment" = 'sandbox' THEN 100000 * CASE
         WHEN "defaultCurrency" IN ('JPY', 'KRW', 'IDR', 'VND', 'ISK', 'HUF', 'CLP', 'COP') THEN 1
         WHEN "defaultCurrency" IN ('KWD', 'BHD', 'OMR', 'JOD') THEN 1000
         ELSE 100 END ELSE 0 END,
       strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
FROM "Tenant" WHERE "status" <> 'deleted';

INSERT INTO "LedgerEntry" ("id", "tenantId", "type", "amount", "currency", "balanceAfter", "createdAt")
SELECT 'wtx_' || lower(hex(randomblob(13))), "tenantId", 'opening_balance', "balance", "currency", "balance", strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now')
FROM "Wallet" WHERE "balance" > 0;
