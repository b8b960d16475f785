-- CreateTable
CREATE TABLE "DuffelWebhookEvent" (
    "id" TEXT NOT NULL,
    "type" TEXT NOT NULL,
    "duffelOrderId" TEXT,
    "receivedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DuffelWebhookEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DuffelWebhookEvent_receivedAt_idx" ON "DuffelWebhookEvent"("receivedAt");
