-- AlterTable
ALTER TABLE "SupplierConnection" ADD COLUMN "encryptedWebhookSecret" TEXT;
