-- AlterTable
ALTER TABLE "Tenant" ADD COLUMN     "clockOffsetSeconds" INTEGER NOT NULL DEFAULT 0;
