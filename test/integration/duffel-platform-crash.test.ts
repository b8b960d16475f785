import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type Endpoint, type TenantFixture } from "../helpers/client";
import { crashHarness } from "../helpers/crash-harness";
import { fakeToken, secretsKey } from "../helpers/duffel";
import { startDuffelFake, type DuffelFake } from "../helpers/duffel-fake";
import { duffelOffer, duffelOrdersOf, WITH_DUFFEL } from "../helpers/duffel-gateway";
import { toMinor } from "../helpers/flight-checks";
import { waitUntilHealthy } from "../helpers/main-process";
import { allTransactions, bookOffer, signedMinor, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import { waitForPause } from "../helpers/seat-accounting";
import { startTestServer } from "../helpers/test-server";

/**
 * A Duffel order of the owner's platform account (`wallet`-settled, docs/duffel.md#the-owners-platform-account)
 * whose ticketing, then refund, is killed after Duffel answered and before our commit: the
 * restarted servers pay Duffel once (from the platform's account) and the wallet moves by the
 * order's total once each way. SQLite, or PostgreSQL under TEST_DATABASE_URL.
 */

const env: Record<string, string> = { SUPPLIER_SECRETS_KEY: secretsKey(), DUFFEL_TIMEOUT_MS: "2000", JOB_LEASE_SECONDS: "2", TICKETING_DELAY_MS: "0" };

describe("a platform-account order's money across a SIGKILL after Duffel answered", { timeout: 180_000 }, () => {
  const harness = crashHarness(env);
  let fake: DuffelFake;
  let tenant: TenantFixture;
  let platformToken: string;

  beforeAll(async () => {
    fake = await startDuffelFake();
    env.DUFFEL_API_URL = fake.url;
    const setup = await startTestServer({ database: harness.database, env });
    try {
      platformToken = fakeToken(fake);
      expect((await call(setup, "POST", "/v1/platform_accounts", { key: setup.ownerKey, body: { supplier: "duffel", access_token: platformToken } })).status).toBe(201);
      tenant = await createTenant(setup);
      expect((await call(setup, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: WITH_DUFFEL } })).status).toBe(200);
      expect((await call(setup, "PATCH", `/v1/tenants/${tenant.tenantId}`, { key: setup.ownerKey, body: { platform_accounts: ["duffel"] } })).status).toBe(200);
    } finally {
      await setup.close();
    }
  });
  afterAll(async () => {
    await fake?.close();
  });

  it("ticketing and refund each killed after Duffel answered: Duffel paid once by the platform, the wallet debited the total once and credited it back once", async () => {
    const ticketing = harness.launch("after_airline_ticketing");
    await waitUntilHealthy(ticketing.running);
    const order = await bookOffer(ticketing.api, tenant.key, await duffelOffer(ticketing.api, tenant.key, "AA"));
    expect(order.settlement).toBe("wallet");
    const total = toMinor(order.total_amount, order.total_currency);
    const before = (await walletBalance(ticketing.api, tenant.key)).minor;
    const [held] = duffelOrdersOf(fake, order.id);
    const payments = () => fake.requests.filter((request) => request.method === "POST" && request.path === "/air/payments" && (request.body as any)?.data?.order_id === held!.id).map((request) => request.authorization);
    const walletEntries = async (server: Endpoint) => (await allTransactions(server, tenant.key)).filter((entry) => entry.order_id === order.id).map((entry) => [entry.type, signedMinor(entry.amount, entry.currency)]);

    expect((await ticketOrder(ticketing.api, tenant.key, order.id)).status).toBe(200);
    expect(await waitForPause(ticketing.running, "after_airline_ticketing")).toEqual({ orderId: order.id });
    await harness.kill(ticketing.running);
    expect(held!.paid).toBe(true);

    let current = harness.launch("after_airline_refund");
    await waitUntilHealthy(current.running);
    await waitForStatus(current.api, tenant.key, order.id, ["TICKETED"], 30_000);
    expect(payments()).toEqual([`Bearer ${platformToken}`]);
    expect(await walletEntries(current.api)).toEqual([["ticketing_debit", -total]]);
    expect((await walletBalance(current.api, tenant.key)).minor).toBe(before - total);
    const refund = await call(current.api, "POST", `/v1/air/orders/${order.id}/actions/refund`, { key: tenant.key });
    expect(refund.status, JSON.stringify(refund.body)).toBe(200);
    expect(await waitForPause(current.running, "after_airline_refund")).toEqual({ orderId: order.id });
    await harness.kill(current.running);
    expect(held!.cancelled).toBe(true);

    current = harness.launch();
    await waitUntilHealthy(current.running);
    await waitForStatus(current.api, tenant.key, order.id, ["REFUNDED"], 30_000);
    expect((await walletEntries(current.api)).sort()).toEqual([["refund_credit", total], ["ticketing_debit", -total]].sort());
    expect((await walletBalance(current.api, tenant.key)).minor).toBe(before);
    expect(payments()).toHaveLength(1);
  });
});
