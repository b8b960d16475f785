import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { getOrder } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";
import { bookOrders, type BookedOrder } from "../helpers/ticketing";
import { expectClaimedOnceByBoth, startTwoServers, type TwoServers } from "../helpers/two-servers";

/**
 * Two server processes on one PostgreSQL database, both running the job worker, racing for the
 * same due payment_deadline jobs (claims take `FOR UPDATE SKIP LOCKED`): every unpaid hold is
 * cancelled at its deadline, its job claimed once across the two, one `order.cancelled` per
 * order, and both processes claim some. Only meaningful on PostgreSQL.
 */

const ORDERS = 20;

describe("hold deadlines shared by two processes on one PostgreSQL database", { timeout: 120_000 }, () => {
  let servers: TwoServers;
  let a: TestServer;
  let b: TestServer;
  let tenant: TenantFixture;
  let booked: BookedOrder[];

  beforeAll(async () => {
    servers = await startTwoServers({ ORDER_HOLD_SECONDS: "4", JOB_POLL_MS: "20" });
    ({ a, b } = servers);
    tenant = await createTenant(a);
    booked = await bookOrders(a, tenant.key, ORDERS, 5);
  });
  afterAll(() => servers?.close());

  it("cancels every unpaid hold at its deadline, each job claimed once across the two, one event per order", async () => {
    for (const order of booked) {
      await eventually(
        async () => ((await getOrder(b, tenant.key, order.id)).body.data.cancellation_reason === "payment_deadline_passed" ? true : undefined),
        () => `order ${order.id} not cancelled at its deadline`,
      );
    }
    expectClaimedOnceByBoth(servers.claims.filter((claim) => claim.job.kind === "payment_deadline"), booked.map((order) => order.id));
    const cancelled = await a.db.prisma.orderEvent.groupBy({ by: ["orderId"], where: { tenantId: tenant.tenantId, type: "order.cancelled" }, _count: true });
    expect(cancelled.map((row) => [row.orderId, row._count]).sort()).toEqual(booked.map((order) => [order.id, 1]).sort());
    // Seats go back just after each cancellation's commit.
    const held = () => a.db.prisma.seatHold.count({ where: { holdId: { in: booked.map((order) => order.id) } } });
    await eventually(async () => ((await held()) === 0 ? true : undefined), () => "seats of cancelled holds still held");
  });
});
