import type { Database } from "../../db/database";
import { queryRows } from "../../db/query-rows";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import type { Environment } from "../../gateway/contract/air";
import { tenantClock, type TenantClock } from "../../tenancy/tenant-clock";
import { itineraryDates, orderFrom, type Order, type OrderRecord, type OrderStatus } from "./order";

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

/** The states in which an order may still change at its supplier and matter here (a refund under way aside). */
const OPEN: OrderStatus[] = ["PENDING", "PROCESSING", "TICKETED"];

/**
 * Those of `orderIds` still worth reading at their supplier (a poll standing in for its
 * webhooks): not over here (cancelled, failed, refunded or being refunded) and not yet departed
 * on their tenant's clock. One read for the batch.
 */
export async function openBeforeDeparture(db: Database, orderIds: readonly string[]): Promise<string[]> {
  if (orderIds.length === 0) return [];
  const rows = await db.prisma.order.findMany({ where: { id: { in: [...orderIds] }, status: { in: OPEN }, refundRequestedAt: null }, include: { tenant: { select: { clockOffsetSeconds: true } } } });
  return rows.filter(({ tenant, ...row }) => itineraryDates(orderFrom(row).offer).firstDepartureUtc > tenantClock(tenant).now()).map((row) => row.id);
}
