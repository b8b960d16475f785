-- AlterTable
ALTER TABLE "OrderPassenger" ADD COLUMN     "infantPassengerId" TEXT,
ADD COLUMN     "loyaltyProgrammeAccounts" JSONB;
