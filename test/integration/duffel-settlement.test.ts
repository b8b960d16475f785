import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { connectDuffel } from "../helpers/duffel";
import { startDuffelFake, type DuffelFake } from "../helpers/duffel-fake";
import { duffelOffer, duffelOrdersOf, expectLedgerOf, WITH_DUFFEL, startDuffelServer } from "../helpers/duffel-gateway";
import { toMinor } from "../helpers/flight-checks";
import { bookOffer, getOrder, searchForBooking, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";
import { credit, getWallet } from "../helpers/wallet";

/**
 * Who settles an order's fare (docs/duffel.md#who-settles): an order of a tenant's own Duffel
 * connection is `supplier`-settled (Duffel takes the fare from the tenant's Duffel balance and
 * refunds it there), so the Aerogate wallet moves by exactly Aerogate's fee, zero without one, and
 * a refund credits no fare; a simulated order is `wallet`-settled as before.
 */

/** A live tenant connected to Duffel (the fake) with a live token, its wallet empty. */
async function liveDuffelTenant(server: TestServer, fake: DuffelFake): Promise<TenantFixture> {
  const tenant = await createTenant(server, { environment: "live" });
  const token = `duffel_live_${Math.random().toString(36).slice(2)}${Date.now()}`;
  fake.allow(token);
  await connectDuffel(server, tenant, token);
  expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: WITH_DUFFEL } })).status).toBe(200);
  return tenant;
}

