import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/clock";
import { OrderJobQueue, type ClaimedJob } from "../../src/orders/jobs/order-job-queue";
import { call, startServerWithTenant, type TenantFixture } from "../helpers/client";
import { bookOffer, getOrder, searchForBooking, ticketOrder } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

/**
 * Hold deadlines run a claim's payment_deadline jobs together (src/orders/payment/hold-expiry.ts), one
 * transaction for all. Driven by hand here, with the server's job worker stopped and the product
 * clock moved past the deadlines, so each batch is exactly the jobs the test claimed: unpaid
 * holds cancelled, a paid one's job only removed, and a job whose lease another process took over
 * left to that process while the rest of its batch is cancelled. SQLite, or PostgreSQL under
 * TEST_DATABASE_URL.
 */

const LEASE_MS = 30_000;

describe("hold deadlines in batches", () => {
  let server: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => {
    ({ server, tenant } = await startServerWithTenant({ JOB_LEASE_SECONDS: String(LEASE_MS / 1000) }));
    await server.app.services.jobWorker.stop();
  });
  afterEach(() => setClock(new Date()));
  afterAll(async () => {
    await server?.close();
  });

  /** `count` holds, each on an offer of its own. */
  async function book(count: number): Promise<any[]> {
    const offers: any[] = [];
    while (offers.length < count) offers.push(...(await searchForBooking(server, tenant.key)));
    return Promise.all(offers.slice(0, count).map((offer) => bookOffer(server, tenant.key, offer)));
  }

  /** Moves the product clock past every deadline of `orders` and claims their deadline jobs, in the orders' order. */
  async function claimDeadlines(orders: any[]): Promise<ClaimedJob[]> {
    setClock(new Date(Math.max(...orders.map((order) => Date.parse(order.payment_status.payment_required_by))) + 1000));
    const jobs = await server.app.services.jobQueue.claimDue(100, ["payment_deadline"]);
    return orders.map((order) => jobs.find((job) => job.orderId === order.id)!);
  }

  const statusOf = async (order: any) => (await getOrder(server, tenant.key, order.id)).body.data;
  const deadlineJobs = (orders: any[]) => server.db.prisma.orderJob.count({ where: { orderId: { in: orders.map((order) => order.id) }, kind: "payment_deadline" } });
  const cancellations = async (order: any) => server.db.prisma.orderEvent.count({ where: { orderId: order.id, type: "order.cancelled" } });

  it("cancels the batch's unpaid holds in one go, seats given back, a webhook queued for each; a paid hold's job only goes", async () => {
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: "https://hooks.example.com/aerogate", webhook_enabled: true } })).status).toBe(200);
    const [first, second, paid] = await book(3);
    expect((await ticketOrder(server, tenant.key, paid.id)).status).toBe(200);
    const jobs = await claimDeadlines([first, second, paid]);
    expect(jobs.every(Boolean), "every deadline job claimed").toBe(true);

    expect(await server.app.services.holdExpiry.expire(jobs)).toEqual(["applied", "applied", "superseded"]);
    for (const order of [first, second]) {
      expect(await statusOf(order)).toMatchObject({ status: "cancelled", cancellation_reason: "payment_deadline_passed" });
      expect(await cancellations(order)).toBe(1);
      expect(await server.db.prisma.webhookDelivery.count({ where: { orderId: order.id, event: { type: "order.cancelled" } } })).toBe(1);
      expect(await server.db.prisma.seatHold.count({ where: { holdId: order.id } })).toBe(0);
      expect(await server.db.prisma.seatIntent.count({ where: { id: order.id } })).toBe(0);
    }
    expect((await getOrder(server, tenant.key, paid.id)).body.order.status).toBe("PROCESSING");
    expect(await cancellations(paid)).toBe(0);
    expect(await deadlineJobs([first, second, paid])).toBe(0);
  });

  it("tells every process of a batch too large for one message (PostgreSQL's NOTIFY takes 8,000 bytes): each order reads cancelled", async () => {
    const orders = await book(60);
    // Read once, so each is served from the order cache until a message drops it.
    for (const order of orders) expect((await statusOf(order)).status).toBe("pending");
    expect(await server.app.services.holdExpiry.expire(await claimDeadlines(orders))).toEqual(orders.map(() => "applied"));
    for (const order of orders) expect((await statusOf(order)).status).toBe("cancelled");
    expect(await server.db.prisma.seatHold.count({ where: { holdId: { in: orders.map((order) => order.id) } } })).toBe(0);
  });

  it("a job whose lease was taken over fails the batch's guard: the others are cancelled one by one, that one by its new holder", async () => {
    const orders = await book(3);
    const jobs = await claimDeadlines(orders);
    // The third job's lease ran out (a stalled process) and another process claimed it.
    await server.db.prisma.orderJob.update({ where: { id: jobs[2]!.id }, data: { lockedUntil: new Date(0) } });
    const [taken] = await new OrderJobQueue(server.db, LEASE_MS).claimDue(100, ["payment_deadline"]);
    expect(taken?.id).toBe(jobs[2]!.id);

    expect(await server.app.services.holdExpiry.expire(jobs)).toEqual(["applied", "applied", "lease_lost"]);
    expect((await statusOf(orders[0])).status).toBe("cancelled");
    expect((await statusOf(orders[1])).status).toBe("cancelled");
    expect((await statusOf(orders[2])).status).toBe("pending");
    expect(await deadlineJobs([orders[2]])).toBe(1);

    expect(await server.app.services.holdExpiry.expire([taken!])).toEqual(["applied"]);
    for (const order of orders) {
      expect(await statusOf(order)).toMatchObject({ status: "cancelled", cancellation_reason: "payment_deadline_passed" });
      expect(await cancellations(order)).toBe(1);
    }
    expect(await deadlineJobs(orders)).toBe(0);
  });
});
