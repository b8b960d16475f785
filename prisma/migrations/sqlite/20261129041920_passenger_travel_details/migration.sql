-- AlterTable
ALTER TABLE "OrderPassenger" ADD COLUMN "infantPassengerId" TEXT;
ALTER TABLE "OrderPassenger" ADD COLUMN "loyaltyProgrammeAccounts" JSONB;
