import type { TestServer } from "./test-server";

/** Append-only tables, and seat intents (none is left by a refused booking): their row counts tell whether anything was written. */
const COUNTED_TABLES = ["OfferRequest", "OrderDocument", "OrderEvent", "OrderJob", "SeatHold", "SeatIntent", "LedgerEntry", "WebhookAttempt", "Setting"];

/**
 * Everything a request can change, read straight from the database: the rows of the small,
 * mutable tables (tenants, keys, wallets, orders, passengers, webhook deliveries) and the row
 * count of the append-only ones. Two reads compare equal exactly when no such data changed.
 *
 * Left out, by design: usage counters (every request counts, refused ones included) and
 * idempotency records (a refused POST with an Idempotency-Key keeps its refusal, so a retry
 * gets the same answer; docs/rest-api.md#idempotency).
 */
export async function databaseState(server: Pick<TestServer, "db">) {
  const prisma = server.db.prisma;
  const byId = { orderBy: { id: "asc" } } as const;
  const [tenants, apiKeys, wallets, orders, passengers, deliveries, counts] = await Promise.all([
    prisma.tenant.findMany(byId),
    prisma.apiKey.findMany(byId),
    prisma.wallet.findMany({ orderBy: { tenantId: "asc" } }),
    prisma.order.findMany({ ...byId, omit: { offerSnapshot: true } }),
    prisma.orderPassenger.findMany({ orderBy: [{ orderId: "asc" }, { id: "asc" }] }),
    prisma.webhookDelivery.findMany(byId),
    // The append-only tables' row counts in one round trip (the same SQL on SQLite and PostgreSQL).
    prisma.$queryRawUnsafe<Array<Record<string, unknown>>>(`SELECT ${COUNTED_TABLES.map((table) => `(SELECT COUNT(*) FROM "${table}") AS "${table}"`).join(", ")}`).then((rows) => rows[0]),
  ]);
  return { tenants, apiKeys, wallets, orders, passengers, deliveries, counts };
}
