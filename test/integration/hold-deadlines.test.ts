import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import { openDatabase } from "../../src/db/database";
import { call, createTenant, startServerWithTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { toMinor } from "../helpers/flight-checks";
import { exitCode, killStillRunning, launchTracked, pollUntil, waitUntilHealthy, type Running } from "../helpers/main-process";
import { allTransactions, bookOffer, getOrder, newKey, searchForBooking } from "../helpers/orders";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import type { TestServer } from "../helpers/test-server";

/**
 * Hold deadlines in real time (short ORDER_HOLD_SECONDS, no clock moved): the deadline job
 * survives a SIGKILL of the process that queued it, and a payment racing the deadline ends the
 * order either paid or cancelled, never both, with the wallet agreeing. SQLite, or PostgreSQL
 * under TEST_DATABASE_URL.
 */

describe("a hold's deadline across a SIGKILL", { timeout: 180_000 }, () => {
  let database: TestDatabase;
  const started: Running[] = [];
  const ownerKey = generateSecret("owner");

  const launch = () => launchTracked(started, { DATABASE_URL: database.url, OWNER_API_KEY: ownerKey, ORDER_HOLD_SECONDS: "3", JOB_LEASE_SECONDS: "2", JOB_POLL_MS: "50", LOG_LEVEL: "warn" });

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await killStillRunning(started);
    await database?.drop();
  });

  it("a process killed before the deadline leaves the job; the next process cancels the order, once", async () => {
    const first = launch();
    await waitUntilHealthy(first.running);
    const tenant = await createTenant(first.api);
    const [offer] = await searchForBooking(first.api, tenant.key);
    const order = await bookOffer(first.api, tenant.key, offer);
    first.running.child.kill("SIGKILL");
    expect(await exitCode(first.running)).toBe("SIGKILL");
    expect(Date.now(), "killed before the deadline").toBeLessThan(Date.parse(order.payment_status.payment_required_by));

    const second = launch();
    await waitUntilHealthy(second.running);
    const cancelled = await pollUntil(second.running, "the order cancelled at its deadline", async () => {
      const read = await getOrder(second.api, tenant.key, order.id);
      return read.body.data.status === "cancelled" ? read.body.data : undefined;
    });
    expect(cancelled.cancellation_reason).toBe("payment_deadline_passed");
    second.running.child.kill("SIGKILL");
    await exitCode(second.running);

    const db = await openDatabase(database.url);
    try {
      const events = await db.prisma.orderEvent.findMany({ where: { orderId: order.id }, orderBy: { id: "asc" } });
      expect(events.map((event) => event.type)).toEqual(["order.created", "order.cancelled"]);
      expect(await db.prisma.orderJob.count({ where: { orderId: order.id } })).toBe(0);
    } finally {
      await db.close();
    }
  });
});

describe("a payment racing the deadline", { timeout: 120_000 }, () => {
  const ORDERS = 8;
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => {
    ({ server, tenant } = await startServerWithTenant({ ORDER_HOLD_SECONDS: "3", JOB_POLL_MS: "10" }));
  });

  afterAll(async () => {
    await server?.close();
  });

  it("ends each order paid or cancelled, never both; the payment's answer and the ledger agree", async () => {
    const orders: any[] = [];
    for (let i = 0; i < ORDERS; i++) orders.push(await bookOffer(server, tenant.key, (await searchForBooking(server, tenant.key))[0]));
    // Each payment is sent around its order's deadline, from 60 ms before to 60 ms after.
    const answers = await Promise.all(
      orders.map(async (order, index) => {
        const at = Date.parse(order.payment_status.payment_required_by) - 60 + (120 * index) / (ORDERS - 1);
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
        return call(server, "POST", "/v1/air/payments", {
          key: tenant.key,
          headers: { "idempotency-key": newKey("race") },
          body: { order_id: order.id, payment: { type: "balance", amount: order.total_amount, currency: order.total_currency } },
        });
      }),
    );
    // Let every deadline job run.
    await eventually(async () => ((await server.db.prisma.orderJob.count({ where: { kind: "payment_deadline" } })) === 0 ? true : undefined), () => "deadline jobs still queued");

    const ledger = await allTransactions(server, tenant.key);
    let paid = 0;
    for (const [index, order] of orders.entries()) {
      const answer = answers[index]!;
      const read = (await getOrder(server, tenant.key, order.id)).body.data;
      const debits = ledger.filter((entry) => entry.order_id === order.id && entry.type === "ticketing_debit");
      if (answer.status === 201) {
        paid++;
        expect(read.status, order.id).not.toBe("cancelled");
        expect(debits.map((entry) => entry.amount)).toEqual([`-${order.total_amount}`]);
      } else {
        expect(answer.status, JSON.stringify(answer.body)).toBe(409);
        expect({ status: read.status, reason: read.cancellation_reason }, order.id).toEqual({ status: "cancelled", reason: "payment_deadline_passed" });
        expect(debits).toEqual([]);
      }
    }
    // The balance is the sum of the ledger: nothing else moved.
    const wallet = await call(server, "GET", "/v1/wallet", { key: tenant.key });
    const signedMinor = (amount: string, currency: string) => (amount.startsWith("-") ? -toMinor(amount.slice(1), currency) : toMinor(amount, currency));
    const sum = ledger.reduce((total, entry) => total + signedMinor(entry.amount, entry.currency), 0);
    expect(toMinor(wallet.body.data.balance, wallet.body.data.currency)).toBe(sum);
    console.log(`payment race: ${paid} of ${ORDERS} paid, ${ORDERS - paid} cancelled at the deadline`);
  });
});
