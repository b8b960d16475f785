-- AlterTable
ALTER TABLE "DuffelBooking" ADD COLUMN "draft" JSONB;

-- AlterTable
ALTER TABLE "OrderCancellation" ADD COLUMN "supplierReference" TEXT;
