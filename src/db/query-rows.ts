import type { Prisma } from "../generated/prisma-sqlite/client";
import type { Database } from "./database";
import { prepared } from "./prepared-statements";
import { exactNumber } from "./sql-values";

/**
 * Rows of a raw read, for hot paths: a prepared statement on SQLite's shared connection (in its
 * turn at the gate), one `$queryRaw` on PostgreSQL. Integers come back as numbers on both; dates
 * and JSON columns come back as each driver gives them (see `dateFrom`, `jsonFrom`).
 */
export async function queryRows<Row extends Record<string, unknown>>(db: Database, query: Prisma.Sql): Promise<Row[]> {
  const rows = db.sqlite
    ? await db.sqlite.run((connection) => prepared(connection, query.sql).all(...query.values) as Row[])
    : await db.prisma.$queryRaw<Row[]>(query);
  for (const row of rows) {
    for (const column in row) if (typeof row[column] === "bigint") (row as Record<string, unknown>)[column] = exactNumber(row[column] as bigint);
  }
  return rows;
}
