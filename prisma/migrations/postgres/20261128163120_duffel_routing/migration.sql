-- AlterTable
ALTER TABLE "OrderCancellation" ADD COLUMN     "supplierReference" TEXT;

-- AlterTable
ALTER TABLE "DuffelBooking" ADD COLUMN     "draft" JSONB;
