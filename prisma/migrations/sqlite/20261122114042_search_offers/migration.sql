-- CreateTable
CREATE TABLE "OfferRequest" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "request" JSONB NOT NULL,
    "offerCount" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OfferRequest_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Offer" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "offerRequestId" TEXT NOT NULL,
    "totalAmount" INTEGER NOT NULL,
    "currency" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL,
    "payload" JSONB NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "Offer_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Offer_offerRequestId_fkey" FOREIGN KEY ("offerRequestId") REFERENCES "OfferRequest" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "OfferRequest_tenantId_createdAt_id_idx" ON "OfferRequest"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Offer_tenantId_createdAt_id_idx" ON "Offer"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "Offer_offerRequestId_createdAt_id_idx" ON "Offer"("offerRequestId", "createdAt", "id");
