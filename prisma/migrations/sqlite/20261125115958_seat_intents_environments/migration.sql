-- CreateTable
CREATE TABLE "SeatIntent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tenantId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "lockedUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_SeatHold" (
    "holdId" TEXT NOT NULL,
    "flightKey" TEXT NOT NULL,
    "cabinClass" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "environment" TEXT NOT NULL,
    "seats" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,

    PRIMARY KEY ("holdId", "flightKey")
);
-- Each existing hold takes its tenant's environment (a hold without a tenant row counts as live: never oversell live seats).
INSERT INTO "new_SeatHold" ("cabinClass", "createdAt", "flightKey", "holdId", "seats", "tenantId", "environment")
SELECT "cabinClass", "createdAt", "flightKey", "holdId", "seats", "tenantId",
    COALESCE((SELECT "Tenant"."environment" FROM "Tenant" WHERE "Tenant"."id" = "SeatHold"."tenantId"), 'live') FROM "SeatHold";
DROP TABLE "SeatHold";
ALTER TABLE "new_SeatHold" RENAME TO "SeatHold";
CREATE INDEX "SeatHold_flightKey_cabinClass_environment_idx" ON "SeatHold"("flightKey", "cabinClass", "environment");
CREATE INDEX "SeatHold_tenantId_idx" ON "SeatHold"("tenantId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "SeatIntent_lockedUntil_idx" ON "SeatIntent"("lockedUntil");

-- CreateIndex
CREATE INDEX "SeatIntent_tenantId_idx" ON "SeatIntent"("tenantId");
