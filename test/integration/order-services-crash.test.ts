import { describe, expect, it } from "vitest";
import { call, createTenant, type Endpoint, type TenantFixture } from "../helpers/client";
import { crashHarness } from "../helpers/crash-harness";
import { toMinor } from "../helpers/flight-checks";
import { pollUntil, waitUntilHealthy } from "../helpers/main-process";
import { allTransactions, bookOffer, getOrder, newKey, searchForBooking, signedMinor, ticketOrder, walletBalance } from "../helpers/orders";
import { waitForPause } from "../helpers/seat-accounting";
import { seatForSale, seatMaps } from "../helpers/seat-maps";
import { openingMinor } from "../helpers/ticketing";

/**
 * Services paid on a ticketed order survive the process dying (SIGKILL, no shutdown) in both
 * crash windows: after the addition committed (the debit and the EMD job)
 * before its answer and its job's run, and inside the EMD job, after the airline issued the EMDs
 * and before they were written. The real entry point runs as a child with AEROGATE_TEST_PAUSE_AT
 * (test only); a new process on the same database then issues each EMD once, and the wallet
 * moved once: the ticket, the services' debit, nothing else. SQLite, or PostgreSQL under
 * TEST_DATABASE_URL (where the killed job's lease, JOB_LEASE_SECONDS, runs out first).
 */

const EMD = "electronic_miscellaneous_document";

describe("services after booking across a SIGKILL", { timeout: 180_000 }, () => {
  const { launch, kill, killAt } = crashHarness({ TICKETING_DELAY_MS: "500", JOB_LEASE_SECONDS: "2" });
  let tenant: TenantFixture;
  let order: any;
  /** What the services cost, in minor units, and how many were added. */
  let servicesMinor: number;
  let servicesAdded: number;

  async function orderNow(api: Endpoint): Promise<any> {
    const read = await getOrder(api, tenant.key, order.id);
    expect(read.status).toBe(200);
    return read.body.data;
  }

  it("is killed after an addition to a ticketed order committed, before its answer", async () => {
    const { running, api } = launch("after_services_commit");
    await waitUntilHealthy(running);
    tenant = await createTenant(api, { environment: "sandbox" });
    const offer = (await searchForBooking(api, tenant.key))[0];
    order = await bookOffer(api, tenant.key, offer);
    expect((await ticketOrder(api, tenant.key, order.id)).status).toBe(200);
    order = await pollUntil(running, "the order ticketed", async () => {
      const read = await orderNow(api);
      return read.status === "confirmed" ? read : undefined;
    });

    const bags = (await call(api, "GET", `/v1/air/orders/${order.id}/available_services`, { key: tenant.key })).body.data.filter((service: any) => service.type === "baggage");
    const seats = (await seatMaps(api, tenant.key, `order_id=${order.id}`)).map((map) => seatForSale(map).service);
    const services = [...bags.map((bag: any) => ({ id: bag.id, quantity: 1, price: bag })), ...seats.map((seat) => ({ id: seat.id, quantity: 1, price: seat }))];
    servicesAdded = services.length;
    servicesMinor = services.reduce((sum, service) => sum + toMinor(service.price.total_amount, service.price.total_currency), 0);
    const adding = call(api, "POST", `/v1/air/orders/${order.id}/services`, {
      key: tenant.key,
      headers: { "idempotency-key": newKey("services") },
      body: { add_services: services.map(({ id, quantity }) => ({ id, quantity })) },
    });
    await killAt(running, "after_services_commit", adding);
  });

  it("the next process's EMD job is killed after the airline issued the EMDs, before they were written", async () => {
    const { running, api } = launch("after_emd_issue");
    await waitUntilHealthy(running);
    const paused = await waitForPause(running, "after_emd_issue");
    expect(paused.orderId).toBe(order.id);
    // Paid once, and nothing issued yet.
    const read = await orderNow(api);
    expect(read.documents.filter((document: any) => document.type === EMD)).toEqual([]);
    expect(read.services).toHaveLength(servicesAdded);
    await kill(running);
  });

  it("a third process issues each EMD once, and the wallet moved once for the ticket and once for the services", async () => {
    const { running, api } = launch();
    await waitUntilHealthy(running);
    const read = await pollUntil(running, "the EMDs issued", async () => {
      const now = await orderNow(api);
      return now.documents.some((document: any) => document.type === EMD) ? now : undefined;
    });
    const emds = read.documents.filter((document: any) => document.type === EMD);
    expect(emds).toHaveLength(servicesAdded);
    expect(new Set(emds.map((document: any) => document.unique_identifier)).size).toBe(servicesAdded);
    expect(read.documents.filter((document: any) => document.type === "electronic_ticket")).toHaveLength(order.passengers.length);
    expect(toMinor(read.total_amount, read.total_currency)).toBe(toMinor(order.total_amount, order.total_currency) + servicesMinor);

    const entries = await allTransactions(api, tenant.key);
    expect(entries.map((entry) => [entry.type, signedMinor(entry.amount, entry.currency)]).sort()).toEqual(
      [
        ["opening_balance", openingMinor(order.total_currency)],
        ["services_debit", -servicesMinor],
        ["ticketing_debit", -toMinor(order.total_amount, order.total_currency)],
      ].sort(),
    );
    const wallet = await walletBalance(api, tenant.key);
    expect(wallet.minor).toBe(entries.reduce((sum, entry) => sum + signedMinor(entry.amount, entry.currency), 0));
  });
});
