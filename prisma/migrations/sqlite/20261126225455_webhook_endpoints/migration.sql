-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "slot" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "enabledEvents" TEXT NOT NULL,
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL,
    "webhookSecret" TEXT NOT NULL,
    "previousWebhookSecret" TEXT,
    "previousWebhookSecretExpiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "WebhookEndpoint_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_OrderEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "orderId" TEXT,
    "type" TEXT NOT NULL,
    "payload" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    CONSTRAINT "OrderEvent_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_OrderEvent" ("createdAt", "id", "orderId", "payload", "tenantId", "type") SELECT "createdAt", "id", "orderId", "payload", "tenantId", "type" FROM "OrderEvent";
DROP TABLE "OrderEvent";
ALTER TABLE "new_OrderEvent" RENAME TO "OrderEvent";
CREATE INDEX "OrderEvent_tenantId_createdAt_id_idx" ON "OrderEvent"("tenantId", "createdAt", "id");
CREATE INDEX "OrderEvent_orderId_createdAt_id_idx" ON "OrderEvent"("orderId", "createdAt", "id");
CREATE TABLE "new_WebhookDelivery" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "eventId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "orderId" TEXT,
    "endpointId" TEXT NOT NULL,
    "status" TEXT NOT NULL DEFAULT 'pending',
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "lockedUntil" DATETIME,
    "lastStatusCode" INTEGER,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "WebhookDelivery_eventId_fkey" FOREIGN KEY ("eventId") REFERENCES "OrderEvent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Every delivery made so far went to the tenant's webhook_url: its default endpoint, whose id is the tenant's with the prefix whe_.
INSERT INTO "new_WebhookDelivery" ("attempts", "createdAt", "endpointId", "eventId", "id", "lastError", "lastStatusCode", "lockedUntil", "nextAttemptAt", "orderId", "status", "tenantId", "updatedAt") SELECT "attempts", "createdAt", 'whe_' || substr("tenantId", 5), "eventId", "id", "lastError", "lastStatusCode", "lockedUntil", "nextAttemptAt", "orderId", "status", "tenantId", "updatedAt" FROM "WebhookDelivery";
DROP TABLE "WebhookDelivery";
ALTER TABLE "new_WebhookDelivery" RENAME TO "WebhookDelivery";
CREATE INDEX "WebhookDelivery_status_nextAttemptAt_idx" ON "WebhookDelivery"("status", "nextAttemptAt");
CREATE INDEX "WebhookDelivery_orderId_endpointId_status_idx" ON "WebhookDelivery"("orderId", "endpointId", "status");
CREATE INDEX "WebhookDelivery_tenantId_createdAt_id_idx" ON "WebhookDelivery"("tenantId", "createdAt", "id");
CREATE INDEX "WebhookDelivery_tenantId_endpointId_createdAt_id_idx" ON "WebhookDelivery"("tenantId", "endpointId", "createdAt", "id");
CREATE INDEX "WebhookDelivery_eventId_idx" ON "WebhookDelivery"("eventId");
CREATE INDEX "WebhookDelivery_createdAt_idx" ON "WebhookDelivery"("createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "WebhookEndpoint_tenantId_createdAt_id_idx" ON "WebhookEndpoint"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookEndpoint_tenantId_slot_key" ON "WebhookEndpoint"("tenantId", "slot");
