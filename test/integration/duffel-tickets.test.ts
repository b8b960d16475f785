import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clock, setClock } from "../../src/clock";
import type { DuffelFake } from "../helpers/duffel-fake";
import { duffelOffer, duffelOrdersOf, duffelTenant, expectLedgerOf, waitingTicketJob, openDuffelSuite, closeDuffelSuite } from "../helpers/duffel-gateway";
import { eventTypes } from "../helpers/job-leases";
import { bookOffer, getOrder, ticketOrder, waitForStatus } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

/**
 * Tickets Duffel issues later (docs/duffel.md#tickets-issued-later): a ticketing Duffel has in
 * hand but not finished (paid, its e-tickets not issued yet; an order it accepted with a 202 and
 * has not confirmed) keeps the order PROCESSING and is read again in the background, on the
 * job's backoff, until Duffel finishes it: then TICKETED with Duffel's numbers and one
 * `order.ticketed`, Duffel paid once and the wallet debited once.
 */
describe("Duffel tickets issued later", { timeout: 90_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof duffelTenant>>;

  beforeAll(async () => {
    ({ fake, server, tenant } = await openDuffelSuite());
  });
  afterAll(() => closeDuffelSuite({ server, fake }));
  afterEach(() => {
    fake.withholdTickets = false;
    setClock(new Date());
  });

  const waitingJob = (orderId: string) => waitingTicketJob(server, orderId);

  /** Moves the clock to the job's next read and wakes the worker, as its own poll would. */
  const readAgain = (runAt: Date) => {
    setClock(new Date(runAt.getTime() + 1));
    server.app.services.jobWorker.wake(clock.now());
  };

  const paymentsOf = (duffelOrderId: string) => fake.requests.filter((request) => request.method === "POST" && request.path.startsWith("/air/payments") && (request.body as any)?.data?.order_id === duffelOrderId).length;

  it("keeps a hold paid before Duffel issued its e-tickets PROCESSING, reads it again with a growing wait, and tickets it with Duffel's numbers once they appear", async () => {
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "VS"));
    fake.withholdTickets = true;
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const first = await waitingJob(order.id);
    const [held] = duffelOrdersOf(fake, order.id);
    expect(held!.paid).toBe(true);
    expect((await getOrder(server, tenant.key, order.id)).body.order.status).toBe("PROCESSING");
    expect(first.attempts).toBe(0);

    // Still no tickets at the next read: the job waits again, longer than before.
    readAgain(first.runAt);
    const second = await waitingTicketJob(server, order.id, first.runAt);
    expect(second.runAt.getTime() - clock.nowMs()).toBeGreaterThanOrEqual(first.runAt.getTime() - first.createdAt.getTime() - 1_000);

    fake.withholdTickets = false;
    readAgain(second.runAt);
    const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
    expect(ticketed.documents).toEqual([expect.objectContaining({ type: "electronic_ticket", unique_identifier: "125000000000", passenger_id: "p1" })]);
    expect(await eventTypes(server, order.id)).toEqual(["order.created", "order.ticketed"]);
    expect(paymentsOf(held!.id)).toBe(1);
    await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"]);
  });

  it("resolves in the background an instant order Duffel accepted (202) at ticketing and confirmed only later, booked once", async () => {
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "BA"));
    fake.acceptNextOrder({ readsPending: 1_000 });
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const job = await waitingJob(order.id);
    const [accepted] = duffelOrdersOf(fake, order.id);
    expect(accepted!.pending).toBeDefined();
    expect((await getOrder(server, tenant.key, order.id)).body.order.status).toBe("PROCESSING");

    accepted!.pending!.readsPending = 0;
    readAgain(job.runAt);
    const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
    expect(ticketed.booking_reference).toBe(accepted!.id.slice(-6).toUpperCase());
    expect(ticketed.documents).toHaveLength(1);
    expect(duffelOrdersOf(fake, order.id)).toHaveLength(1);
    expect(await eventTypes(server, order.id)).toEqual(["order.created", "order.ticketed"]);
    await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"]);
  });
});
