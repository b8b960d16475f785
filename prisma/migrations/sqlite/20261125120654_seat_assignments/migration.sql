-- CreateTable
CREATE TABLE "SeatAssignment" (
    "flightKey" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "designator" TEXT NOT NULL,
    "holdId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("flightKey", "environment", "designator")
);

-- CreateIndex
CREATE INDEX "SeatAssignment_holdId_idx" ON "SeatAssignment"("holdId");

-- CreateIndex
CREATE INDEX "SeatAssignment_tenantId_idx" ON "SeatAssignment"("tenantId");
