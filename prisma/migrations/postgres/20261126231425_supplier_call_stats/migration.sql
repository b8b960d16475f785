-- CreateTable
CREATE TABLE "SupplierCallStat" (
    "id" TEXT NOT NULL,
    "supplier" TEXT NOT NULL,
    "process" TEXT NOT NULL,
    "recordedAt" TIMESTAMP(3) NOT NULL,
    "calls" INTEGER NOT NULL,
    "errors" INTEGER NOT NULL,
    "timeouts" INTEGER NOT NULL,
    "latencyCounts" JSONB NOT NULL,

    CONSTRAINT "SupplierCallStat_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "SupplierCallStat_recordedAt_idx" ON "SupplierCallStat"("recordedAt");
