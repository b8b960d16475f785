import { describe, expect, it } from "vitest";
import { call, createTenant, type Endpoint, type TenantFixture } from "../helpers/client";
import { crashHarness, inFlight } from "../helpers/crash-harness";
import { toMinor } from "../helpers/flight-checks";
import { pollUntil, waitUntilHealthy } from "../helpers/main-process";
import { ticketedOrderWithRefunds } from "../helpers/cancellations";
import { allTransactions, getOrder, signedMinor, walletBalance } from "../helpers/orders";
import { waitForPause } from "../helpers/seat-accounting";

/**
 * A refund survives the process dying between its commit and its job (docs/rest-api.md#cancellations-with-a-quote):
 * the real entry point runs as a child that stops every refund after its commit
 * (AEROGATE_TEST_PAUSE_AT=after_refund_commit), one through a confirmed cancellation quote and
 * one through the refund action; it is SIGKILLed there, before the airline's delay is over. A new
 * process on the same database runs the refund jobs: both orders end REFUNDED, each credited once
 * with what was quoted, and a repeated confirmation answers the quote as confirmed.
 * SQLite, or PostgreSQL under TEST_DATABASE_URL.
 */

/** Long enough that no refund job is due before the kill; ticketing waits it too. */
const TICKETING_DELAY_MS = 3000;

describe("refunds across a SIGKILL after their commit", { timeout: 180_000 }, () => {
  const { launch, kill } = crashHarness({ TICKETING_DELAY_MS: String(TICKETING_DELAY_MS), JOB_LEASE_SECONDS: "2" });
  let tenant: TenantFixture;
  let restarted: Endpoint;
  /** The order cancelled through a quote, and the quote. */
  let quoted: { order: any; quote: any };
  /** The order refunded by the refund action, and what a quote said it would get. */
  let refunded: { order: any; amount: string };
  let balanceBeforeRefunds: number;

  it("confirms a quote and refunds another order, and is killed after both commits, before their jobs run", async () => {
    const { running, api } = launch("after_refund_commit");
    await waitUntilHealthy(running);
    tenant = await createTenant(api, { environment: "sandbox" });
    const [first, second] = [(await ticketedOrderWithRefunds(api, tenant.key, true)).order, (await ticketedOrderWithRefunds(api, tenant.key, true)).order];

    const made = await call(api, "POST", "/v1/air/order_cancellations", { key: tenant.key, body: { order_id: first.id } });
    expect(made.status).toBe(201);
    quoted = { order: first, quote: made.body.data };
    const secondQuote = await call(api, "POST", "/v1/air/order_cancellations", { key: tenant.key, body: { order_id: second.id } });
    refunded = { order: second, amount: secondQuote.body.data.refund_amount };
    balanceBeforeRefunds = (await walletBalance(api, tenant.key)).minor;

    const confirmation = inFlight(call(api, "POST", `/v1/air/order_cancellations/${quoted.quote.id}/actions/confirm`, { key: tenant.key }));
    expect(await waitForPause(running, "after_refund_commit", 1)).toEqual({ orderId: first.id });
    const refund = inFlight(call(api, "POST", `/v1/air/orders/${second.id}/actions/refund`, { key: tenant.key }));
    expect(await waitForPause(running, "after_refund_commit", 2)).toEqual({ orderId: second.id });

    // Both committed, neither refunded yet: the orders wait for the airline, the wallet is as it was.
    for (const order of [first, second]) expect((await getOrder(api, tenant.key, order.id)).body.data.refund_status, order.id).toBe("in_progress");
    expect((await walletBalance(api, tenant.key)).minor).toBe(balanceBeforeRefunds);
    await kill(running, confirmation, refund);
  });

  it("a new process refunds both orders once: the quoted amounts credited, nothing more", async () => {
    const { running, api } = launch();
    await waitUntilHealthy(running);
    restarted = api;
    for (const order of [quoted.order, refunded.order]) {
      await pollUntil(running, `order ${order.id} refunded`, async () => ((await getOrder(api, tenant.key, order.id)).body.order.status === "REFUNDED" ? true : undefined), 30_000);
    }
    const entries = await allTransactions(api, tenant.key);
    const credits = entries.filter((entry) => entry.type === "refund_credit").map((entry) => [entry.order_id, entry.amount]);
    expect(credits.sort()).toEqual([[quoted.order.id, quoted.quote.refund_amount], [refunded.order.id, refunded.amount]].sort());
    const credited = toMinor(quoted.quote.refund_amount, quoted.quote.refund_currency) + toMinor(refunded.amount, quoted.quote.refund_currency);
    const wallet = await walletBalance(api, tenant.key);
    expect(wallet.minor).toBe(balanceBeforeRefunds + credited);
    expect(entries.reduce((sum, entry) => sum + signedMinor(entry.amount, entry.currency), 0)).toBe(wallet.minor);
  });

  it("a repeated confirmation answers the quote as confirmed, and credits nothing more", async () => {
    const before = await walletBalance(restarted, tenant.key);
    const again = await call(restarted, "POST", `/v1/air/order_cancellations/${quoted.quote.id}/actions/confirm`, { key: tenant.key });
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual({ ...quoted.quote, confirmed_at: expect.any(String) });
    expect((await allTransactions(restarted, tenant.key)).filter((entry) => entry.type === "refund_credit")).toHaveLength(2);
    expect((await walletBalance(restarted, tenant.key)).minor).toBe(before.minor);
  });
});