describe("settlement of Duffel orders", { timeout: 60_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;

  beforeAll(async () => {
    fake = await startDuffelFake();
    server = await startDuffelServer(fake);
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it("a live tenant's Duffel order without a fee is settled by Duffel: booked and ticketed with an empty wallet, `supplier` in REST and GraphQL, the wallet moved by 0, and its refund credits no fare", async () => {
    const tenant = await liveDuffelTenant(server, fake);
    expect((await walletBalance(server, tenant.key)).minor).toBe(0);
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
    expect(order.settlement).toBe("supplier");
    const read = await graphql(server, `query($id: ID!) { order(id: $id) { settlement } }`, { id: order.id }, { key: tenant.key });
    expect(read.body).toEqual({ data: { order: { settlement: "SUPPLIER" } } });

    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    expect(duffelOrdersOf(fake, order.id)).toEqual([expect.objectContaining({ type: "hold", paid: true })]);
    // The ledger says the order was paid, for nothing: Duffel took the fare.
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(0);

    const refunded = await call(server, "POST", `/v1/air/orders/${order.id}/actions/refund`, { key: tenant.key });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    expect(duffelOrdersOf(fake, order.id)[0]!.cancelled).toBe(true);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit", "refund_credit"])).toBe(0);
  });

  it("with Aerogate's fee, the wallet pays exactly the fee (a wallet holding less than the fare books and tickets), and a refundable fee alone comes back", async () => {
    const tenant = await liveDuffelTenant(server, fake);
    const rule = await call(server, "POST", "/v1/pricing_rules", {
      key: server.ownerKey,
      body: { tenant_id: tenant.tenantId, name: "Duffel fee", match: { supplier: "duffel" }, fee: { fixed_amount: "7.00", fixed_currency: "USD" }, refundable: true },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    await credit(server, tenant.tenantId, "10.00");
    const before = (await walletBalance(server, tenant.key)).minor;
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
    const fee = toMinor(order.fee_amount, order.total_currency);
    expect(fee).toBeGreaterThan(0);
    expect(toMinor(order.total_amount, order.total_currency)).toBeGreaterThan(before);

    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(before - fee);

    expect((await call(server, "POST", `/v1/air/orders/${order.id}/actions/refund`, { key: tenant.key })).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit", "refund_credit"])).toBe(before);
  });

  it("an unpaid order the supplier settles reserves only Aerogate's fee: reserved and available count what the wallet would pay", async () => {
    const tenant = await liveDuffelTenant(server, fake);
    const rule = await call(server, "POST", "/v1/pricing_rules", {
      key: server.ownerKey,
      body: { tenant_id: tenant.tenantId, name: "Duffel fee", match: { supplier: "duffel" }, fee: { fixed_amount: "3.00", fixed_currency: "USD" } },
    });
    expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    await credit(server, tenant.tenantId, "5000.00");
    const supplierSettled = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
    expect(supplierSettled.settlement).toBe("supplier");
    expect(toMinor(supplierSettled.total_amount, supplierSettled.total_currency)).toBeGreaterThan(300);
    expect((await getWallet(server, tenant.key))).toMatchObject({ balance: "5000.00", reserved: "3.00", available: "4997.00" });
    const walletSettled = await bookOffer(server, tenant.key, (await searchForBooking(server, tenant.key)).find((candidate) => candidate.supplier.id === "simulated"));
    expect(walletSettled.settlement).toBe("wallet");
    const reserved = 300 + toMinor(walletSettled.total_amount, walletSettled.total_currency);
    const wallet = await graphql(server, "{ wallet { reserved available } }", {}, { key: tenant.key });
    expect(wallet.body.data.wallet).toEqual({ reserved: (reserved / 100).toFixed(2), available: ((500_000 - reserved) / 100).toFixed(2) });
  });

  it("a simulated order stays settled by the wallet: `wallet`, its total debited", async () => {
    const tenant = await liveDuffelTenant(server, fake);
    await credit(server, tenant.tenantId, "5000.00");
    const offer = (await searchForBooking(server, tenant.key)).find((candidate) => candidate.supplier.id === "simulated");
    const order = await bookOffer(server, tenant.key, offer);
    expect(order.settlement).toBe("wallet");
    const before = (await walletBalance(server, tenant.key)).minor;
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
    expect((await getOrder(server, tenant.key, order.id)).body.data.settlement).toBe("wallet");
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(before - toMinor(ticketed.total_amount, ticketed.total_currency));
  });

  it("a refund Duffel makes to airline credits records each credit (airline, amount, currency, expiry, passenger, order), credits no cash, is listed in REST and GraphQL and emits airline_credit.created; a credit without an amount stays unknown, not 0", async () => {
    const tenant = await liveDuffelTenant(server, fake);
    const refundToCredits = async (amountKnown: boolean) => {
      const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
      await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
      fake.refundTo = "airline_credits";
      fake.creditAmountKnown = amountKnown;
      try {
        const refunded = await call(server, "POST", `/v1/air/orders/${order.id}/actions/refund`, { key: tenant.key });
        expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
      } finally {
        fake.refundTo = "balance";
        fake.creditAmountKnown = true;
      }
      await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
      return { order, held: duffelOrdersOf(fake, order.id)[0]! };
    };

    const { order, held } = await refundToCredits(true);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit", "refund_credit"])).toBe(0);
    const listed = await call(server, "GET", "/v1/airline_credits", { key: tenant.key });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    expect(listed.body.data.items).toEqual([
      expect.objectContaining({ order_id: order.id, passenger_id: "p1", airline_iata_code: "AA", amount: held.totalAmount, currency: held.totalCurrency, code: expect.any(String), expires_at: expect.any(String) }),
    ]);
    const credit = listed.body.data.items[0];
    expect(await server.db.prisma.orderEvent.count({ where: { orderId: order.id, type: "airline_credit.created" } })).toBe(1);
    const read = await graphql(server, `{ airlineCredits(first: 10) { totalCount nodes { id orderId passengerId airlineIataCode amount currency } } }`, {}, { key: tenant.key });
    expect(read.body.data.airlineCredits).toEqual({ totalCount: 1, nodes: [{ id: credit.id, orderId: order.id, passengerId: "p1", airlineIataCode: "AA", amount: held.totalAmount, currency: held.totalCurrency }] });

    const unknown = await refundToCredits(false);
    expect(await expectLedgerOf(server, tenant.key, unknown.order.id, ["ticketing_debit", "refund_credit"])).toBe(0);
    const [latest] = (await call(server, "GET", "/v1/airline_credits", { key: tenant.key })).body.data.items;
    expect(latest).toMatchObject({ order_id: unknown.order.id, amount: null, currency: null });
  });
});
