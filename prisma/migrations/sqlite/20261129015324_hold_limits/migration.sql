-- AlterTable (columns added in place: redefining "Wallet" would drop its CHECK on the balance)
ALTER TABLE "Wallet" ADD COLUMN "creditLimit" BIGINT NOT NULL DEFAULT 0;
ALTER TABLE "Wallet" ADD COLUMN "maxUnpaidOrders" INTEGER;
ALTER TABLE "Wallet" ADD COLUMN "maxUnpaidSeatsPerFlight" INTEGER;

-- Live tenants' default hold limits (src/wallet/hold-limits.ts); sandbox ones have none.
UPDATE "Wallet" SET "maxUnpaidOrders" = 100, "maxUnpaidSeatsPerFlight" = 9
WHERE "tenantId" IN (SELECT "id" FROM "Tenant" WHERE "environment" = 'live');

-- CreateTable
CREATE TABLE "OrderFlight" (
    "orderId" TEXT NOT NULL,
    "flightKey" TEXT NOT NULL,
    "tenantId" TEXT NOT NULL,
    "seats" INTEGER NOT NULL,

    PRIMARY KEY ("orderId", "flightKey"),
    CONSTRAINT "OrderFlight_orderId_fkey" FOREIGN KEY ("orderId") REFERENCES "Order" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "OrderFlight_tenantId_flightKey_idx" ON "OrderFlight"("tenantId", "flightKey");

-- The flights of the orders unpaid now, from their offer snapshots: they count towards the limit from the start.
INSERT OR IGNORE INTO "OrderFlight" ("orderId", "flightKey", "tenantId", "seats")
SELECT o."id", json_extract(segment.value, '$.flightKey'), o."tenantId",
  (SELECT COUNT(*) FROM "OrderPassenger" p WHERE p."orderId" = o."id" AND p."type" <> 'infant_without_seat')
FROM "Order" o, json_each(o."offerSnapshot", '$.payload.slices') slice, json_each(slice.value, '$.segments') segment
WHERE o."status" = 'PENDING';
