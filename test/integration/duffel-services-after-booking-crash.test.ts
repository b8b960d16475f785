import { describe, expect, it } from "vitest";
import { call } from "../helpers/client";
import { platformDuffelCrashSuite } from "../helpers/duffel-crash";
import { ticketedDuffelOrder } from "../helpers/duffel-gateway";
import { toMinor } from "../helpers/flight-checks";
import { pollUntil, waitUntilHealthy } from "../helpers/main-process";
import { allTransactions, getOrder, newKey, signedMinor, walletBalance } from "../helpers/orders";
import { credit } from "../helpers/wallet";

/**
 * Bags added to a ticketed Duffel order whose request dies after Duffel sold and was paid them,
 * before our commit (docs/duffel.md#seats-and-bags), on a platform-account order (the wallet pays
 * the bags). Duffel's payment cannot be taken back: after the restart the reconciler finds the
 * sale made at Duffel and commits the addition (rolls forward), once; Duffel is paid once, the
 * wallet debited once, and the bag can be added no second time. SQLite, or PostgreSQL under
 * TEST_DATABASE_URL.
 */

describe("bags added to a Duffel order across a SIGKILL", { timeout: 240_000 }, () => {
  const suite = platformDuffelCrashSuite((server, tenant) => credit(server, tenant.tenantId, "5000.00"));

  it("killed after Duffel was paid and before our commit: the addition is completed once after the restart, Duffel paid once, the wallet debited once", async () => {
    const { crash, fake, tenant } = suite;
    const first = crash.launch("after_supplier_service_sale");
    await waitUntilHealthy(first.running);
    const { order, atDuffel } = await ticketedDuffelOrder(first.api, tenant.key, fake);
    const [bag] = (await call(first.api, "GET", `/v1/air/orders/${order.id}/available_services`, { key: tenant.key })).body.data;
    const before = (await walletBalance(first.api, tenant.key)).minor;
    const servicesEntries = async (api: Parameters<typeof allTransactions>[0]) => (await allTransactions(api, tenant.key)).filter((entry) => entry.order_id === order.id && entry.type === "services_debit");
    const adding = call(first.api, "POST", `/v1/air/orders/${order.id}/services`, { key: tenant.key, headers: { "idempotency-key": newKey("services") }, body: { add_services: [{ id: bag.id, quantity: 1 }] } });

    const paused = await crash.killAt(first.running, "after_supplier_service_sale", adding);
    expect(paused).toEqual({ orderId: order.id, additionId: expect.stringMatching(/^osa_/) });
    expect(fake.servicePayments.filter((payment) => payment.orderId === atDuffel.id)).toHaveLength(1);

    const { running, api } = crash.launch();
    await waitUntilHealthy(running);
    const completed = await pollUntil(running, "the addition completed by the reconciler", async () => {
      const current = (await getOrder(api, tenant.key, order.id)).body.data;
      return current.services.length > 0 ? current : undefined;
    }, 30_000);
    expect(completed.services).toEqual([expect.objectContaining({ id: bag.id, type: "baggage", quantity: 1 })]);
    const price = toMinor(bag.total_amount, bag.total_currency);
    expect(toMinor(completed.total_amount, completed.total_currency)).toBe(toMinor(order.total_amount, order.total_currency) + price);
    expect((await servicesEntries(api)).map((entry) => signedMinor(entry.amount, entry.currency))).toEqual([-price]);
    const wallet = await walletBalance(api, tenant.key);
    expect(wallet.minor).toBe(before - price);
    expect((await allTransactions(api, tenant.key)).reduce((sum, entry) => sum + signedMinor(entry.amount, entry.currency), 0), "the ledger explains the balance").toBe(wallet.minor);
    expect(fake.servicePayments.filter((payment) => payment.orderId === atDuffel.id)).toHaveLength(1);
    expect(atDuffel.services.reduce((sum, service) => sum + service.quantity, 0)).toBe(1);

    // The order and Duffel agree: one more bag can be added, once, and is paid once more.
    const again = await call(api, "POST", `/v1/air/orders/${order.id}/services`, { key: tenant.key, headers: { "idempotency-key": newKey("services") }, body: { add_services: [{ id: bag.id, quantity: 1 }] } });
    expect(again.status, JSON.stringify(again.body).slice(0, 300)).toBe(201);
    expect(fake.servicePayments.filter((payment) => payment.orderId === atDuffel.id)).toHaveLength(2);
    expect(await servicesEntries(api)).toHaveLength(2);
    // One process at a time serves the database.
    await crash.kill(running);
  });
  it("a sale Duffel never made (its call failed) is dropped once its lease is over: the next addition waits for it, then goes through, Duffel paid once", async () => {
    const { crash, fake, tenant } = suite;
    const { running, api } = crash.launch();
    await waitUntilHealthy(running);
    const { order, atDuffel } = await ticketedDuffelOrder(api, tenant.key, fake);
    const [bag] = (await call(api, "GET", `/v1/air/orders/${order.id}/available_services`, { key: tenant.key })).body.data;
    const add = () => call(api, "POST", `/v1/air/orders/${order.id}/services`, { key: tenant.key, headers: { "idempotency-key": newKey("services") }, body: { add_services: [{ id: bag.id, quantity: 1 }] } });
    // Every attempt of the call fails at Duffel (the pipeline tries it again: a sale is safe to repeat).
    fake.failNext(100, 500, `POST /air/orders/${atDuffel.id}/services`);

    const failed = await add();
    expect(failed.status, JSON.stringify(failed.body).slice(0, 300)).toBe(502);
    fake.failNext(0);
    expect(fake.servicePayments.filter((payment) => payment.orderId === atDuffel.id)).toEqual([]);
    expect((await getOrder(api, tenant.key, order.id)).body.data.services).toEqual([]);

    const added = await add();
    expect(added.status, JSON.stringify(added.body).slice(0, 300)).toBe(201);
    expect(added.body.data.services).toEqual([expect.objectContaining({ id: bag.id, quantity: 1 })]);
    expect(fake.servicePayments.filter((payment) => payment.orderId === atDuffel.id)).toHaveLength(1);
    expect((await allTransactions(api, tenant.key)).filter((entry) => entry.order_id === order.id && entry.type === "services_debit")).toHaveLength(1);
  });
});
