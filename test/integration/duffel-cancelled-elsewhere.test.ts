import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/client";
import { cancelAtDuffel, deliverDuffelEvent, duffelEvent } from "../helpers/duffel-events";
import type { DuffelFake } from "../helpers/duffel-fake";
import { closeDuffelSuite, duffelOffer, duffelOrdersOf, duffelTenant, expectLedgerOf, openDuffelSuite } from "../helpers/duffel-gateway";
import { toMinor } from "../helpers/flight-checks";
import { eventTypes } from "../helpers/job-leases";
import { bookOffer, getOrder, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

const SECRET = randomBytes(24).toString("base64url");

/**
 * A Duffel order cancelled outside Aerogate (Duffel's dashboard, the airline) is refunded here
 * when Duffel's webhook says so (docs/duffel.md#cancelled-at-duffel): as our own cancellation
 * would, once, whether the webhook is repeated or races the tenant's own refund.
 */
describe("Duffel orders cancelled at Duffel", { timeout: 120_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof duffelTenant>>;

  beforeAll(async () => {
    ({ fake, server, tenant } = await openDuffelSuite({ DUFFEL_WEBHOOK_SECRET: SECRET, DUFFEL_CHANGES_POLL_MS: "0" }));
    // Aerogate's refundable fee on Duffel orders: the one amount a refund moves in the wallet of a Duffel-settled order.
    const rule = await call(server, "POST", "/v1/pricing_rules", {
      key: server.ownerKey,
      body: { tenant_id: tenant.tenantId, name: "Duffel fee", match: { supplier: "duffel" }, fee: { fixed_amount: "7.00", fixed_currency: "USD" }, refundable: true },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
  });
  afterAll(() => closeDuffelSuite({ server, fake }));

  /** A ticketed, Duffel-settled order (AA: holdable, refundable), Duffel's order id, and the wallet's balance before it. */
  async function ticketed() {
    const before = (await walletBalance(server, tenant.key)).minor;
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const read = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
    const fee = toMinor(read.fee_amount, read.total_currency);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(before - fee);
    return { order: read, duffelOrderId: duffelOrdersOf(fake, order.id)[0]!.id, before };
  }

  const confirmedCancellations = () => fake.requests.filter((request) => request.method === "POST" && /^\/air\/order_cancellations\/[^/]+\/actions\/confirm$/.test(request.path)).length;

  it("order_cancellation.confirmed and order.updated (cancelled) for an order cancelled in Duffel's dashboard refund it here once: REFUNDED, the refundable fee back once, one order_cancellation.confirmed and one order.refunded, however many deliveries race", async () => {
    const { order, duffelOrderId, before } = await ticketed();
    const cancellation = await cancelAtDuffel(fake, tenant.token, duffelOrderId);
    const confirmedBefore = confirmedCancellations();

    const deliveries = await Promise.all([
      ...Array.from({ length: 3 }, () => deliverDuffelEvent(server, SECRET, duffelEvent("order_cancellation.confirmed", cancellation))),
      deliverDuffelEvent(server, SECRET, duffelEvent("order.updated", { id: duffelOrderId, cancelled_at: new Date().toISOString(), metadata: { aerogate_order_id: order.id } })),
    ]);
    expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200, 200]);
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit", "refund_credit"])).toBe(before);
    const types = await eventTypes(server, order.id);
    expect(types.filter((type) => type === "order_cancellation.confirmed")).toHaveLength(1);
    expect(types.filter((type) => type === "order.refunded")).toHaveLength(1);
    // Duffel's cancellation is the one confirmed: our refund confirmed nothing more there.
    expect(confirmedCancellations()).toBe(confirmedBefore);
    const [quote, ...others] = (await call(server, "GET", `/v1/air/order_cancellations?order_id=${order.id}`, { key: tenant.key })).body.data.items;
    expect(others).toEqual([]);
    expect(quote).toMatchObject({ order_id: order.id, confirmed_at: expect.any(String) });

    // Duffel repeating the event later changes nothing.
    expect((await deliverDuffelEvent(server, SECRET, duffelEvent("order_cancellation.confirmed", cancellation))).status).toBe(200);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit", "refund_credit"])).toBe(before);
  });

  it("the tenant's own refund racing Duffel's webhook of a cancellation at Duffel refunds once", async () => {
    const { order, duffelOrderId, before } = await ticketed();
    const cancellation = await cancelAtDuffel(fake, tenant.token, duffelOrderId);
    const [own, delivered] = await Promise.all([
      call(server, "POST", `/v1/air/orders/${order.id}/actions/refund`, { key: tenant.key }),
      deliverDuffelEvent(server, SECRET, duffelEvent("order_cancellation.confirmed", cancellation)),
    ]);
    expect([200, 409]).toContain(own.status);
    expect(delivered.status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit", "refund_credit"])).toBe(before);
    expect((await eventTypes(server, order.id)).filter((type) => type === "order.refunded")).toHaveLength(1);
  });

  it("a cancellation event for an order Duffel has not cancelled changes nothing: the order stays TICKETED, no money moves", async () => {
    const { order, duffelOrderId, before } = await ticketed();
    const forged = { id: `ore_0000${randomBytes(6).toString("hex")}`, order_id: duffelOrderId, refund_amount: "10.00", refund_currency: "GBP", confirmed_at: new Date().toISOString() };
    expect((await deliverDuffelEvent(server, SECRET, duffelEvent("order_cancellation.confirmed", forged))).body.data).toMatchObject({ acted: true });
    const read = (await getOrder(server, tenant.key, order.id)).body.data;
    expect(read.status).toBe(order.status);
    expect(read.updated_at).toBe(order.updated_at);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBeLessThan(before);
  });
});
