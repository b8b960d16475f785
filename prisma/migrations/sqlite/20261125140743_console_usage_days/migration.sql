-- CreateTable
CREATE TABLE "DailyUsageCounter" (
    "tenantId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "metric" TEXT NOT NULL,
    "count" BIGINT NOT NULL DEFAULT 0,

    PRIMARY KEY ("tenantId", "day", "metric"),
    CONSTRAINT "DailyUsageCounter_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Order_tenantId_bookingReference_idx" ON "Order"("tenantId", "bookingReference");
