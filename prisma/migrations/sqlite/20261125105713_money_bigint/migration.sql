-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Offer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "offerRequestId" TEXT NOT NULL,
    "totalAmount" BIGINT NOT NULL,
    "currency" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "payload" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Offer_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Offer_offerRequestId_fkey" FOREIGN KEY ("offerRequestId") REFERENCES "OfferRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Offer" ("createdAt", "currency", "expiresAt", "id", "offerRequestId", "payload", "tenantId", "totalAmount") SELECT "createdAt", "currency", "expiresAt", "id", "offerRequestId", "payload", "tenantId", "totalAmount" FROM "Offer";
DROP TABLE "Offer";
ALTER TABLE "new_Offer" RENAME TO "Offer";
CREATE INDEX "Offer_tenantId_createdAt_id_idx" ON "Offer"("tenantId", "createdAt", "id");
CREATE INDEX "Offer_offerRequestId_createdAt_id_idx" ON "Offer"("offerRequestId", "createdAt", "id");
CREATE TABLE "new_Order" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "offerId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'PENDING',
    "totalAmount" BIGINT NOT NULL,
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
INSERT INTO "new_Order" ("bookingReference", "createdAt", "currency", "failureReason", "id", "metadata", "offerId", "offerSnapshot", "refundRequestedAt", "services", "status", "tenantId", "totalAmount", "updatedAt") SELECT "bookingReference", "createdAt", "currency", "failureReason", "id", "metadata", "offerId", "offerSnapshot", "refundRequestedAt", "services", "status", "tenantId", "totalAmount", "updatedAt" FROM "Order";
DROP TABLE "Order";
ALTER TABLE "new_Order" RENAME TO "Order";
CREATE INDEX "Order_tenantId_createdAt_id_idx" ON "Order"("tenantId", "createdAt", "id");
CREATE INDEX "Order_tenantId_status_createdAt_id_idx" ON "Order"("tenantId", "status", "createdAt", "id");
CREATE UNIQUE INDEX "Order_tenantId_offerId_key" ON "Order"("tenantId", "offerId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
