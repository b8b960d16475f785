-- CreateTable
CREATE TABLE "AirlineCredit" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "orderId" TEXT NOT NULL,
    "passengerId" TEXT,
    "airlineIataCode" TEXT,
    "amount" BIGINT,
    "currency" TEXT,
    "code" TEXT,
    "name" TEXT,
    "expiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateIndex
CREATE INDEX "AirlineCredit_tenantId_createdAt_id_idx" ON "AirlineCredit"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "AirlineCredit_orderId_idx" ON "AirlineCredit"("orderId");
