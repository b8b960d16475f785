-- CreateTable
CREATE TABLE "SupplierConnection" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "supplier" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "encryptedToken" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    CONSTRAINT "SupplierConnection_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "DuffelBooking" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "idempotencyKey" TEXT NOT NULL,
    "connectionId" TEXT NOT NULL,
    "offerId" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "duffelOrderId" TEXT,
    "bookingReference" TEXT,
    "totalAmount" TEXT,
    "totalCurrency" TEXT,
    "paymentRequiredBy" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "DuffelBooking_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "SupplierConnection_tenantId_supplier_key" ON "SupplierConnection"("tenantId", "supplier");

-- CreateIndex
CREATE INDEX "DuffelBooking_status_createdAt_idx" ON "DuffelBooking"("status", "createdAt");

-- CreateIndex
CREATE UNIQUE INDEX "DuffelBooking_tenantId_idempotencyKey_key" ON "DuffelBooking"("tenantId", "idempotencyKey");
