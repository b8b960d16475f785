-- DropIndex
DROP INDEX "WebhookDelivery_orderId_status_idx";

-- AlterTable
ALTER TABLE "OrderEvent" ALTER COLUMN "orderId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "endpointId" TEXT,
ALTER COLUMN "orderId" DROP NOT NULL;

-- Every delivery made so far went to the tenant's webhook_url: its default endpoint, whose id is the tenant's with the prefix whe_.
UPDATE "WebhookDelivery" SET "endpointId" = 'whe_' || substr("tenantId", 5);
ALTER TABLE "WebhookDelivery" ALTER COLUMN "endpointId" SET NOT NULL;

-- CreateTable
CREATE TABLE "WebhookEndpoint" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "slot" TEXT NOT NULL,
    "url" TEXT NOT NULL,
    "enabledEvents" TEXT NOT NULL,
    "description" TEXT,
    "enabled" BOOLEAN NOT NULL,
    "webhookSecret" TEXT NOT NULL,
    "previousWebhookSecret" TEXT,
    "previousWebhookSecretExpiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "WebhookEndpoint_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "WebhookEndpoint_tenantId_createdAt_id_idx" ON "WebhookEndpoint"("tenantId", "createdAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "WebhookEndpoint_tenantId_slot_key" ON "WebhookEndpoint"("tenantId", "slot");

-- CreateIndex
CREATE INDEX "WebhookDelivery_orderId_endpointId_status_idx" ON "WebhookDelivery"("orderId", "endpointId", "status");

-- CreateIndex
CREATE INDEX "WebhookDelivery_tenantId_endpointId_createdAt_id_idx" ON "WebhookDelivery"("tenantId", "endpointId", "createdAt", "id");

-- CreateIndex
CREATE INDEX "WebhookDelivery_eventId_idx" ON "WebhookDelivery"("eventId");

-- AddForeignKey
ALTER TABLE "WebhookEndpoint" ADD CONSTRAINT "WebhookEndpoint_tenantId_fkey" FOREIGN KEY ("tenantId") REFERENCES "Tenant"("id") ON DELETE CASCADE ON UPDATE CASCADE;
