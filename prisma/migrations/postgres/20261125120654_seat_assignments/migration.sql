-- CreateTable
CREATE TABLE "SeatAssignment" (
    "flightKey" TEXT NOT NULL,
    "environment" "Environment" NOT NULL,
    "designator" TEXT NOT NULL,
    "holdId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SeatAssignment_pkey" PRIMARY KEY ("flightKey","environment","designator")
);

-- CreateIndex
CREATE INDEX "SeatAssignment_holdId_idx" ON "SeatAssignment"("holdId");

-- CreateIndex
CREATE INDEX "SeatAssignment_tenantId_idx" ON "SeatAssignment"("tenantId");
