import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { toMinor } from "../helpers/flight-checks";
import { allTransactions, bookOffer, createOrderA, newKey, searchForBooking, signedMinor, walletBalance } from "../helpers/orders";
import { createSqliteTestDatabase, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * A full disk on SQLite. The server's own connection is told that the database file may not
 * grow (PRAGMA max_page_count at its current size, and the free pages taken by a filler table),
 * which makes SQLite answer SQLITE_FULL as a full disk does, without a tmpfs. Writes that need
 * room answer 507 storage_full with Retry-After, never 500; reads keep working; nothing is half
 * written (integrity_check ok, the ledger sums to the balance, each order in one state); and
 * once there is room again, writes and the ticketing left waiting go on, with no restart.
 */

/** What SQLite may grow to once space is back. */
const UNLIMITED_PAGES = 1_073_741_823;

describe("a full disk on SQLite", () => {
  let database: TestDatabase;
  let server: TestServer;
  let tenant: TenantFixture;
  /** Booked before the disk filled, ticketed while it is full: each with its ticketing's Idempotency-Key. */
  let waiting: Array<{ order: any; ticketKey: string }>;
  let spare: any[];

  beforeAll(async () => {
    database = createSqliteTestDatabase();
    server = await startTestServer({ database, env: { TICKETING_DELAY_MS: "100", JOB_POLL_MS: "50" } });
    tenant = await createTenant(server, { environment: "sandbox" });
    // Offers on flights of their own, from as many dates as it takes.
    const offers: any[] = [];
    while (offers.length < 7) offers.push(...(await searchForBooking(server, tenant.key)));
    waiting = [];
    for (const offer of offers.slice(0, 5)) waiting.push({ order: await bookOffer(server, tenant.key, offer), ticketKey: newKey("full") });
    spare = offers.slice(5, 7);
  });

  afterAll(async () => {
    await server?.close();
    await database?.drop();
  });

  const sqlite = <T>(work: (connection: import("better-sqlite3").Database) => T) => server.db.sqlite!.run(work);

  /** The file may not grow past its size now, and its free pages are taken. */
  const fillTheDisk = () =>
    sqlite((connection) => {
      connection.exec(`CREATE TABLE IF NOT EXISTS "TestFiller" ("data" BLOB NOT NULL)`);
      connection.pragma(`max_page_count = ${connection.pragma("page_count", { simple: true }) as number}`);
      const fill = connection.prepare(`INSERT INTO "TestFiller" ("data") VALUES (zeroblob(?))`);
      for (const size of [65_536, 4096, 512, 64]) {
        try {
          for (;;) fill.run(size);
        } catch (error) {
          if ((error as { code?: string }).code !== "SQLITE_FULL") throw error;
        }
      }
    });

  it("refuses writes that need room with 507 storage_full and Retry-After, never 500, and keeps reads working", async () => {
    await fillTheDisk();

    const search = await call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      // A large search (~48 offers): its row needs pages of its own, which a full file has none of (a small one may fit in a page's free room).
      body: { slices: [{ origin: "LON", destination: "NYC", departure_date: spare[0].slices[0].segments[0].departing_at.slice(0, 10) }], passengers: [{ type: "adult" }, { type: "child" }], cabin_class: "economy" },
    });
    expect(search.status, JSON.stringify(search.body).slice(0, 300)).toBe(507);
    expect(search.headers.get("retry-after")).toBe("30");
    expect(search.body).toMatchObject({ errors: [{ code: "storage_full" }], statusCode: 507, errorCode: "STORAGE_FULL", fault: "server", retryable: true });

    // Other writes answer 507, or pass when they found room in pages the file has (as on a real
    // full disk, where the WAL may have room); never 500. Ticketing jobs that pass run into it later.
    const writes = [
      await createOrderA(server, tenant.key, spare[0], { idempotencyKey: newKey("full") }),
      ...(await Promise.all(waiting.map(({ order, ticketKey }) => call(server, "POST", `/v1/air/orders/${order.id}/actions/ticket`, { key: tenant.key, headers: { "idempotency-key": ticketKey } })))),
    ];
    for (const write of writes) expect([200, 201, 507], JSON.stringify(write.body).slice(0, 300)).toContain(write.status);
    const graphqlWrite = await graphql(server, `mutation { searchFlights(input: { slices: [{ origin: "NYC", destination: "LON", departureDate: "${spare[0].slices[0].segments[0].departing_at.slice(0, 10)}" }], passengers: [{ type: ADULT }, { type: CHILD }], cabinClass: ECONOMY }) { offerRequestId } }`, {}, { key: tenant.key });
    expect(graphqlWrite.status, JSON.stringify(graphqlWrite.body).slice(0, 300)).toBe(507);
    expect(graphqlWrite.headers.get("retry-after")).toBe("30");
    expect(graphqlWrite.body.errors?.[0]?.extensions).toMatchObject({ code: "storage_full", statusCode: 507, retryAfterSeconds: 30 });

    // Reads, on both interfaces.
    expect((await call(server, "GET", `/v1/air/orders/${waiting[0]!.order.id}`, { key: tenant.key })).status).toBe(200);
    expect((await call(server, "GET", "/v1/wallet/transactions", { key: tenant.key })).status).toBe(200);
    const viewer = await graphql(server, "{ wallet { balance } orders(first: 5) { totalCount } }", {}, { key: tenant.key });
    expect(viewer.status).toBe(200);
    expect(viewer.body.errors).toBeUndefined();
    const readiness = await call(server, "GET", "/readyz");
    expect(readiness.status).toBe(200);
    expect(readiness.body).toMatchObject({ status: "ready", database: "full" });
  });

  it("wrote nothing by halves: the file is sound, the ledger sums to the balance, each order in one state", async () => {
    const integrity = await sqlite((connection) => connection.pragma("integrity_check", { simple: true }));
    expect(integrity).toBe("ok");
    await expectLedgerMatchesOrders();
  });

  it("takes writes again once there is room, with no restart, and finishes the ticketing left waiting", async () => {
    await sqlite((connection) => connection.pragma(`max_page_count = ${UNLIMITED_PAGES}`));
    const booked = await createOrderA(server, tenant.key, spare[1], { idempotencyKey: newKey("room") });
    expect(booked.status, JSON.stringify(booked.body).slice(0, 300)).toBe(201);
    // Each ticketing retried with its key: a refused one runs now, one that passed is replayed.
    for (const { order, ticketKey } of waiting) {
      const ticket = await call(server, "POST", `/v1/air/orders/${order.id}/actions/ticket`, { key: tenant.key, headers: { "idempotency-key": ticketKey } });
      expect(ticket.status, JSON.stringify(ticket.body).slice(0, 300)).toBe(200);
    }
    await eventually(
      async () => {
        const statuses = await Promise.all(waiting.map(async ({ order }) => (await call(server, "GET", `/v1/air/orders/${order.id}`, { key: tenant.key })).body.order.status));
        return statuses.every((status) => status === "TICKETED") ? true : undefined;
      },
      () => "orders ticketed while the disk was full are not all ticketed",
    );
    // The file is looked at for room every second.
    await eventually(async () => ((await call(server, "GET", "/readyz")).body.database === "ok" ? true : undefined), () => "/readyz still says the database is full");
    expect(await sqlite((connection) => connection.pragma("integrity_check", { simple: true }))).toBe("ok");
    await expectLedgerMatchesOrders();
  });

  /** The ledger moved exactly what each order's state says, and sums to the balance. */
  async function expectLedgerMatchesOrders(): Promise<void> {
    const entries = await allTransactions(server, tenant.key);
    const orders = (await call(server, "GET", "/v1/air/orders?limit=100", { key: tenant.key })).body.data.items as any[];
    for (const order of orders) {
      const status = (await call(server, "GET", `/v1/air/orders/${order.id}`, { key: tenant.key })).body.order.status as string;
      const moved = entries.filter((entry) => entry.order_id === order.id).map((entry) => `${entry.type} ${signedMinor(entry.amount, entry.currency)}`);
      const total = toMinor(order.total_amount, order.total_currency);
      expect(moved, `${order.id} (${status})`).toEqual(status === "PENDING" || status === "CANCELED" ? [] : [`ticketing_debit ${-total}`]);
    }
    const wallet = await walletBalance(server, tenant.key);
    expect(entries.reduce((sum, entry) => sum + signedMinor(entry.amount, entry.currency), 0)).toBe(wallet.minor);
  }
});
