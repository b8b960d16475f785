import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock } from "../../src/clock";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { allTransactions, bookOffer, ticketOrder, waitForStatus } from "../helpers/orders";
import { creditWallet, getWallet, sumsByCurrency } from "../helpers/wallet";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Money past 32 bits, and the 2^53 ceiling: every amount column is 64-bit on
 * both providers, and an amount the product cannot hold exactly as a JavaScript number is refused
 * with 422 `amount_too_large` instead of being rounded.
 */

const DAY_MS = 24 * 60 * 60 * 1000;

describe("money range", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0" } });
  });
  afterAll(() => server.close());

  const setCurrency = async (tenant: TenantFixture, currency: string) => {
    const response = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { default_currency: currency } });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
  };

  it("searches, books and tickets 9 adults LHR → SYD in first class priced in NGN (totals past 2^32 minor units)", async () => {
    const tenant = await createTenant(server);
    await setCurrency(tenant, "NGN");
    const departure = new Date(clock.nowMs() + 40 * DAY_MS).toISOString().slice(0, 10);
    const search = await call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: {
        slices: [{ origin: "LHR", destination: "SYD", departure_date: departure }],
        passengers: Array.from({ length: 9 }, (_, index) => ({ type: "adult", id: `p${index + 1}` })),
        cabin_class: "first",
      },
    });
    expect(search.status, JSON.stringify(search.body).slice(0, 300)).toBe(200);
    const offers: any[] = search.body.data.offers;
    const offer = offers.reduce((a, b) => (toMinor(a.total_amount, "NGN") >= toMinor(b.total_amount, "NGN") ? a : b));
    expect(toMinor(offer.total_amount, "NGN")).toBeGreaterThan(2 ** 32);

    const read = await call(server, "GET", `/v1/air/offers/${offer.id}`, { key: tenant.key });
    expect(read.status).toBe(200);
    expect(read.body.data.total_amount).toBe(offer.total_amount);

    const order = await bookOffer(server, tenant.key, offer);
    expect(order.total_amount).toBe(offer.total_amount);
    const ticketed = await ticketOrder(server, tenant.key, order.id);
    expect(ticketed.status, JSON.stringify(ticketed.body)).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    const debit = (await allTransactions(server, tenant.key)).find((entry) => entry.type === "ticketing_debit");
    expect(debit.amount).toBe(`-${offer.total_amount}`);
  });

  it("refuses an owner credit that would take the balance past 2^53 − 1 minor units (422), and keeps the balance equal to the ledger", async () => {
    const tenant = await createTenant(server, { environment: "live" });
    await setCurrency(tenant, "BHD");
    expect((await creditWallet(server, tenant.tenantId, { amount: "9000000000000.000", currency: "BHD" })).status).toBe(201);

    // 9,000,000,000,000,000 + 7,199,254,740,992 = 2^53 fils: not exactly representable beyond it.
    const refused = await creditWallet(server, tenant.tenantId, { amount: "7199254740.992", currency: "BHD" });
    expectError(refused, 422, "amount_too_large", "amount");
    expect((await getWallet(server, tenant.key)).balance).toBe("9000000000000.000");

    const graphqlRefusal = await call(server, "POST", "/graphql", {
      key: server.ownerKey,
      body: {
        query: `mutation ($tenantId: ID!) { creditWallet(tenantId: $tenantId, amount: "7199254740.992", currency: "BHD") { wallet { balance } } }`,
        variables: { tenantId: tenant.tenantId },
      },
    });
    expect(graphqlRefusal.body.errors?.[0]?.extensions).toMatchObject({ code: "amount_too_large", statusCode: 422 });

    // Up to 2^53 − 1 is held, and exactly.
    expect((await creditWallet(server, tenant.tenantId, { amount: "7199254740.991", currency: "BHD" })).status).toBe(201);
    const wallet = await getWallet(server, tenant.key);
    expect(wallet.balance).toBe("9007199254740.991");
    expect(sumsByCurrency(await allTransactions(server, tenant.key))).toEqual({ BHD: Number.MAX_SAFE_INTEGER });
  });

  it("refuses to re-denominate a sandbox wallet past 2^53 − 1 minor units (422), changing nothing", async () => {
    const tenant = await createTenant(server);
    await creditWallet(server, tenant.tenantId, { amount: "9000000000000.00", currency: "USD" });
    const before = await getWallet(server, tenant.key);
    // 9.0001 × 10^14 cents at 15,800 rupiah per dollar is 1.4 × 10^19 sen.
    expectError(await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { default_currency: "IDR" } }), 422, "amount_too_large");
    expect(await getWallet(server, tenant.key)).toEqual(before);
    expect((await call(server, "GET", "/v1/tenant", { key: tenant.key })).body.data.default_currency).toBe("USD");
  });
});
