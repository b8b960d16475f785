-- AlterTable
ALTER TABLE "AirlineInitiatedChange" ADD COLUMN     "supplierChangeId" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "AirlineInitiatedChange_orderId_supplierChangeId_key" ON "AirlineInitiatedChange"("orderId", "supplierChangeId");
