import { afterAll, beforeAll, describe, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { bookSeparateOrders, expectCreditHoldsUnderRace, type HeldOrder } from "../helpers/credit";
import { startTwoServers, type TwoServers } from "../helpers/two-servers";
import { credit } from "../helpers/wallet";

/**
 * Two server processes on one PostgreSQL database ticketing one tenant's orders at once against
 * one credit limit: the orders together cost more than balance + credit_limit, and the guarded
 * debit (src/wallet/wallet-change.ts) never lets the balance below −credit_limit, whichever
 * process takes each payment. Only meaningful on PostgreSQL: SQLite serves one process.
 */
describe("two processes paying against one credit limit", { timeout: 120_000 }, () => {
  let servers: TwoServers;
  let tenant: TenantFixture;
  let orders: HeldOrder[];

  beforeAll(async () => {
    // Ticketing jobs wait: the race is about the debits, not the airline's answers.
    servers = await startTwoServers({ TICKETING_DELAY_MS: "60000" });
    tenant = await createTenant(servers.a, { environment: "live" });
    const setCredit = (amount: string) => call(servers.a, "PATCH", `/v1/tenants/${tenant.tenantId}/wallet`, { key: servers.a.ownerKey, body: { credit_limit: amount } });
    await setCredit("100000.00");
    orders = await bookSeparateOrders(servers.a, tenant.key, 16);
    const quarter = (Math.floor(orders.reduce((sum, order) => sum + order.totalMinor, 0) / 4) / 100).toFixed(2);
    await setCredit(quarter);
    await credit(servers.a, tenant.tenantId, quarter);
  });
  afterAll(() => servers?.close());

  it("never takes the balance below −credit_limit, half the payments through each process", async () => {
    await expectCreditHoldsUnderRace(orders, tenant.key, (index) => (index % 2 === 0 ? servers.a : servers.b));
  });
});
