import { afterAll, beforeAll, expect } from "vitest";
import { call, type Endpoint, type TenantFixture } from "./client";
import { crashHarness, type CrashHarness } from "./crash-harness";
import { secretsKey } from "./duffel";
import { startDuffelFake, type DuffelFake } from "./duffel-fake";
import { duffelOffer, duffelOrdersOf, platformDuffelTenant } from "./duffel-gateway";
import { waitUntilHealthy, type Launched } from "./main-process";
import { allTransactions, bookOffer, signedMinor, ticketOrder, waitForStatus, walletBalance } from "./orders";
import { waitForPause } from "./seat-accounting";
import { startTestServer, type TestServer } from "./test-server";

/**
 * A crash suite's Duffel side, set up in its hooks: the fake, a crash harness whose processes
 * call it (a lease of 2 s, ticketing at once), and a tenant granted the owner's platform Duffel
 * account (its orders `wallet`-settled), made by a server of its own on the harness's database
 * (`prepare` runs there too). Read `fake` and `tenant` inside tests.
 */
export function platformDuffelCrashSuite(prepare: (server: TestServer, tenant: TenantFixture) => Promise<void> = async () => undefined) {
  const env: Record<string, string> = { SUPPLIER_SECRETS_KEY: secretsKey(), DUFFEL_TIMEOUT_MS: "2000", JOB_LEASE_SECONDS: "2", TICKETING_DELAY_MS: "0" };
  const suite = { crash: crashHarness(env), fake: undefined as unknown as DuffelFake, tenant: undefined as unknown as TenantFixture };
  beforeAll(async () => {
    suite.fake = await startDuffelFake();
    env.DUFFEL_API_URL = suite.fake.url;
    const setup = await startTestServer({ database: suite.crash.database, env });
    try {
      ({ tenant: suite.tenant } = await platformDuffelTenant(setup, suite.fake));
      await prepare(setup, suite.tenant);
    } finally {
      await setup.close();
    }
  });
  afterAll(async () => {
    await suite.fake?.close();
  });
  return suite;
}

/**
 * A Duffel order (a holdable `AA` offer) whose ticketing is killed after Duffel was paid, then
 * whose refund is killed after Duffel refunded, each on a process of its own; the next process
 * finishes both. Along the way: Duffel paid once, and the order's ledger entries exactly one
 * `ticketing_debit` of `moved(order).debit` and then one `refund_credit` of `moved(order).credit`,
 * the balance agreeing. `prepare` runs on the first process before the booking (a pricing rule).
 * Answers the order and the Authorization header of each payment Duffel received for it.
 */
export async function ticketAndRefundAcrossKills(
  harness: CrashHarness,
  fake: DuffelFake,
  tenantKey: string,
  moved: (order: any) => { debit: number; credit: number },
  prepare: (api: Launched["api"]) => Promise<void> = async () => undefined,
): Promise<{ order: any; payments: Array<string | undefined> }> {
  const ticketing = harness.launch("after_airline_ticketing");
  await waitUntilHealthy(ticketing.running);
  await prepare(ticketing.api);
  const order = await bookOffer(ticketing.api, tenantKey, await duffelOffer(ticketing.api, tenantKey, "AA"));
  const { debit, credit } = moved(order);
  const before = (await walletBalance(ticketing.api, tenantKey)).minor;
  const [held] = duffelOrdersOf(fake, order.id);
  const payments = () => fake.requests.filter((request) => request.method === "POST" && request.path === "/air/payments" && (request.body as any)?.data?.order_id === held!.id).map((request) => request.authorization);
  const walletEntries = async (server: Endpoint) => (await allTransactions(server, tenantKey)).filter((entry) => entry.order_id === order.id).map((entry) => [entry.type, signedMinor(entry.amount, entry.currency)]);

  expect((await ticketOrder(ticketing.api, tenantKey, order.id)).status).toBe(200);
  expect(await waitForPause(ticketing.running, "after_airline_ticketing")).toEqual({ orderId: order.id });
  await harness.kill(ticketing.running);
  expect(held!.paid).toBe(true);

  let current = harness.launch("after_airline_refund");
  await waitUntilHealthy(current.running);
  await waitForStatus(current.api, tenantKey, order.id, ["TICKETED"], 30_000);
  expect(payments()).toHaveLength(1);
  expect(await walletEntries(current.api)).toEqual([["ticketing_debit", -debit]]);
  expect((await walletBalance(current.api, tenantKey)).minor).toBe(before - debit);
  const refund = await call(current.api, "POST", `/v1/air/orders/${order.id}/actions/refund`, { key: tenantKey });
  expect(refund.status, JSON.stringify(refund.body)).toBe(200);
  expect(await waitForPause(current.running, "after_airline_refund")).toEqual({ orderId: order.id });
  await harness.kill(current.running);
  expect(held!.cancelled).toBe(true);

  current = harness.launch();
  await waitUntilHealthy(current.running);
  await waitForStatus(current.api, tenantKey, order.id, ["REFUNDED"], 30_000);
  expect((await walletEntries(current.api)).sort()).toEqual([["refund_credit", credit], ["ticketing_debit", -debit]].sort());
  expect((await walletBalance(current.api, tenantKey)).minor).toBe(before - debit + credit);
  expect(payments()).toHaveLength(1);
  return { order, payments: payments() };
}
