-- CreateTable
CREATE TABLE "AirlineCredit" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "passengerId" TEXT,
    "airlineIataCode" TEXT,
    "amount" BIGINT,
    "currency" TEXT,
    "code" TEXT,
    "name" TEXT,
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "AirlineCredit_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AirlineCredit_tenantId_createdAt_id_idx" ON "AirlineCredit"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "AirlineCredit_orderId_idx" ON "AirlineCredit"("orderId");
