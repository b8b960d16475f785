import { createHmac, randomBytes } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clock, setClock } from "../../src/clock";
import { call } from "../helpers/client";
import type { DuffelFake } from "../helpers/duffel-fake";
import { duffelOffer, duffelOrdersOf, duffelTenant, expectLedgerOf, waitingTicketJob, openDuffelSuite, closeDuffelSuite } from "../helpers/duffel-gateway";
import { expectError } from "../helpers/expect-error";
import { eventTypes } from "../helpers/job-leases";
import { bookOffer, ticketOrder, waitForStatus } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

const SECRET = randomBytes(24).toString("base64url");
const WEBHOOKS = "/suppliers/duffel/webhooks";

/** Duffel's X-Duffel-Signature of `body`: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">. */
function signature(body: string, secret = SECRET, at = clock.now()): string {
  const t = Math.floor(at.getTime() / 1000);
  return `t=${t},v1=${createHmac("sha256", secret).update(`${t}.${body}`).digest("hex")}`;
}

/** A Duffel webhook event about Duffel's order `order` (its id and metadata). */
function event(type: string, order: { id: string; metadata?: Record<string, string> }, id = `wev_${randomBytes(8).toString("hex")}`): string {
  return JSON.stringify({ id, type, live_mode: false, created_at: clock.now().toISOString(), idempotency_key: order.id, api_version: "v2", data: { object: order } });
}

/**
 * Duffel's webhooks (docs/duffel.md#duffels-webhooks): verified by X-Duffel-Signature before
 * anything is read (a bad one is 401 and changes nothing), acted on once per event id, and an
 * order event waking the ticketing waiting on Duffel so it reads Duffel's order at once, as its
 * background poll would later.
 */
describe("Duffel's webhooks", { timeout: 90_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof duffelTenant>>;

  beforeAll(async () => {
    ({ fake, server, tenant } = await openDuffelSuite({ DUFFEL_WEBHOOK_SECRET: SECRET }));
  });
  afterAll(() => closeDuffelSuite({ server, fake }));
  afterEach(() => setClock(new Date()));

  const deliver = (body: string, sign = signature(body)) => call(server, "POST", WEBHOOKS, { rawBody: body, headers: { "x-duffel-signature": sign, "content-type": "application/json" } });
  const eventsKept = () => server.db.prisma.duffelWebhookEvent.count();

  it("refuses a delivery whose signature is missing, wrong, of another secret or stale with 401 webhook_signature_invalid, and a signed body that is no event with 400; nothing is recorded", async () => {
    const body = event("order.created", { id: "ord_0000unknown" });
    const before = await eventsKept();
    const stale = signature(body, SECRET, new Date(clock.nowMs() - 10 * 60_000));
    for (const sign of ["", "t=1,v1=00", signature(body, "another secret"), stale, signature(`${body} `)]) {
      expectError(await deliver(body, sign), 401, "webhook_signature_invalid", "X-Duffel-Signature");
    }
    expectError(await call(server, "POST", WEBHOOKS, { rawBody: body }), 401, "webhook_signature_invalid");
    expectError(await deliver("not json"), 400, "validation_failed", "body");
    expectError(await deliver(JSON.stringify({ type: "order.created" })), 400, "validation_failed", "body");
    expect(await eventsKept()).toBe(before);
  });

  it("records an event about an order we did not book and does nothing else; its repeat is a duplicate", async () => {
    const body = event("order.created", { id: "ord_0000notours", metadata: { aerogate_order_id: "ord_notours" } });
    const first = await deliver(body);
    expect(first.status, JSON.stringify(first.body)).toBe(200);
    expect(first.body.data).toMatchObject({ type: "order.created", acted: false, duplicate: false });
    expect((await deliver(body)).body.data).toMatchObject({ acted: false, duplicate: true });
  });

  it("order.created for a ticketing waiting on Duffel's 202 tickets it at once, without the clock moving; five concurrent deliveries of it ticket it once, Duffel booked and the wallet debited once", async () => {
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "BA"));
    fake.acceptNextOrder({ readsPending: 1_000 });
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const waiting = await waitingTicketJob(server, order.id);
    const [accepted] = duffelOrdersOf(fake, order.id);
    accepted!.pending!.readsPending = 0;

    const body = event("order.created", { id: accepted!.id, metadata: { aerogate_order_id: order.id } });
    const deliveries = await Promise.all(Array.from({ length: 5 }, () => deliver(body)));
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200, 200, 200]);
    expect(deliveries.some((delivery) => delivery.body.data.acted)).toBe(true);
    const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
    // Before the job's own next read: the webhook woke it.
    expect(clock.nowMs()).toBeLessThan(waiting.runAt.getTime());
    expect(ticketed.booking_reference).toBe(accepted!.id.slice(-6).toUpperCase());
    expect(duffelOrdersOf(fake, order.id)).toHaveLength(1);
    expect(await eventTypes(server, order.id)).toEqual(["order.created", "order.ticketed"]);
    await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"]);
    expect((await deliver(body)).body.data).toMatchObject({ duplicate: true });
    expect(await server.db.prisma.duffelWebhookEvent.count({ where: { duffelOrderId: accepted!.id } })).toBe(1);
  });

  it("order.creation_failed for a ticketing waiting on Duffel's 202 fails it at once when Duffel no longer sells the offer: the debit given back once, one order.failed", async () => {
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "BA"));
    fake.acceptNextOrder({ readsPending: 1_000, fails: true });
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const waiting = await waitingTicketJob(server, order.id);
    const [accepted] = duffelOrdersOf(fake, order.id);
    // Duffel gives up on the order, and the airline no longer sells its offer.
    accepted!.pending!.readsPending = 0;
    fake.withdraw(accepted!.offerId);

    const delivered = await deliver(event("order.creation_failed", { id: accepted!.id, metadata: { aerogate_order_id: order.id } }));
    expect(delivered.body.data).toMatchObject({ acted: true, duplicate: false });
    const failed = (await waitForStatus(server, tenant.key, order.id, ["FAILED"])).body;
    expect(clock.nowMs()).toBeLessThan(waiting.runAt.getTime());
    expect(failed.data.failure_reason).toBe("airline_rejected");
    expect(await eventTypes(server, order.id)).toEqual(["order.created", "order.failed"]);
    await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit", "ticketing_reversal"]);
    expect(duffelOrdersOf(fake, order.id).every((atDuffel) => atDuffel.cancelled || atDuffel.id === accepted!.id)).toBe(true);
  });
});
