-- CreateTable
CREATE TABLE "DuffelWebhookEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "type" TEXT NOT NULL,
    "duffelOrderId" TEXT,
    "receivedAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "DuffelWebhookEvent_receivedAt_idx" ON "DuffelWebhookEvent"("receivedAt");
