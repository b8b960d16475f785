-- CreateTable
CREATE TABLE "SupplierCallStat" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "supplier" TEXT NOT NULL,
    "process" TEXT NOT NULL,
    "recordedAt" DATETIME NOT NULL,
    "calls" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,
    "timeouts" INTEGER NOT NULL,
    "latencyCounts" JSONB NOT NULL
);

-- CreateIndex
CREATE INDEX "SupplierCallStat_recordedAt_idx" ON "SupplierCallStat"("recordedAt");
