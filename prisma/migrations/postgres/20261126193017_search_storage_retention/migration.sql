-- DropForeignKey
ALTER TABLE "Offer" DROP CONSTRAINT "Offer_tenantId_fkey";

-- DropForeignKey
ALTER TABLE "Offer" DROP CONSTRAINT "Offer_offerRequestId_fkey";

-- Searches made before go with their offers' rows (the "Offer" table, dropped below); orders keep their own snapshots.
DELETE FROM "OfferRequest";

-- AlterTable
ALTER TABLE "OfferRequest" ADD COLUMN     "expiresAt" TIMESTAMP(3) NOT NULL,
ADD COLUMN     "offers" BYTEA NOT NULL;

-- AlterTable
ALTER TABLE "OrderChangeRequest" ADD COLUMN     "expiresAt" TIMESTAMP(3);

-- Change requests made before: expire with their offers (a request with none, at once), unless a
-- change made from one of them was confirmed (kept with the order).
UPDATE "OrderChangeRequest" SET "expiresAt" = COALESCE(
    (SELECT MAX(o."expiresAt") FROM "OrderChangeOffer" o WHERE o."changeRequestId" = "OrderChangeRequest"."id"),
    "createdAt")
WHERE NOT EXISTS (
    SELECT 1 FROM "OrderChangeOffer" o JOIN "OrderChange" c ON c."changeOfferId" = o."id"
    WHERE o."changeRequestId" = "OrderChangeRequest"."id" AND c."confirmedAt" IS NOT NULL);

-- DropTable
DROP TABLE "Offer";

-- CreateIndex
CREATE INDEX "OfferRequest_expiresAt_idx" ON "OfferRequest"("expiresAt");

-- CreateIndex
CREATE INDEX "WebhookDelivery_createdAt_idx" ON "WebhookDelivery"("createdAt");

-- CreateIndex
CREATE INDEX "OrderCancellation_confirmedAt_expiresAt_idx" ON "OrderCancellation"("confirmedAt", "expiresAt");

-- CreateIndex
CREATE INDEX "OrderChangeRequest_expiresAt_idx" ON "OrderChangeRequest"("expiresAt");
