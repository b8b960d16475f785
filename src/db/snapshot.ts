import type { Prisma } from "./models";
import type { Database } from "./database";

/**
 * Runs reads that must all see one state of the database (an order and its documents, say),
 * although they are several statements: one transaction, repeatable read on PostgreSQL (read
 * committed would let each statement see a newer state); on SQLite a transaction holds the
 * connection, so no write lands in between.
 */
export function readSnapshot<T>(db: Database, reads: (tx: Prisma.TransactionClient) => Promise<T>): Promise<T> {
  // `db.prisma` is typed with the SQLite client, which knows only Serializable; the PostgreSQL
  // client behind it takes RepeatableRead.
  const options = db.provider === "postgresql" ? ({ isolationLevel: "RepeatableRead" } as unknown as { isolationLevel: "Serializable" }) : undefined;
  return db.prisma.$transaction(reads, options);
}
