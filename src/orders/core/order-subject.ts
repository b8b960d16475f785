import type { Database } from "../../db/database";
import { queryRows } from "../../db/query-rows";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import type { Environment } from "../../gateway/contract/air";
import { tenantClock, type TenantClock } from "../../tenancy/tenant-clock";
import { orderFrom, type Order, type OrderRecord } from "./order";

/** An order as work no tenant asked for reads it (a supplier's webhook, a poll): with its tenant's environment and clock. */
export interface OrderSubject {
  order: Order;
  environment: Environment;
  clock: TenantClock;
}

/** The order by id whoever's it is, read with its tenant's environment and clock in one raw read; null for an unknown id. */
export async function orderSubject(db: Database, orderId: string): Promise<OrderSubject | null> {
  const [row] = await queryRows<OrderRecord & { environment: Environment; clockOffsetSeconds: number }>(
    db,
    Sql.sql`SELECT "Order".*, "Tenant"."environment" AS "environment", "Tenant"."clockOffsetSeconds" AS "clockOffsetSeconds"
      FROM "Order" JOIN "Tenant" ON "Tenant"."id" = "Order"."tenantId" WHERE "Order"."id" = ${orderId}`,
  );
  return row ? { order: orderFrom(row), environment: row.environment, clock: tenantClock(row) } : null;
}
