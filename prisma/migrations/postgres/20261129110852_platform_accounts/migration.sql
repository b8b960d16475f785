-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "platformAccounts" JSONB;

-- AlterTable
ALTER TABLE "DuffelBooking" ADD COLUMN     "account" TEXT NOT NULL DEFAULT 'tenant';

-- CreateTable
CREATE TABLE "PlatformAccount" (
    "id" TEXT NOT NULL,
    "supplier" TEXT NOT NULL,
    "mode" TEXT NOT NULL,
    "encryptedToken" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),

    CONSTRAINT "PlatformAccount_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "PlatformAccount_supplier_mode_key" ON "PlatformAccount"("supplier", "mode");
