import { describe, expect, it } from "vitest";
import { call, createTenant, type Endpoint, type TenantFixture } from "../helpers/client";
import { ticketedOrderWithRefunds } from "../helpers/cancellations";
import { crashHarness } from "../helpers/crash-harness";
import { toMinor } from "../helpers/flight-checks";
import { pollUntil, waitUntilHealthy } from "../helpers/main-process";
import { changeOffer, confirmChange, createChange } from "../helpers/order-changes";
import { allTransactions, bookOffer, getOrder, newKey, searchForBooking, signedMinor, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import { seatAccount, waitForPause } from "../helpers/seat-accounting";
import { seatForSale, seatMaps } from "../helpers/seat-maps";

/**
 * Each airline call that changes the airline's state survives the process dying between the
 * airline's answer and our commit (docs/supplier-contract.md): a seat sale after booking, a
 * ticketing, a refund and a reissue. The real entry point runs as a child that stops there
 * (AEROGATE_TEST_PAUSE_AT) and is SIGKILLed; the next process on the same database settles what
 * it left. After every restart the airline and the orders agree (every seat held or sold is on a
 * committed order that owns it, the rest back on sale) and the wallet moved once per operation.
 * (Holds and releases: seat-crash.test.ts; EMDs: order-services-crash.test.ts; changes and
 * acceptances: order-change-crash.test.ts, airline-change-crash.test.ts.) SQLite, or PostgreSQL
 * under TEST_DATABASE_URL (where a killed request's intent, or job, waits out its lease).
 */

describe("airline answers across a SIGKILL before our commit", { timeout: 300_000 }, () => {
  const crash = crashHarness({ TICKETING_DELAY_MS: "300", JOB_LEASE_SECONDS: "2" });
  const { launch, kill, killAt } = crash;
  let tenant: TenantFixture;
  /** A ticketed order of a refundable fare: its seat sale is cut short, then it is refunded. */
  let refundable: any;
  /** The seat whose sale to `refundable` was cut short. */
  let seat: { designator: string; service: any };
  /** An order whose ticketing is cut short, then changed. */
  let changing: any;
  let changeMade: { offer: any; change: any };

  async function entriesOf(api: Endpoint, orderId: string, type: string): Promise<number[]> {
    return (await allTransactions(api, tenant.key)).filter((entry) => entry.order_id === orderId && entry.type === type).map((entry) => signedMinor(entry.amount, entry.currency));
  }

  async function orderNow(api: Endpoint, orderId: string): Promise<any> {
    const read = await getOrder(api, tenant.key, orderId);
    expect(read.status).toBe(200);
    return read.body.data;
  }

  it("killed between the airline's sale of a seat and the addition's commit", async () => {
    const { running, api } = launch("after_supplier_seat_sale");
    await waitUntilHealthy(running);
    tenant = await createTenant(api, { environment: "sandbox" });
    ({ order: refundable } = await ticketedOrderWithRefunds(api, tenant.key, true));
    const [map] = await seatMaps(api, tenant.key, `order_id=${refundable.id}`);
    seat = seatForSale(map);
    const adding = call(api, "POST", `/v1/air/orders/${refundable.id}/services`, {
      key: tenant.key,
      headers: { "idempotency-key": newKey("seat") },
      body: { add_services: [{ id: seat.service.id, quantity: 1 }] },
    });
    const paused = await killAt(running, "after_supplier_seat_sale", adding);
    expect(paused.orderId).toBe(refundable.id);
    // The airline sold the seat; the order does not have it: the sale's intent is open.
    const left = await seatAccount(crash.database.url);
    expect(left.assigned.get(refundable.id)).toBe(1);
    expect(left.intents.get(paused.additionId!)).toEqual({ kind: "sale", orderId: refundable.id });
  });

  it("the next process gives the seat back; adding it again sells it and debits once. Its ticketing is killed after the airline's answer", async () => {
    const { running, api } = launch("after_airline_ticketing");
    await waitUntilHealthy(running);
    await crash.expectSeatsHeld(running, refundable.id, refundable.slices);
    const unchanged = await orderNow(api, refundable.id);
    expect({ services: unchanged.services, total_amount: unchanged.total_amount }).toEqual({ services: refundable.services, total_amount: refundable.total_amount });
    expect(await entriesOf(api, refundable.id, "services_debit")).toEqual([]);

    const again = await call(api, "POST", `/v1/air/orders/${refundable.id}/services`, {
      key: tenant.key,
      headers: { "idempotency-key": newKey("seat") },
      body: { add_services: [{ id: seat.service.id, quantity: 1 }] },
    });
    expect(again.status, JSON.stringify(again.body).slice(0, 300)).toBe(201);
    const price = toMinor(seat.service.total_amount, seat.service.total_currency);
    expect(await entriesOf(api, refundable.id, "services_debit")).toEqual(price === 0 ? [] : [-price]);
    refundable = await orderNow(api, refundable.id);

    const [offer] = await searchForBooking(api, tenant.key);
    changing = await bookOffer(api, tenant.key, offer);
    expect((await ticketOrder(api, tenant.key, changing.id)).status).toBe(200);
    expect(await waitForPause(running, "after_airline_ticketing")).toEqual({ orderId: changing.id });
    await kill(running);
  });

  it("the next process tickets the order once. A refund is killed after the airline refunded, before our commit", async () => {
    const { running, api } = launch("after_airline_refund");
    await waitUntilHealthy(running);
    changing = (await waitForStatus(api, tenant.key, changing.id, ["TICKETED"], 30_000)).body.data;
    expect(changing.documents.filter((document: any) => document.type === "electronic_ticket")).toHaveLength(changing.passengers.length);
    expect(await entriesOf(api, changing.id, "ticketing_debit")).toEqual([-toMinor(changing.total_amount, changing.total_currency)]);
    await crash.expectSeatsHeld(running, changing.id, changing.slices);

    const refund = call(api, "POST", `/v1/air/orders/${refundable.id}/actions/refund`, { key: tenant.key });
    expect((await refund).status).toBe(200);
    expect(await waitForPause(running, "after_airline_refund")).toEqual({ orderId: refundable.id });
    // The airline has the seats back; the order is still being refunded, nothing credited.
    expect((await seatAccount(crash.database.url)).held.has(refundable.id)).toBe(false);
    expect((await orderNow(api, refundable.id)).refund_status).toBe("in_progress");
    expect(await entriesOf(api, refundable.id, "refund_credit")).toEqual([]);
    await kill(running);
  });

  it("the next process refunds once. A change's reissue is killed after the airline reissued, before our commit", async () => {
    const { running, api } = launch("after_airline_reissue");
    await waitUntilHealthy(running);
    await waitForStatus(api, tenant.key, refundable.id, ["REFUNDED"], 30_000);
    expect(await entriesOf(api, refundable.id, "refund_credit")).toHaveLength(1);
    await crash.expectSeatsHeld(running, changing.id, changing.slices);
    expect((await seatAccount(crash.database.url)).assigned.has(refundable.id)).toBe(false);

    const { offer } = await changeOffer(api, tenant.key, changing);
    const change = (await createChange(api, tenant.key, offer.id)).body.data;
    const confirmed = await confirmChange(api, tenant.key, change);
    expect(confirmed.status, JSON.stringify(confirmed.body).slice(0, 300)).toBe(200);
    changeMade = { offer, change };
    expect(await waitForPause(running, "after_airline_reissue")).toEqual({ orderId: changing.id });
    await kill(running);
  });

  it("the next process reissues the e-tickets once; the airline holds the new flight's seats only, and the ledger explains the balance", async () => {
    const { running, api } = launch();
    await waitUntilHealthy(running);
    const oldTickets = new Set(changing.documents.map((document: any) => document.unique_identifier));
    const documents = await pollUntil(running, "the e-tickets reissued", async () => {
      const read = (await orderNow(api, changing.id)).documents;
      return read.length === changing.documents.length && read.every((document: any) => !oldTickets.has(document.unique_identifier)) ? read : undefined;
    }, 30_000);
    expect(documents.map((document: any) => document.type)).toEqual(changing.documents.map(() => "electronic_ticket"));
    await crash.expectSeatsHeld(running, changing.id, changeMade.offer.slices.add);
    const changeEntries = (await allTransactions(api, tenant.key)).filter((entry) => entry.reference === changeMade.change.id);
    expect(changeEntries).toHaveLength(changeMade.offer.change_total_amount.match(/^-?0(\.0+)?$/) ? 0 : 1);
    const wallet = await walletBalance(api, tenant.key);
    expect((await allTransactions(api, tenant.key)).reduce((sum, entry) => sum + signedMinor(entry.amount, entry.currency), 0)).toBe(wallet.minor);
  });
});
