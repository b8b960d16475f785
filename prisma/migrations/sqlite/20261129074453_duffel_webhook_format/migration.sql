-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_WebhookEndpoint" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "slot" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "enabledEvents" TEXT NOT NULL,
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL,
    "format" TEXT NOT NULL DEFAULT 'standard',
    "webhookSecret" TEXT NOT NULL,
    "previousWebhookSecret" TEXT,
    "previousWebhookSecretExpiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "WebhookEndpoint_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_WebhookEndpoint" ("createdAt", "description", "enabled", "enabledEvents", "id", "previousWebhookSecret", "previousWebhookSecretExpiresAt", "slot", "tenantId", "updatedAt", "url", "webhookSecret") SELECT "createdAt", "description", "enabled", "enabledEvents", "id", "previousWebhookSecret", "previousWebhookSecretExpiresAt", "slot", "tenantId", "updatedAt", "url", "webhookSecret" FROM "WebhookEndpoint";
DROP TABLE "WebhookEndpoint";
ALTER TABLE "new_WebhookEndpoint" RENAME TO "WebhookEndpoint";
CREATE INDEX "WebhookEndpoint_tenantId_createdAt_id_idx" ON "WebhookEndpoint"("tenantId", "createdAt", "id");
CREATE UNIQUE INDEX "WebhookEndpoint_tenantId_slot_key" ON "WebhookEndpoint"("tenantId", "slot");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
