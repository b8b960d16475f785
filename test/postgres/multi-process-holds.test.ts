import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/context/api-key-secret";
import { createTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { getOrder } from "../helpers/orders";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { bookOrders, type BookedOrder } from "../helpers/ticketing";

/**
 * Two server processes on one PostgreSQL database, both running the job worker, racing for the
 * same due payment_deadline jobs (claims take `FOR UPDATE SKIP LOCKED`): every unpaid hold is
 * cancelled at its deadline, its job claimed once across the two, one `order.cancelled` per
 * order, and both processes claim some. Only meaningful on PostgreSQL.
 */

const ORDERS = 20;

describe("hold deadlines shared by two processes on one PostgreSQL database", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  const claims: Array<{ server: "A" | "B"; jobId: string; orderId: string }> = [];
  const unsubscribe: Array<() => void> = [];
  let tenant: TenantFixture;
  let booked: BookedOrder[];

  beforeAll(async () => {
    database = await createTestDatabase();
    const ownerKey = generateSecret("owner");
    const env = { ORDER_HOLD_SECONDS: "4", JOB_POLL_MS: "20" };
    a = await startTestServer({ database, ownerKey, env });
    b = await startTestServer({ database, ownerKey, env });
    expect(a.provider).toBe("postgresql");
    for (const [name, server] of [["A", a], ["B", b]] as const) {
      unsubscribe.push(server.app.services.jobWorker.onClaimed((job) => job.kind === "payment_deadline" && claims.push({ server: name, jobId: job.id, orderId: job.orderId })));
    }
    tenant = await createTenant(a);
    booked = await bookOrders(a, tenant.key, ORDERS, 5);
  });

  afterAll(async () => {
    for (const stop of unsubscribe) stop();
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  it("cancels every unpaid hold at its deadline, each job claimed once across the two, one event per order", async () => {
    for (const order of booked) {
      await eventually(
        async () => ((await getOrder(b, tenant.key, order.id)).body.data.cancellation_reason === "payment_deadline_passed" ? true : undefined),
        () => `order ${order.id} not cancelled at its deadline`,
      );
    }
    const jobIds = claims.map((claim) => claim.jobId);
    expect(new Set(jobIds).size, "no job claimed twice").toBe(jobIds.length);
    expect(claims.map((claim) => claim.orderId).sort()).toEqual(booked.map((order) => order.id).sort());
    const byA = claims.filter((claim) => claim.server === "A").length;
    expect(byA > 0 && byA < ORDERS, `A claimed ${byA} of ${ORDERS}`).toBe(true);
    const cancelled = await a.db.prisma.orderEvent.groupBy({ by: ["orderId"], where: { tenantId: tenant.tenantId, type: "order.cancelled" }, _count: true });
    expect(cancelled.map((row) => [row.orderId, row._count]).sort()).toEqual(booked.map((order) => [order.id, 1]).sort());
    // Seats go back just after each cancellation's commit.
    const held = () => a.db.prisma.seatHold.count({ where: { holdId: { in: booked.map((order) => order.id) } } });
    await eventually(async () => ((await held()) === 0 ? true : undefined), () => "seats of cancelled holds still held");
  });
});
