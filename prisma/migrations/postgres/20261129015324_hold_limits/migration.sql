-- AlterTable
ALTER TABLE "Wallet" ADD COLUMN     "creditLimit" BIGINT NOT NULL DEFAULT 0,
ADD COLUMN     "maxUnpaidOrders" INTEGER,
ADD COLUMN     "maxUnpaidSeatsPerFlight" INTEGER;

-- Live tenants' default hold limits (src/wallet/hold-limits.ts); sandbox ones have none.
UPDATE "Wallet" SET "maxUnpaidOrders" = 100, "maxUnpaidSeatsPerFlight" = 9
WHERE "tenantId" IN (SELECT "id" FROM "Tenant" WHERE "environment" = 'live');

-- CreateTable
CREATE TABLE "OrderFlight" (
    "orderId" TEXT NOT NULL,
    "flightKey" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "seats" INTEGER NOT NULL,

    CONSTRAINT "OrderFlight_pkey" PRIMARY KEY ("orderId","flightKey")
);

-- CreateIndex
CREATE INDEX "OrderFlight_tenantId_flightKey_idx" ON "OrderFlight"("tenantId", "flightKey");

-- AddForeignKey
ALTER TABLE "OrderFlight" ADD CONSTRAINT "OrderFlight_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The flights of the orders unpaid now, from their offer snapshots: they count towards the limit from the start.
INSERT INTO "OrderFlight" ("orderId", "flightKey", "tenantId", "seats")
SELECT o."id", segment ->> 'flightKey', o."tenantId",
  (SELECT COUNT(*) FROM "OrderPassenger" p WHERE p."orderId" = o."id" AND p."type" <> 'infant_without_seat')
FROM "Order" o, jsonb_array_elements(o."offerSnapshot" -> 'payload' -> 'slices') slice, jsonb_array_elements(slice -> 'segments') segment
WHERE o."status" = 'PENDING'
ON CONFLICT DO NOTHING;
