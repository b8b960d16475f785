import { createHmac, randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clock, setClock } from "../../src/clock";
import { call } from "../helpers/client";
import type { DuffelFake } from "../helpers/duffel-fake";
import { closeDuffelSuite, duffelOffer, duffelOrdersOf, duffelTenant, expectLedgerOf, openDuffelSuite, waitingTicketJob } from "../helpers/duffel-gateway";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { eventTypes } from "../helpers/job-leases";
import { bookOffer, createOrderA, getOrder, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

const SECRET = randomBytes(24).toString("base64url");

/**
 * Holds Duffel accepts (202) at booking and confirms or fails later (docs/duffel.md#holds-confirmed-later):
 * the order is made at once, PENDING without a booking reference and taking no payment, and the
 * background read (or Duffel's webhook) gives it Duffel's reference, or fails it with nothing paid.
 */
describe("Duffel holds confirmed later", { timeout: 90_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof duffelTenant>>;

  beforeAll(async () => {
    ({ fake, server, tenant } = await openDuffelSuite({ DUFFEL_WEBHOOK_SECRET: SECRET }));
  });
  afterAll(() => closeDuffelSuite({ server, fake }));
  afterEach(() => setClock(new Date()));

  /** The booking of a holdable offer that Duffel accepts and keeps unconfirmed: the order as created, and Duffel's order. */
  const bookAccepted = async (fails = false) => {
    fake.acceptNextOrder({ readsPending: 1_000, fails });
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "VS"));
    const [accepted] = duffelOrdersOf(fake, order.id);
    return { order, accepted: accepted! };
  };

  /** Moves the clock past the confirmation job's next read and wakes the worker, as its own poll would. */
  const readAgain = async (orderId: string) => {
    const job = await waitingTicketJob(server, orderId, undefined, "confirm_booking");
    setClock(new Date(job.runAt.getTime() + 1));
    server.app.services.jobWorker.wake(clock.now());
  };

  /** Delivers Duffel's signed webhook `type` about Duffel's order `accepted`. */
  const deliver = (type: string, accepted: { id: string; metadata: Record<string, string> }) => {
    const body = JSON.stringify({ id: `wev_${randomBytes(8).toString("hex")}`, type, live_mode: false, created_at: clock.now().toISOString(), api_version: "v2", data: { object: { id: accepted.id, metadata: accepted.metadata } } });
    const t = Math.floor(clock.nowMs() / 1000);
    const signature = `t=${t},v1=${createHmac("sha256", SECRET).update(`${t}.${body}`).digest("hex")}`;
    return call(server, "POST", "/suppliers/duffel/webhooks", { rawBody: body, headers: { "x-duffel-signature": signature, "content-type": "application/json" } });
  };

  const paymentsOf = (duffelOrderId: string) => fake.requests.filter((request) => request.method === "POST" && request.path.startsWith("/air/payments") && (request.body as any)?.data?.order_id === duffelOrderId).length;

  it("makes the order of a hold Duffel has not confirmed PENDING without a booking reference, refuses its payment until the background read confirms it, then tickets it once", async () => {
    const balanceBefore = (await walletBalance(server, tenant.key)).minor;
    const { order, accepted } = await bookAccepted();
    expect(order).toMatchObject({ status: "pending", booking_reference: "" });
    expect(order.available_actions).toEqual(["cancel"]);
    expect(accepted.pending).toBeDefined();
    expectError(await ticketOrder(server, tenant.key, order.id), 409, "order_state_conflict");
    expect((await walletBalance(server, tenant.key)).minor).toBe(balanceBefore);
    expect(paymentsOf(accepted.id)).toBe(0);

    // Still unconfirmed at the first read: it waits again, the order unchanged.
    await readAgain(order.id);
    await waitingTicketJob(server, order.id, clock.now(), "confirm_booking");
    expect((await getOrder(server, tenant.key, order.id)).body.data.booking_reference).toBe("");

    accepted.pending!.readsPending = 0;
    await readAgain(order.id);
    const reference = accepted.id.slice(-6).toUpperCase();
    const confirmed = await eventually(
      async () => {
        const read = (await getOrder(server, tenant.key, order.id)).body;
        return read.data.booking_reference === reference ? read : undefined;
      },
      () => `order ${order.id} never got Duffel's booking reference`,
    );
    expect(confirmed.order.status).toBe("PENDING");
    expect(confirmed.data.available_actions).toContain("pay");
    // Duffel holds it until 24 h after its offer was made, a little before our own deadline: the hold's deadline and its job are Duffel's now.
    const deadline = confirmed.data.payment_status.payment_required_by;
    expect(Date.parse(deadline)).toBeLessThan(Date.parse(order.payment_status.payment_required_by));
    const expiry = await server.db.prisma.orderJob.findFirst({ where: { orderId: order.id, kind: "payment_deadline" } });
    expect(expiry!.runAt.toISOString()).toBe(deadline);
    expect(await server.db.prisma.orderJob.count({ where: { orderId: order.id, kind: "confirm_booking" } })).toBe(0);

    setClock(new Date());
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    expect(paymentsOf(accepted.id)).toBe(1);
    expect(duffelOrdersOf(fake, order.id)).toHaveLength(1);
    expect(await eventTypes(server, order.id)).toEqual(["order.created", "order.ticketed"]);
    await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"]);
  });

  it("fails in the background a hold Duffel accepted and then failed: FAILED airline_rejected with one order.failed, nothing debited, and its offer not booked again", async () => {
    const balanceBefore = (await walletBalance(server, tenant.key)).minor;
    const { order, accepted } = await bookAccepted(true);
    accepted.pending!.readsPending = 0;
    await readAgain(order.id);
    const failed = (await waitForStatus(server, tenant.key, order.id, ["FAILED"])).body;
    expect(failed.data.failure_reason).toBe("airline_rejected");
    expect(await eventTypes(server, order.id)).toEqual(["order.created", "order.failed"]);
    await expectLedgerOf(server, tenant.key, order.id, []);
    expect((await walletBalance(server, tenant.key)).minor).toBe(balanceBefore);
    expect(await server.db.prisma.duffelBooking.findUnique({ where: { id: order.id }, select: { status: true } })).toEqual({ status: "failed" });
    expectError(await createOrderA(server, tenant.key, { id: order.offer_id, total_amount: order.total_amount, total_currency: order.total_currency, passengers: [{ id: "p1", type: "adult" }] }), 422, "offer_no_longer_available");
  });

  it("Duffel's order.created and order.creation_failed webhooks settle an unconfirmed hold at once, without the clock moving", async () => {
    const kept = await bookAccepted();
    const failing = await bookAccepted(true);
    const waiting = await waitingTicketJob(server, kept.order.id, undefined, "confirm_booking");
    kept.accepted.pending!.readsPending = 0;
    failing.accepted.pending!.readsPending = 0;

    expect((await deliver("order.created", kept.accepted)).body.data).toMatchObject({ acted: true });
    expect((await deliver("order.creation_failed", failing.accepted)).body.data).toMatchObject({ acted: true });
    await eventually(
      async () => ((await getOrder(server, tenant.key, kept.order.id)).body.data.booking_reference === kept.accepted.id.slice(-6).toUpperCase() ? true : undefined),
      () => `order ${kept.order.id} never got Duffel's booking reference`,
    );
    await waitForStatus(server, tenant.key, failing.order.id, ["FAILED"]);
    expect(clock.nowMs()).toBeLessThan(waiting.runAt.getTime());
  });

  it("cancels an unconfirmed hold the tenant lets go, at Duffel too; its later read changes nothing", async () => {
    const { order, accepted } = await bookAccepted();
    const cancelled = await call(server, "POST", `/v1/air/orders/${order.id}/actions/cancel`, { key: tenant.key, headers: { "idempotency-key": `cancel-${order.id}` } });
    expect(cancelled.status, JSON.stringify(cancelled.body).slice(0, 300)).toBe(200);
    await eventually(async () => (fake.orders.get(accepted.id)?.cancelled ? true : undefined), () => `Duffel's order ${accepted.id} was not cancelled`);
    accepted.pending!.readsPending = 0;
    await readAgain(order.id);
    await eventually(
      async () => ((await server.db.prisma.orderJob.count({ where: { orderId: order.id, kind: "confirm_booking" } })) === 0 ? true : undefined),
      () => `the confirm_booking job of ${order.id} was not ended`,
    );
    const read = (await getOrder(server, tenant.key, order.id)).body;
    expect(read.order.status).toBe("CANCELED");
    expect(read.data.booking_reference).toBe("");
    expect(await eventTypes(server, order.id)).toEqual(["order.created", "order.cancelled"]);
  });
});
