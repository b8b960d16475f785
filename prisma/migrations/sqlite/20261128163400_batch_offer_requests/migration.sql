-- CreateTable
CREATE TABLE "BatchOfferRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "totalBatches" INTEGER NOT NULL,
    "deadlineAt" DATETIME NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "OfferBatch" (
    "batchOfferRequestId" TEXT NOT NULL,
    "supplier" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "status" TEXT,
    "offerCount" INTEGER NOT NULL DEFAULT 0,
    "durationMs" INTEGER NOT NULL DEFAULT 0,
    "offerRequestId" TEXT,
    "arrivedAt" DATETIME,
    "answeredAt" DATETIME,
    "expiresAt" DATETIME NOT NULL,

    PRIMARY KEY ("batchOfferRequestId", "supplier")
);

-- CreateIndex
CREATE INDEX "BatchOfferRequest_tenantId_idx" ON "BatchOfferRequest"("tenantId");

-- CreateIndex
CREATE INDEX "BatchOfferRequest_expiresAt_idx" ON "BatchOfferRequest"("expiresAt");

-- CreateIndex
CREATE INDEX "OfferBatch_tenantId_idx" ON "OfferBatch"("tenantId");

-- CreateIndex
CREATE INDEX "OfferBatch_expiresAt_idx" ON "OfferBatch"("expiresAt");
