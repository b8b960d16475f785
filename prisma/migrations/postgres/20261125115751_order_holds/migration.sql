-- AlterEnum
ALTER TYPE "OrderJobKind" ADD VALUE 'payment_deadline';

-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "cancellationReason" TEXT,
ADD COLUMN     "paidAt" TIMESTAMP(3),
ADD COLUMN     "paymentRequiredBy" TIMESTAMP(3);
