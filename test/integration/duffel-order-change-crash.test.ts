import { describe, expect, it } from "vitest";
import type { Endpoint } from "../helpers/client";
import { platformDuffelCrashSuite } from "../helpers/duffel-crash";
import { ticketedDuffelOrder } from "../helpers/duffel-gateway";
import { pollUntil, waitUntilHealthy } from "../helpers/main-process";
import { confirmChange, createChange, laterDate, requestChange } from "../helpers/order-changes";
import { allTransactions, getOrder, signedMinor, walletBalance } from "../helpers/orders";

/**
 * A Duffel order change whose confirmation dies on either side of our commit
 * (docs/duffel.md#order-changes), on a platform-account order (the wallet pays the change).
 * Killed before the commit, Duffel has made and been paid the change already (it cannot be taken
 * back), and nothing of ours changed; confirming again finds Duffel's change confirmed, pays it
 * no second time, and commits ours. Killed after the commit, the change stands whole, its
 * e-tickets are read again from Duffel, and a repeated confirmation moves nothing. SQLite, or
 * PostgreSQL under TEST_DATABASE_URL.
 */

describe("a Duffel order change confirmation across a SIGKILL", { timeout: 240_000 }, () => {
  const suite = platformDuffelCrashSuite();

  it("killed before and then after the commit: Duffel confirmed and paid once, the order changed once, the wallet debited the change total once", async () => {
    const { crash, fake, tenant } = suite;
    const first = crash.launch("before_change_commit");
    await waitUntilHealthy(first.running);
    const { order, atDuffel } = await ticketedDuffelOrder(first.api, tenant.key, fake);
    const requested = await requestChange(first.api, tenant.key, order, laterDate(order.slices[0].departure_date, 2));
    expect(requested.status, JSON.stringify(requested.body).slice(0, 300)).toBe(201);
    const [offer] = requested.body.data.order_change_offers;
    const change = (await createChange(first.api, tenant.key, offer.id)).body.data;
    const balanceBefore = (await walletBalance(first.api, tenant.key)).minor;
    const changeEntries = async (api: Endpoint) => (await allTransactions(api, tenant.key)).filter((entry) => entry.reference === change.id);
    const paidBefore = fake.confirmedChanges.length;

    expect(await crash.killAt(first.running, "before_change_commit", confirmChange(first.api, tenant.key, change))).toEqual({ orderId: order.id, orderChangeId: change.id });
    expect(fake.confirmedChanges.slice(paidBefore)).toHaveLength(1);

    const second = crash.launch("after_change_commit");
    await waitUntilHealthy(second.running);
    const unchanged = (await getOrder(second.api, tenant.key, order.id)).body.data;
    expect({ slices: unchanged.slices, total_amount: unchanged.total_amount }).toEqual({ slices: order.slices, total_amount: order.total_amount });
    expect(await changeEntries(second.api)).toEqual([]);
    expect((await walletBalance(second.api, tenant.key)).minor).toBe(balanceBefore);
    // Confirming again finds Duffel's change confirmed and commits ours; the process dies right after.
    expect(await crash.killAt(second.running, "after_change_commit", confirmChange(second.api, tenant.key, change))).toEqual({ orderId: order.id, orderChangeId: change.id });

    const { running, api } = crash.launch();
    await waitUntilHealthy(running);
    const changed = (await getOrder(api, tenant.key, order.id)).body.data;
    expect(changed.slices[0].departure_date).toBe(laterDate(order.slices[0].departure_date, 2));
    const changeTotal = signedMinor(offer.change_total_amount, offer.change_total_currency);
    expect((await changeEntries(api)).map((entry) => signedMinor(entry.amount, entry.currency))).toEqual([-changeTotal]);
    const wallet = await walletBalance(api, tenant.key);
    expect(wallet.minor).toBe(balanceBefore - changeTotal);
    expect((await allTransactions(api, tenant.key)).reduce((sum, entry) => sum + signedMinor(entry.amount, entry.currency), 0), "the ledger explains the balance").toBe(wallet.minor);
    await pollUntil(running, "the e-tickets read again from Duffel", async () => ((await getOrder(api, tenant.key, order.id)).body.data.documents.every((document: any) => document.unique_identifier.startsWith("126")) ? true : undefined), 30_000);

    const again = await confirmChange(api, tenant.key, change);
    expect(again.status).toBe(200);
    expect(await changeEntries(api)).toHaveLength(1);
    expect(fake.confirmedChanges.slice(paidBefore)).toHaveLength(1);
    expect(atDuffel!.reissues).toBe(1);
  });
});
