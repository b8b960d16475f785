import type { Database } from "../../db/database";
import type { AirlineCredit as AirlineCreditRow } from "../../db/models";
import { exactNumber, sqlTimestamp } from "../../db/sql-values";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import type { AirlineCreditIssued } from "../../gateway/contract/bookings";
import { newId } from "../../ids";
import type { CursorCodec } from "../../pagination/cursor";
import { paginate, type Page, type PageRequest } from "../../pagination/paginate";
import type { TenantScope } from "../../tenancy/tenant-scope";

/**
 * A credit an airline gave instead of cash when it refunded a cancelled order (a voucher, airline
 * credits): the tenant's to use with that airline, never money in its wallet. Kept for good with
 * the orders' record.
 */
export interface AirlineCredit extends AirlineCreditIssued {
  id: string;
  tenantId: string;
  orderId: string;
  createdAt: Date;
}

/** The credits an order's refund gave, as recorded with the refund (ids chosen now). */
export function airlineCreditsOf(order: { id: string; tenantId: string }, issued: readonly AirlineCreditIssued[], at: Date): AirlineCredit[] {
  return issued.map((credit) => ({ ...credit, id: newId("acr", at.getTime()), tenantId: order.tenantId, orderId: order.id, createdAt: at }));
}

/** The statement recording a credit (in the refund's transaction). */
export function insertAirlineCredit(db: Database, credit: AirlineCredit): Sql.Sql {
  return Sql.sql`INSERT INTO "AirlineCredit" ("id", "tenantId", "orderId", "passengerId", "airlineIataCode", "amount", "currency", "code", "name", "expiresAt", "createdAt")
    VALUES (${credit.id}, ${credit.tenantId}, ${credit.orderId}, ${credit.passengerId}, ${credit.airlineIataCode}, ${credit.amount === null ? null : BigInt(credit.amount)},
      ${credit.currency}, ${credit.code}, ${credit.name}, ${credit.expiresAt && sqlTimestamp(db.provider, credit.expiresAt)}, ${sqlTimestamp(db.provider, credit.createdAt)})`;
}

function creditFrom(row: AirlineCreditRow): AirlineCredit {
  return {
    id: row.id,
    tenantId: row.tenantId,
    orderId: row.orderId,
    passengerId: row.passengerId,
    airlineIataCode: row.airlineIataCode,
    amount: row.amount === null ? null : exactNumber(row.amount),
    currency: row.currency,
    code: row.code,
    name: row.name,
    expiresAt: row.expiresAt,
    createdAt: row.createdAt,
  };
}

/** The tenant's airline credits, newest first (GET /v1/airline_credits, GraphQL `airlineCredits`). */
export class AirlineCreditService {
  constructor(
    private readonly db: Database,
    private readonly cursors: CursorCodec,
  ) {}

  async list(scope: TenantScope, request: PageRequest): Promise<Page<AirlineCredit>> {
    const where = { tenantId: scope.tenantId };
    const page = await paginate({
      list: `airline-credits:${scope.tenantId}`,
      request,
      cursors: this.cursors,
      count: () => this.db.prisma.airlineCredit.count({ where }),
      fetch: (query) => this.db.prisma.airlineCredit.findMany({ ...query, where: { AND: [where, query.where] } }),
    });
    return { ...page, items: page.items.map(creditFrom) };
  }
}
