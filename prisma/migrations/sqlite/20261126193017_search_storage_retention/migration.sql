-- DropIndex
DROP INDEX "Offer_offerRequestId_createdAt_id_idx";

-- DropIndex
DROP INDEX "Offer_tenantId_createdAt_id_idx";

-- AlterTable
ALTER TABLE "OrderChangeRequest" ADD COLUMN "expiresAt" DATETIME;

-- Change requests made before: expire with their offers (a request with none, at once), unless a
-- change made from one of them was confirmed (kept with the order).
UPDATE "OrderChangeRequest" SET "expiresAt" = COALESCE(
    (SELECT MAX(o."expiresAt") FROM "OrderChangeOffer" o WHERE o."changeRequestId" = "OrderChangeRequest"."id"),
    "createdAt")
WHERE NOT EXISTS (
    SELECT 1 FROM "OrderChangeOffer" o JOIN "OrderChange" c ON c."changeOfferId" = o."id"
    WHERE o."changeRequestId" = "OrderChangeRequest"."id" AND c."confirmedAt" IS NOT NULL);

-- DropTable
PRAGMA foreign_keys=off;
DROP TABLE "Offer";
PRAGMA foreign_keys=on;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_OfferRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "offerCount" INTEGER NOT NULL,
    "offers" BLOB NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OfferRequest_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Searches made before are not copied: their offers were rows of "Offer", dropped above (orders keep their own snapshots).
DROP TABLE "OfferRequest";
ALTER TABLE "new_OfferRequest" RENAME TO "OfferRequest";
CREATE INDEX "OfferRequest_tenantId_createdAt_id_idx" ON "OfferRequest"("tenantId", "createdAt", "id");
CREATE INDEX "OfferRequest_expiresAt_idx" ON "OfferRequest"("expiresAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "OrderCancellation_confirmedAt_expiresAt_idx" ON "OrderCancellation"("confirmedAt", "expiresAt");

-- CreateIndex
CREATE INDEX "OrderChangeRequest_expiresAt_idx" ON "OrderChangeRequest"("expiresAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_createdAt_idx" ON "WebhookDelivery"("createdAt");
