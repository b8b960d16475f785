-- AlterTable
ALTER TABLE "WebhookEndpoint" ADD COLUMN     "format" TEXT NOT NULL DEFAULT 'standard';
