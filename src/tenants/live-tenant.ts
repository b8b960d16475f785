import type { Database } from "../db/database";
import { Prisma } from "../generated/prisma-sqlite/client";

/**
 * `FROM "Tenant" WHERE id = … AND not deleted`, for writes of tenant-owned rows done as
 * `INSERT … SELECT … FROM <this>`: nothing is written for a deleted tenant. On PostgreSQL the row
 * is held `FOR SHARE`, so a write racing a deletion waits for it and then sees the tombstone
 * (READ COMMITTED would otherwise insert from a stale snapshot and leave rows behind); SQLite
 * runs one writer at a time, so it needs no lock.
 */
export function fromLiveTenant(provider: Database["provider"], tenantId: string): Prisma.Sql {
  const lock = provider === "postgresql" ? Prisma.sql`FOR SHARE` : Prisma.empty;
  return Prisma.sql`FROM "Tenant" WHERE "id" = ${tenantId} AND "status" <> 'deleted' ${lock}`;
}
