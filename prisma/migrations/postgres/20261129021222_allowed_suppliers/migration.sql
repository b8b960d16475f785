-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "allowedSuppliers" JSONB;
