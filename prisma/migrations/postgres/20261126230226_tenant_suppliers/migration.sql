-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "suppliers" JSONB;
