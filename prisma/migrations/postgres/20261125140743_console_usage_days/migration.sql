-- CreateTable
CREATE TABLE "DailyUsageCounter" (
    "tenantId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "DailyUsageCounter_pkey" PRIMARY KEY ("tenantId","day","metric")
);

-- CreateIndex
CREATE INDEX "Order_tenantId_bookingReference_idx" ON "Order"("tenantId", "bookingReference");

-- AddForeignKey
ALTER TABLE "DailyUsageCounter" ADD CONSTRAINT "DailyUsageCounter_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
