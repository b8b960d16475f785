-- CreateTable
CREATE TABLE "BatchOfferRequest" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "totalBatches" INTEGER NOT NULL,
    "deadlineAt" TIMESTAMP(3) NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "BatchOfferRequest_pkey" PRIMARY KEY ("id")
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
    "arrivedAt" TIMESTAMP(3),
    "answeredAt" TIMESTAMP(3),
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "OfferBatch_pkey" PRIMARY KEY ("batchOfferRequestId","supplier")
);

-- CreateIndex
CREATE INDEX "BatchOfferRequest_tenantId_idx" ON "BatchOfferRequest"("tenantId");

-- CreateIndex
CREATE INDEX "BatchOfferRequest_expiresAt_idx" ON "BatchOfferRequest"("expiresAt");

-- CreateIndex
CREATE INDEX "OfferBatch_tenantId_idx" ON "OfferBatch"("tenantId");

-- CreateIndex
CREATE INDEX "OfferBatch_expiresAt_idx" ON "OfferBatch"("expiresAt");
