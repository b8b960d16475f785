import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ORDER_JOB_KINDS, OrderJobQueue } from "../../src/orders/jobs/order-job-queue";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { toMinor } from "../helpers/flight-checks";
import { seatHoldsOf } from "../helpers/flights";
import { eventTypes, expectTicketedOnce, expireLease, leaseInDatabase, ledgerOf, recordClaims, waitForClaims, waitForRenewal, type SeenClaim } from "../helpers/job-leases";
import { bookOffer, getOrder, passengersOf, searchForBooking, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Ticketing and refund jobs whose airline call outlasts the job's lease. A
 * sandbox passenger named `Slow` makes the simulated airline answer after twice the lease
 * (JOB_LEASE_SECONDS=1: two seconds). While the call runs the worker renews the lease, so no
 * other worker claims the job; a run whose lease was taken anyway (its process stalled past it,
 * simulated by ending the lease in the database) writes nothing; and a job claimed more than
 * JOB_MAX_ATTEMPTS times is given up, its order FAILED with the money returned.
 */

const LEASE_MS = 1000;
const SLOW_ANSWER_MS = 2 * LEASE_MS;
const MAX_ATTEMPTS = 2;
/** A timer and the clock may disagree by a millisecond or so: what a "took at least" comparison allows. */
const TIMER_SLACK_MS = 5;

describe("ticketing job leases", { timeout: 60_000 }, () => {
  let server: TestServer;
  let tenant: TenantFixture;
  const claims: SeenClaim[] = [];
  let stopRecording: () => void;

  beforeAll(async () => {
    server = await startTestServer({ env: { JOB_LEASE_SECONDS: String(LEASE_MS / 1000), JOB_MAX_ATTEMPTS: String(MAX_ATTEMPTS), JOB_POLL_MS: "20", TICKETING_DELAY_MS: "0" } });
    stopRecording = recordClaims(server, "server", claims);
    tenant = await createTenant(server);
  });
  afterAll(async () => {
    stopRecording?.();
    await server?.close();
  });

  /** Books an order whose passengers are all named `Slow`, and returns it with its total in minor units. */
  async function bookSlow(cabin: "economy" | "business" = "economy"): Promise<{ order: any; totalMinor: number; offer: any }> {
    const [offer] = await searchForBooking(server, tenant.key, { cabin });
    const order = await bookOffer(server, tenant.key, offer, { passengers: passengersOf(offer, { family_name: "Slow" }) });
    return { order, offer, totalMinor: toMinor(order.total_amount, order.total_currency) };
  }

  it("renews the lease while the slow airline is asked, so a second worker claims nothing; the order is ticketed once", async () => {
    const { order, totalMinor } = await bookSlow();
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const [claim] = await waitForClaims(claims, order.id, 1);
    // Another worker on the same queue, as a second process would run it, polls throughout the call.
    const rival = new OrderJobQueue(server.db, LEASE_MS);
    let renewed = false;
    const ticketed = await eventually(
      async () => {
        expect(await rival.claimDue(10, ORDER_JOB_KINDS), "a job claimed while its lease is renewed").toEqual([]);
        const lease = await leaseInDatabase(server, order.id);
        if (lease && lease > claim!.job.lease) renewed = true;
        const read = await getOrder(server, tenant.key, order.id);
        return read.body.order.status === "PROCESSING" ? undefined : read;
      },
      () => `order ${order.id} still processing`,
    );
    expect(renewed, "the lease was renewed in the database").toBe(true);
    expect(Date.parse(ticketed.body.data.updated_at), "the airline took longer than the lease").toBeGreaterThanOrEqual(claim!.claimedAt.getTime() + SLOW_ANSWER_MS - TIMER_SLACK_MS);
    expect(claims.filter((seen) => seen.job.orderId === order.id)).toHaveLength(1);
    await expectTicketedOnce(server, tenant.key, ticketed.body.data, totalMinor);
  });

  it("a run whose lease was taken over writes nothing: the run holding the lease tickets the order, once", async () => {
    const { order, totalMinor } = await bookSlow();
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const [first] = await waitForClaims(claims, order.id, 1);
    await waitForRenewal(server, first!);
    // The first run's process stalls past its lease while the airline is still answering it.
    await expireLease(server, order.id);
    const [, second] = await waitForClaims(claims, order.id, 2);
    expect(second!.job.attempts).toBe(2);
    const ticketed = await waitForStatus(server, tenant.key, order.id, ["TICKETED", "FAILED"]);
    // The first run's answer came first, but it no longer held the lease: the outcome is the second run's.
    expect(Date.parse(ticketed.body.data.updated_at)).toBeGreaterThanOrEqual(second!.claimedAt.getTime() + SLOW_ANSWER_MS - TIMER_SLACK_MS);
    expect(claims.filter((seen) => seen.job.orderId === order.id)).toHaveLength(2);
    await expectTicketedOnce(server, tenant.key, ticketed.body.data, totalMinor);
  });

  it(`a ticketing job claimed more than JOB_MAX_ATTEMPTS (${MAX_ATTEMPTS}) times fails the order: the debit reversed once, the seats released, one order.failed`, async () => {
    const before = await walletBalance(server, tenant.key);
    const { order, totalMinor } = await bookSlow();
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    // Every run loses its lease while the airline is asked (its process stalls past it).
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      await waitForClaims(claims, order.id, attempt);
      await expireLease(server, order.id);
    }
    const failed = await waitForStatus(server, tenant.key, order.id, ["TICKETED", "FAILED"], 20_000);
    expect(failed.body.data).toMatchObject({ status: "failed", ticketing_status: "failed", failure_reason: "ticketing_attempts_exhausted", documents: [] });
    expect(claims.filter((seen) => seen.job.orderId === order.id).map((seen) => seen.job.attempts)).toEqual([1, 2, 3]);
    expect(await ledgerOf(server, tenant.key, order.id)).toEqual([`ticketing_debit ${-totalMinor}`, `ticketing_reversal ${totalMinor}`]);
    expect((await walletBalance(server, tenant.key)).minor).toBe(before.minor);
    expect(await eventTypes(server, order.id)).toEqual(["order.created", "order.failed"]);
    expect(await leaseInDatabase(server, order.id), "the job is done").toBeUndefined();
    await eventually(async () => ((await seatHoldsOf(server, order.id)) === 0 ? true : undefined), () => `order ${order.id} still holds seats`);
    const event = await server.db.prisma.orderEvent.findFirstOrThrow({ where: { orderId: order.id, type: "order.failed" } });
    expect(JSON.parse(event.payload).data).toMatchObject({ failure_reason: "ticketing_attempts_exhausted", payment_reversed: true });
  });

  it(`a refund job claimed more than JOB_MAX_ATTEMPTS times is withdrawn: the order stays ticketed, nothing credited, and it may be asked again`, async () => {
    const { order, totalMinor } = await bookSlow("business");
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const ticketed = await waitForStatus(server, tenant.key, order.id, ["TICKETED", "FAILED"]);
    await expectTicketedOnce(server, tenant.key, ticketed.body.data, totalMinor);
    const refund = () => call(server, "POST", `/v1/air/orders/${order.id}/actions/refund`, { key: tenant.key });
    expect((await refund()).status).toBe(200);
    for (let attempt = 1; attempt <= MAX_ATTEMPTS; attempt++) {
      const seen = await waitForClaims(claims, order.id, 1 + attempt);
      expect(seen.at(-1)!.job.kind).toBe("refund");
      await expireLease(server, order.id);
    }
    const withdrawn = await eventually(
      async () => {
        const read = await getOrder(server, tenant.key, order.id);
        return read.body.data.refund_status === null ? read : undefined;
      },
      () => `order ${order.id}'s refund still in progress`,
      20_000,
    );
    expect(withdrawn.body.data).toMatchObject({ status: "confirmed", refund_status: null });
    expect(await ledgerOf(server, tenant.key, order.id)).toEqual([`ticketing_debit ${-totalMinor}`]);
    expect(await eventTypes(server, order.id)).toEqual(["order.created", "order.ticketed"]);
    expect(await leaseInDatabase(server, order.id), "the job is done").toBeUndefined();
    // Asked again, the refund runs (and the airline, still slow, confirms it within the lease's renewals).
    expect((await refund()).status).toBe(200);
    expect((await waitForStatus(server, tenant.key, order.id, ["REFUNDED"])).body.data.refund_status).toBe("refunded");
  });
});
