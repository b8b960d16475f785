import { describe, expect, it } from "vitest";
import type { PausePoint } from "../../src/test-pause";
import { call, createTenant, type Endpoint, type TenantFixture } from "../helpers/client";
import { crashHarness } from "../helpers/crash-harness";
import { pollUntil, waitUntilHealthy, type Launched } from "../helpers/main-process";
import { changeOffer, confirmChange, createChange, ticketedOrder } from "../helpers/order-changes";
import { allTransactions, getOrder, signedMinor, walletBalance } from "../helpers/orders";

/**
 * An order change's confirmation survives the process dying on either side of its commit
 * (docs/rest-api.md#order-changes): the real entry point runs as a child that stops each confirmation
 * there (AEROGATE_TEST_PAUSE_AT) and is SIGKILLed. Killed before the commit (the airline already
 * holding seats on the new flight), nothing changed once the seat reconciler has cancelled that
 * exchange: the order keeps its flight, its seats and the wallet; confirming again changes it
 * once. Killed after the commit (before the airline released the old flight and before the
 * reissue is due), the change stands whole once the reconciler has completed the exchange: the new
 * flight, its seats only, one ledger entry; the next process reissues the e-tickets, and a
 * repeated confirmation answers the confirmed change and moves nothing. SQLite, or PostgreSQL
 * under TEST_DATABASE_URL.
 */

/** Long enough that the reissue is not due before the kill; ticketing waits it too. */
const TICKETING_DELAY_MS = 3000;

describe("order change confirmations across a SIGKILL", { timeout: 240_000 }, () => {
  const crash = crashHarness({ TICKETING_DELAY_MS: String(TICKETING_DELAY_MS), JOB_LEASE_SECONDS: "2" });
  const { launch } = crash;
  let tenant: TenantFixture;
  let order: any;
  let offer: any;
  let change: any;
  let balanceBefore: number;

  /** Confirms the change through a process that pauses at `point`, and SIGKILLs it there. */
  async function confirmAndKillAt({ running, api }: Launched, point: PausePoint): Promise<void> {
    expect(await crash.killAt(running, point, confirmChange(api, tenant.key, change))).toEqual({ orderId: order.id, orderChangeId: change.id });
  }

  async function changeEntries(api: Endpoint): Promise<any[]> {
    return (await allTransactions(api, tenant.key)).filter((entry) => entry.reference === change.id);
  }

  it("killed just before a confirmation commits, a new process finds nothing changed", async () => {
    const first = launch("before_change_commit");
    await waitUntilHealthy(first.running);
    tenant = await createTenant(first.api, { environment: "sandbox" });
    order = await ticketedOrder(first.api, tenant.key);
    ({ offer } = await changeOffer(first.api, tenant.key, order));
    change = (await createChange(first.api, tenant.key, offer.id)).body.data;
    balanceBefore = (await walletBalance(first.api, tenant.key)).minor;
    await confirmAndKillAt(first, "before_change_commit");

    const second = launch("after_change_commit");
    await waitUntilHealthy(second.running);
    const unchanged = (await getOrder(second.api, tenant.key, order.id)).body.data;
    expect({ slices: unchanged.slices, total_amount: unchanged.total_amount, documents: unchanged.documents }).toEqual({ slices: order.slices, total_amount: order.total_amount, documents: order.documents });
    expect((await call(second.api, "GET", `/v1/air/order_changes/${change.id}`, { key: tenant.key })).body.data.confirmed_at).toBeNull();
    expect(await changeEntries(second.api)).toEqual([]);
    expect((await walletBalance(second.api, tenant.key)).minor).toBe(balanceBefore);
    await crash.expectSeatsHeld(second.running, order.id, order.slices);

    // Confirming again commits this time; the process is killed right after, before the reissue is due.
    await confirmAndKillAt(second, "after_change_commit");
  });

  it("killed just after the commit, the change stands whole: the new flight, its seats, the money moved once", async () => {
    const { running, api } = launch();
    await waitUntilHealthy(running);
    const changed = (await getOrder(api, tenant.key, order.id)).body.data;
    expect(changed.slices).toEqual(offer.slices.add);
    expect(changed.total_amount).toBe(offer.new_total_amount);
    await crash.expectSeatsHeld(running, order.id, offer.slices.add);
    const entries = await changeEntries(api);
    expect(entries.map((entry) => signedMinor(entry.amount, entry.currency))).toEqual([-signedMinor(offer.change_total_amount, offer.change_total_currency)]);
    const wallet = await walletBalance(api, tenant.key);
    expect(wallet.minor).toBe(balanceBefore - signedMinor(offer.change_total_amount, offer.change_total_currency));
    expect((await allTransactions(api, tenant.key)).reduce((sum, entry) => sum + signedMinor(entry.amount, entry.currency), 0), "the ledger explains the balance").toBe(wallet.minor);

    // The reissue job outlived the kill: this process reissues the e-tickets after the airline's delay.
    const oldTickets = new Set(order.documents.map((document: any) => document.unique_identifier));
    const documents = await pollUntil(running, "the e-tickets reissued", async () => {
      const read = (await getOrder(api, tenant.key, order.id)).body.data.documents;
      return read.length === order.documents.length && read.every((document: any) => !oldTickets.has(document.unique_identifier)) ? read : undefined;
    }, 30_000);
    expect(documents.map((document: any) => document.type)).toEqual(order.documents.map(() => "electronic_ticket"));

    const again = await confirmChange(api, tenant.key, change);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...change, confirmed_at: expect.any(String) });
    expect(await changeEntries(api)).toHaveLength(1);
    expect((await walletBalance(api, tenant.key)).minor).toBe(wallet.minor);
  });
});
