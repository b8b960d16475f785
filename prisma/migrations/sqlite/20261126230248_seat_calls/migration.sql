-- AlterTable
ALTER TABLE "SeatAssignment" ADD COLUMN "operationId" TEXT;

-- AlterTable
ALTER TABLE "SeatHold" ADD COLUMN "operationId" TEXT;

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_SeatIntent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "orderId" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "release" JSONB,
    "lockedUntil" DATETIME,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);
-- Written by hand: an intent written before this migration is a hold or release, named by its order's id.
INSERT INTO "new_SeatIntent" ("createdAt", "id", "orderId", "kind", "lockedUntil", "tenantId") SELECT "createdAt", "id", "id", "kind", "lockedUntil", "tenantId" FROM "SeatIntent";
DROP TABLE "SeatIntent";
ALTER TABLE "new_SeatIntent" RENAME TO "SeatIntent";
CREATE INDEX "SeatIntent_lockedUntil_idx" ON "SeatIntent"("lockedUntil");
CREATE INDEX "SeatIntent_tenantId_idx" ON "SeatIntent"("tenantId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
