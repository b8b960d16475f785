import type { Database } from "../db/database";
import type { Prisma } from "../db/models";
import { Prisma as PrismaNamespace } from "../generated/prisma-sqlite/client";
import { appError } from "../errors/app-error";

/**
 * Runs `write` in a transaction that first holds the tenant row and checks the tenant is not
 * deleted. Every write of tenant-owned rows goes through here: on PostgreSQL `FOR SHARE` makes
 * it wait for a deletion in progress and then see the tombstone (404 `tenant_not_found`),
 * so no row can be left behind for a deleted tenant. SQLite has one writer at a time.
 */
export function writeForLiveTenant<T>(db: Database, tenantId: string, write: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  const lock = db.provider === "postgresql" ? PrismaNamespace.sql`FOR SHARE` : PrismaNamespace.empty;
  return db.prisma.$transaction(async (tx) => {
    const rows = await tx.$queryRaw<Array<{ status: string }>>`SELECT "status" FROM "Tenant" WHERE "id" = ${tenantId} ${lock}`;
    if (!rows[0] || rows[0].status === "deleted") throw appError("tenant_not_found");
    return write(tx);
  });
}
