-- AlterEnum
-- This migration adds more than one value to an enum.
-- With PostgreSQL versions 11 and earlier, this is not possible
-- in a single migration. This can be worked around by creating
-- multiple migrations, each migration adding only one value to
-- the enum.


ALTER TYPE "SeatIntentKind" ADD VALUE 'sale';
ALTER TYPE "SeatIntentKind" ADD VALUE 'exchange';
ALTER TYPE "SeatIntentKind" ADD VALUE 'exchanged';

-- AlterTable
ALTER TABLE "SeatHold" ADD COLUMN     "operationId" TEXT;

-- AlterTable
ALTER TABLE "SeatAssignment" ADD COLUMN     "operationId" TEXT;

-- AlterTable
ALTER TABLE "SeatIntent" ADD COLUMN     "orderId" TEXT,
ADD COLUMN     "release" JSONB;

-- Written by hand: an intent written before this migration is a hold or release, named by its order's id.
UPDATE "SeatIntent" SET "orderId" = "id";
ALTER TABLE "SeatIntent" ALTER COLUMN "orderId" SET NOT NULL;
