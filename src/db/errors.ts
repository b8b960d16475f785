/**
 * A unique-constraint violation, on either provider and either path: Prisma's model operations
 * (P2002), Prisma raw SQL on PostgreSQL (a driver error of kind UniqueConstraintViolation), or a
 * better-sqlite3 statement (writeBatch, queryRows on SQLite).
 */
export function isUniqueViolation(error: unknown): boolean {
  if (typeof error !== "object" || error === null) return false;
  const { code, meta } = error as { code?: unknown; meta?: { driverAdapterError?: { cause?: { kind?: unknown } } } };
  return (
    code === "P2002" ||
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    meta?.driverAdapterError?.cause?.kind === "UniqueConstraintViolation"
  );
}
