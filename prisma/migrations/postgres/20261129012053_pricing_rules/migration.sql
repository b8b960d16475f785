-- AlterTable
ALTER TABLE "LedgerEntry" ADD COLUMN     "feeAmount" BIGINT NOT NULL DEFAULT 0;

-- CreateTable
CREATE TABLE "PricingRule" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT,
    "name" TEXT NOT NULL,
    "match" JSONB NOT NULL,
    "feePercent" TEXT,
    "feeFixedAmount" BIGINT,
    "feeFixedCurrency" TEXT,
    "feePer" TEXT NOT NULL DEFAULT 'order',
    "priority" INTEGER NOT NULL DEFAULT 0,
    "refundable" BOOLEAN NOT NULL DEFAULT false,
    "active" BOOLEAN NOT NULL DEFAULT true,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "PricingRule_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "PricingRule_createdAt_id_idx" ON "PricingRule"("createdAt", "id");

-- CreateIndex
CREATE INDEX "PricingRule_tenantId_createdAt_id_idx" ON "PricingRule"("tenantId", "createdAt", "id");

-- AddForeignKey
ALTER TABLE "PricingRule" ADD CONSTRAINT "PricingRule_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
