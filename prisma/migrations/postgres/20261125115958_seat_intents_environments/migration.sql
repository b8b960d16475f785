-- CreateEnum
CREATE TYPE "SeatIntentKind" AS ENUM ('hold', 'release');

-- DropIndex
DROP INDEX "SeatHold_flightKey_cabinClass_idx";

-- AlterTable: each existing hold takes its tenant's environment (a hold without a tenant row counts as live: never oversell live seats)
ALTER TABLE "SeatHold" ADD COLUMN     "environment" "Environment";
UPDATE "SeatHold" SET "environment" = COALESCE((SELECT "Tenant"."environment" FROM "Tenant" WHERE "Tenant"."id" = "SeatHold"."tenantId"), 'live');
ALTER TABLE "SeatHold" ALTER COLUMN "environment" SET NOT NULL;

-- CreateTable
CREATE TABLE "SeatIntent" (
    "id" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "kind" "SeatIntentKind" NOT NULL,
    "lockedUntil" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "SeatIntent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SeatIntent_lockedUntil_idx" ON "SeatIntent"("lockedUntil");

-- CreateIndex
CREATE INDEX "SeatIntent_tenantId_idx" ON "SeatIntent"("tenantId");

-- CreateIndex
CREATE INDEX "SeatHold_flightKey_cabinClass_environment_idx" ON "SeatHold"("flightKey", "cabinClass", "environment");
