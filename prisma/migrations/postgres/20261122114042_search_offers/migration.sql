-- CreateTable
CREATE TABLE "OfferRequest" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "offerCount" INTEGER NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "OfferRequest_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Offer" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "offerRequestId" TEXT NOT NULL,
    "totalAmount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,
    "payload" JSONB NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Offer_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "OfferRequest_tenantId_createdAt_id_idx" ON "OfferRequest"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Offer_tenantId_createdAt_id_idx" ON "Offer"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Offer_offerRequestId_createdAt_id_idx" ON "Offer"("offerRequestId", "createdAt", "id");

-- AddForeignKey
ALTER TABLE "OfferRequest" ADD CONSTRAINT "OfferRequest_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Offer" ADD CONSTRAINT "Offer_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Offer" ADD CONSTRAINT "Offer_offerRequestId_fkey" FOREIGN KEY ("offerRequestId") REFERENCES "OfferRequest"("id") ON DELETE CASCADE ON UPDATE CASCADE;
