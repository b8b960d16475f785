import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase } from "../../src/db/database";
import { applyMigrations } from "../../src/db/migrate";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import { call, createTenant } from "../helpers/client";
import { allTransactions, bookOffer, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import { startPgBouncer, type PgBouncer } from "../helpers/pgbouncer";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Two processes behind PgBouncer in transaction pooling (Debian's 1.18), each LISTENing on the
 * PostgreSQL server itself (DATABASE_LISTEN_URL), as docs/operations.md#production-topology
 * runs them. What pooling used to break: a process never heard its own NOTIFY (a revoked key
 * was still accepted), every write that notifies waited 2 s for receipts from pooled
 * connections counted as listeners, and the migration lock, a session lock, stayed with
 * whichever server connection took it. The other PostgreSQL suites run through a bouncer too
 * (`npm run test:pgbouncer`).
 */

/** Prisma Migrate's advisory lock key, which our runner shares (src/db/migrate.ts). */
const MIGRATION_LOCK_KEY = 72707369;
/** How long a publish waits at most for receipts (src/events/pubsub.ts): what every notifying write took behind the pooler. */
const RECEIPT_WAIT_MS = 2000;

describe("behind PgBouncer in transaction pooling", { timeout: 180_000 }, () => {
  let serverUrl: string;
  let bouncer: PgBouncer;
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;

  beforeAll(async () => {
    serverUrl = process.env.TEST_DATABASE_URL ?? "";
    if (!/^postgres(ql)?:\/\//.test(serverUrl)) throw new Error("this suite needs TEST_DATABASE_URL (npm run test:ha)");
    bouncer = await startPgBouncer(serverUrl, { poolSize: 10 });
    database = await createTestDatabase();
    const pooled = { ...database, url: bouncer.via(database.url) };
    const ownerKey = generateSecret("owner");
    const env = { DATABASE_LISTEN_URL: database.url, TICKETING_DELAY_MS: "0", JOB_POLL_MS: "100" };
    a = await startTestServer({ database: pooled, ownerKey, env });
    b = await startTestServer({ database: pooled, ownerKey, env });
  });

  afterAll(async () => {
    await b?.close();
    await a?.close();
    await database?.drop();
    await bouncer?.stop();
  });

  it("refuses a key revoked through A on both processes at once, every time, and answers the revoke without waiting out receipts", async () => {
    const tenant = await createTenant(a, { environment: "sandbox" });
    const took: number[] = [];
    for (let attempt = 0; attempt < 6; attempt++) {
      const key = await call(a, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: a.ownerKey, body: { label: `try ${attempt}` } });
      expect(key.status).toBe(201);
      for (const server of [a, b]) expect((await call(server, "GET", "/v1/tenant", { key: key.body.data.apiKey })).status).toBe(200);
      const started = performance.now();
      expect((await call(a, "DELETE", `/v1/tenants/${tenant.tenantId}/keys/${key.body.data.keyId}`, { key: a.ownerKey })).status).toBe(200);
      took.push(performance.now() - started);
      for (const server of [b, a]) expect((await call(server, "GET", "/v1/tenant", { key: key.body.data.apiKey })).status, `attempt ${attempt}`).toBe(401);
    }
    // Every receipt came: none waited for a pooled connection that never listened.
    expect(Math.max(...took), `revokes took ${took.map((ms) => ms.toFixed(0)).join(", ")} ms`).toBeLessThan(RECEIPT_WAIT_MS);
  });

  it("books and tickets through both processes, each order debited once (SKIP LOCKED claims and leases through the pool)", async () => {
    const tenant = await createTenant(a, { environment: "sandbox" });
    const orders: string[] = [];
    for (let index = 0; index < 6; index++) {
      const server = index % 2 === 0 ? a : b;
      const [offer] = await searchForBooking(server, tenant.key);
      orders.push((await bookOffer(server, tenant.key, offer)).id);
    }
    const tickets = await Promise.all(orders.map((id, index) => ticketOrder(index % 2 === 0 ? b : a, tenant.key, id)));
    expect(tickets.map((ticket) => ticket.status)).toEqual(orders.map(() => 200));
    for (const id of orders) await waitForStatus(a, tenant.key, id, ["TICKETED"]);
    const debits = (await allTransactions(b, tenant.key)).filter((entry) => entry.type === "ticketing_debit");
    expect(debits.map((entry) => entry.order_id).sort()).toEqual([...orders].sort());
  });

  it("applies migrations once when processes start together through the pool, and waits for a session holding Prisma's migration lock", async () => {
    const fresh = await createTestDatabase();
    try {
      const pooledUrl = bouncer.via(fresh.url);
      const holder = new pg.Client({ connectionString: fresh.url });
      await holder.connect();
      await holder.query(`SELECT pg_advisory_lock(${MIGRATION_LOCK_KEY})`);
      const dbs = await Promise.all([1, 2, 3].map(() => openDatabase(pooledUrl)));
      let done = 0;
      const applying = dbs.map((db) => applyMigrations(db).then((result) => (done++, result)));
      // `prisma migrate deploy` (a session holding the lock) is waited for, through the pool too.
      await new Promise((resolve) => setTimeout(resolve, 500));
      expect(done).toBe(0);
      await holder.query(`SELECT pg_advisory_unlock(${MIGRATION_LOCK_KEY})`);
      await holder.end();
      const results = await Promise.all(applying);
      const applied = results.flatMap((result) => result.applied);
      expect(new Set(applied).size).toBe(applied.length);
      expect(applied.length).toBeGreaterThan(0);
      const history = await dbs[0]!.prisma.$queryRawUnsafe<Array<{ migration_name: string }>>(`SELECT migration_name FROM "_prisma_migrations" WHERE rolled_back_at IS NULL`);
      expect(history.map((row) => row.migration_name).sort()).toEqual([...applied].sort());
      // A lock left with a pooled server connection would make this wait 120 s, then fail.
      expect((await applyMigrations(dbs[1]!)).applied).toEqual([]);
      for (const db of dbs) await db.close();
    } finally {
      await fresh.drop();
    }
  });

  it("never had a notification reach a pooled server connection: every LISTEN went to PostgreSQL itself", () => {
    expect(bouncer.log()).not.toContain("got packet 'A' from server when not linked");
  });
});
