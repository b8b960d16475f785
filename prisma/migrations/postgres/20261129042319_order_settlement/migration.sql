-- AlterTable
ALTER TABLE "Order" ADD COLUMN     "settlement" TEXT NOT NULL DEFAULT 'wallet';
