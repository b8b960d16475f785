import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant } from "../helpers/client";
import { toMinor } from "../helpers/flight-checks";
import { allTransactions, bookOffer, searchForBooking, signedMinor, ticketOrder, waitForStatus } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * A pricing rule changed while searches run (docs/running-the-platform.md#fees): every search is
 * priced with the rule as it was when the search began, whole — never a mixture of two versions —
 * so each offer carries exactly one version's fee; and booking and ticketing an offer priced with
 * a version since replaced debits exactly that offer's total, its fee ledgered with it.
 */

const PERCENT = { percent: "10" };
const FIXED = { fixed_amount: "7.00", fixed_currency: "USD" };

describe("a pricing rule changed while searches run", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0" } });
  });
  afterAll(() => server.close());

  it("prices each search with one version of the rule, and each order debits exactly its offer's total", async () => {
    const tenant = await createTenant(server);
    const created = await call(server, "POST", "/v1/pricing_rules", { key: server.ownerKey, body: { tenant_id: tenant.tenantId, name: "Racing", fee: PERCENT } });
    expect(created.status).toBe(201);
    const ruleId = created.body.data.id as string;

    /** Which version an offer's fee is: 10 % of its total before the fee, or 7.00; anything else fails. */
    const versionOf = (offer: any) => {
      const fee = toMinor(offer.fee_amount, "USD");
      const total = toMinor(offer.total_amount, "USD");
      expect(toMinor(offer.base_amount, "USD") + toMinor(offer.tax_amount, "USD") + fee, offer.id).toBe(total);
      if (fee === 700) return "fixed";
      expect(fee, `${offer.id}: neither 7.00 nor 10 % of ${total - fee}`).toBe(Math.round((total - fee) / 10));
      return "percent";
    };

    let flips = 0;
    let searching = true;
    const changer = (async () => {
      while (searching) {
        flips++;
        const patched = await call(server, "PATCH", `/v1/pricing_rules/${ruleId}`, { key: server.ownerKey, body: { fee: flips % 2 === 1 ? FIXED : PERCENT } });
        expect(patched.status).toBe(200);
      }
    })();
    const searches = await Promise.all(Array.from({ length: 16 }, (_, i) => searchForBooking(server, tenant.key, { days: 100 + (i % 8), reuseFlights: true })));
    searching = false;
    await changer;
    expect(flips).toBeGreaterThan(1);

    for (const offers of searches) expect(new Set(offers.map(versionOf)).size, "every offer of one search priced with the same version").toBe(1);
    // A search after the last change prices with the version it left.
    const last = flips % 2 === 1 ? "fixed" : "percent";
    expect(new Set((await searchForBooking(server, tenant.key, { days: 120, reuseFlights: true })).map(versionOf))).toEqual(new Set([last]));

    // Book one offer of each of four searches while the rule changes again, and pay them.
    const booked = searches.slice(0, 4).map((offers, i) => offers[i]!);
    const [orders] = await Promise.all([
      Promise.all(booked.map((offer) => bookOffer(server, tenant.key, offer))),
      call(server, "PATCH", `/v1/pricing_rules/${ruleId}`, { key: server.ownerKey, body: { fee: { percent: "50" } } }),
    ]);
    orders.forEach((order, i) => expect(order).toMatchObject({ total_amount: booked[i].total_amount, fee_amount: booked[i].fee_amount }));
    await Promise.all(orders.map(async (order) => expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200)));
    await Promise.all(orders.map((order) => waitForStatus(server, tenant.key, order.id, ["TICKETED"])));
    const entries = await allTransactions(server, tenant.key);
    orders.forEach((order, i) => {
      const debit = entries.find((entry) => entry.order_id === order.id && entry.type === "ticketing_debit");
      expect(signedMinor(debit.amount, "USD"), order.id).toBe(-toMinor(booked[i].total_amount, "USD"));
      expect(debit.fee_amount).toBe(booked[i].fee_amount);
    });
  });
});
