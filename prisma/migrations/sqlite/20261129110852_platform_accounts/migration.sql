-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN "platformAccounts" JSONB;

-- CreateTable
CREATE TABLE "PlatformAccount" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "supplier" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "encryptedToken" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_DuffelBooking" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "account" TEXT NOT NULL DEFAULT 'tenant',
    "offerId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "duffelOrderId" TEXT,
    "bookingReference" TEXT,
    "totalAmount" TEXT,
    "totalCurrency" TEXT,
    "paymentRequiredBy" TEXT,
    "draft" JSONB,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "DuffelBooking_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_DuffelBooking" ("bookingReference", "connectionId", "createdAt", "draft", "duffelOrderId", "id", "idempotencyKey", "offerId", "paymentRequiredBy", "status", "tenantId", "totalAmount", "totalCurrency", "updatedAt") SELECT "bookingReference", "connectionId", "createdAt", "draft", "duffelOrderId", "id", "idempotencyKey", "offerId", "paymentRequiredBy", "status", "tenantId", "totalAmount", "totalCurrency", "updatedAt" FROM "DuffelBooking";
DROP TABLE "DuffelBooking";
ALTER TABLE "new_DuffelBooking" RENAME TO "DuffelBooking";
CREATE INDEX "DuffelBooking_status_createdAt_idx" ON "DuffelBooking"("status", "createdAt");
CREATE UNIQUE INDEX "DuffelBooking_tenantId_idempotencyKey_key" ON "DuffelBooking"("tenantId", "idempotencyKey");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE UNIQUE INDEX "PlatformAccount_supplier_mode_key" ON "PlatformAccount"("supplier", "mode");
