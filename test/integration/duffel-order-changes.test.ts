import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertMinor } from "../../src/money/exchange-rates";
import { call, type TenantFixture } from "../helpers/client";
import type { DuffelFake } from "../helpers/duffel-fake";
import { closeDuffelSuite, duffelOffer, duffelOrdersOf, expectLedgerOf, openDuffelSuite, platformDuffelTenant } from "../helpers/duffel-gateway";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { eventTypes } from "../helpers/job-leases";
import { confirmChange, createChange, laterDate, paymentFor, requestChange } from "../helpers/order-changes";
import { bookOffer, getOrder, ticketOrder, waitForStatus } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

const departures = (slices: any[]) => slices.flatMap((slice) => slice.segments.map((segment: any) => segment.departing_at));

/**
 * Order changes of Duffel orders (docs/duffel.md#order-changes): Duffel quotes the change offers
 * itself and our offers carry its amounts (in the order's currency); confirming makes and pays
 * Duffel's change once, however many confirmations race; the order takes the new flights and its
 * e-tickets are read again from Duffel's documents; the wallet moves by the change total for a
 * platform-account order and not at all for the tenant's own account (Duffel's balance pays).
 */
describe("order changes of Duffel orders", { timeout: 120_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;
  let tenant: TenantFixture & { token: string };
  let platformTenant: TenantFixture;

  beforeAll(async () => {
    ({ fake, server, tenant } = await openDuffelSuite());
    ({ tenant: platformTenant } = await platformDuffelTenant(server, fake));
  });
  afterAll(() => closeDuffelSuite({ server, fake }));

  /** A ticketed order of a holdable Duffel offer (VS), London → Barcelona, and Duffel's order of it. */
  async function ticketedDuffelOrder(key: string): Promise<{ order: any; duffelOrderId: string }> {
    const booked = await bookOffer(server, key, await duffelOffer(server, key, "VS"));
    expect((await ticketOrder(server, key, booked.id)).status).toBe(200);
    const order = (await waitForStatus(server, key, booked.id, ["TICKETED"], 30_000)).body.data;
    return { order, duffelOrderId: duffelOrdersOf(fake, order.id)[0]!.id };
  }

  /** A change request moving the order's slice 3 days later: Duffel's offers, cheapest first. */
  async function changeOffers(key: string, order: any): Promise<any[]> {
    const requested = await requestChange(server, key, order, laterDate(order.slices[0].departure_date, 3));
    expect(requested.status, JSON.stringify(requested.body).slice(0, 500)).toBe(201);
    return requested.body.data.order_change_offers;
  }

  it("a change request is answered with Duffel's change offers, priced at Duffel's change total and penalty in the order's currency, with the new flights", async () => {
    const { order } = await ticketedDuffelOrder(tenant.key);
    expect(order.available_actions).toContain("change");
    const offers = await changeOffers(tenant.key, order);
    expect(offers).toHaveLength(3);
    const currency = order.total_currency;
    const [cheapest] = offers;
    expect(toMinor(cheapest.change_total_amount, currency)).toBe(convertMinor(2500, fake.currency, currency));
    expect(toMinor(cheapest.penalty_total_amount, currency)).toBe(convertMinor(1000, fake.currency, currency));
    expect(cheapest.change_total_currency).toBe(currency);
    expect(offers.map((offer) => toMinor(offer.change_total_amount, currency))).toEqual([2500, 4500, 6500].map((amount) => convertMinor(amount, fake.currency, currency)));
    expect(cheapest.slices.remove.map((slice: any) => slice.id)).toEqual([order.slices[0].id]);
    expect(cheapest.slices.add[0].departure_date).toBe(laterDate(order.slices[0].departure_date, 3));
    expect(fake.requests.filter((request) => request.path === "/air/offer_requests" && JSON.stringify(request.body).includes(laterDate(order.slices[0].departure_date, 3)))).toEqual([]);
  });

  it("confirming on the tenant's own account makes and pays Duffel's change once, however many confirmations race; the order takes the new flights, its tickets are read again, and the wallet does not move", async () => {
    const { order } = await ticketedDuffelOrder(tenant.key);
    const ledger = await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"]);
    const [offer] = await changeOffers(tenant.key, order);
    const change = (await createChange(server, tenant.key, offer.id)).body.data;
    expect(change.confirmed_at).toBeNull();

    const paidBefore = fake.confirmedChanges.length;
    const confirms = await Promise.all(Array.from({ length: 5 }, () => confirmChange(server, tenant.key, change)));
    for (const confirmed of confirms) {
      expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
      expect(confirmed.body.data.confirmed_at).not.toBeNull();
    }
    // One change confirmed at Duffel, paid its change total from the tenant's Duffel balance.
    expect(fake.confirmedChanges.slice(paidBefore)).toEqual([{ id: expect.any(String), amount: "25.00", currency: fake.currency }]);

    const changed = (await getOrder(server, tenant.key, order.id)).body.data;
    expect(changed.slices[0].departure_date).toBe(laterDate(order.slices[0].departure_date, 3));
    expect(departures(changed.slices)).toEqual(departures(offer.slices.add));
    expect((await eventTypes(server, order.id)).filter((type) => type === "order.changed")).toHaveLength(1);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(ledger);
    // The reissue job reads Duffel's documents again: the changed order's new e-ticket numbers.
    await eventually(
      async () => ((await getOrder(server, tenant.key, order.id)).body.data.documents.every((document: any) => document.unique_identifier.startsWith("126")) ? true : undefined),
      () => `the e-tickets of ${order.id} were not read again after the change`,
      30_000,
    );
    // A confirmation repeated later answers the confirmed change, and pays nothing again.
    const before = fake.confirmedChanges.length;
    expect((await confirmChange(server, tenant.key, change)).body.data.confirmed_at).toBe(confirms[0]!.body.data.confirmed_at);
    expect(fake.confirmedChanges).toHaveLength(before);
  });

  it("a platform-account order pays the change total from the wallet, once, however many confirmations race; Duffel is paid once from the platform's balance", async () => {
    const { order, duffelOrderId } = await ticketedDuffelOrder(platformTenant.key);
    expect(order.settlement).toBe("wallet");
    const ledger = await expectLedgerOf(server, platformTenant.key, order.id, ["ticketing_debit"]);
    const [offer] = await changeOffers(platformTenant.key, order);
    const change = (await createChange(server, platformTenant.key, offer.id)).body.data;
    const paidBefore = fake.confirmedChanges.length;
    const confirms = await Promise.all(Array.from({ length: 5 }, () => confirmChange(server, platformTenant.key, change)));
    expect(confirms.map((confirmed) => confirmed.status)).toEqual([200, 200, 200, 200, 200]);
    expect(fake.confirmedChanges.slice(paidBefore)).toEqual([expect.objectContaining({ amount: "25.00", currency: fake.currency })]);
    const after = await expectLedgerOf(server, platformTenant.key, order.id, ["ticketing_debit", "change_debit"]);
    expect(ledger - after).toBe(toMinor(offer.change_total_amount, offer.change_total_currency));
    expect(fake.orders.get(duffelOrderId)!.reissues).toBe(1);
    const changed = (await getOrder(server, platformTenant.key, order.id)).body.data;
    expect(toMinor(changed.total_amount, changed.total_currency)).toBe(toMinor(offer.new_total_amount, offer.change_total_currency));
  });

  it("a change offer Duffel no longer honours is refused in the catalogue's words (422), and nothing changes: not the order, nor the wallet, nor Duffel's order", async () => {
    const { order, duffelOrderId } = await ticketedDuffelOrder(platformTenant.key);
    const ledger = await expectLedgerOf(server, platformTenant.key, order.id, ["ticketing_debit"]);
    const [offer] = await changeOffers(platformTenant.key, order);
    fake.expireChangeOffer(fake.lastChangeOfferIds[0]!);
    const change = (await createChange(server, platformTenant.key, offer.id)).body.data;
    const paidBefore = fake.confirmedChanges.length;
    const refused = await confirmChange(server, platformTenant.key, change);
    expectError(refused, 422, "offer_no_longer_available");
    // Asked again, the same refusal: the first one left nothing behind.
    expectError(await confirmChange(server, platformTenant.key, change), 422, "offer_no_longer_available");
    expect(fake.confirmedChanges).toHaveLength(paidBefore);
    expect(fake.orders.get(duffelOrderId)!.reissues).toBeUndefined();
    const unchanged = (await getOrder(server, platformTenant.key, order.id)).body.data;
    expect(departures(unchanged.slices)).toEqual(departures(order.slices));
    expect(unchanged.total_amount).toBe(order.total_amount);
    expect(await expectLedgerOf(server, platformTenant.key, order.id, ["ticketing_debit"])).toBe(ledger);
    expect((await call(server, "GET", `/v1/air/order_changes/${change.id}`, { key: platformTenant.key })).body.data.confirmed_at).toBeNull();
  });

  it("a change offer Duffel answers already expired is refused with 422 change_offer_expired, and nothing is asked of Duffel", async () => {
    const { order } = await ticketedDuffelOrder(tenant.key);
    const creates = () => fake.requests.filter((request) => request.path === "/air/order_changes").length;
    const createsBefore = creates();
    fake.changeOfferLifetimeMs = -1000;
    try {
      const [offer] = await changeOffers(tenant.key, order);
      expectError(await createChange(server, tenant.key, offer.id), 422, "change_offer_expired");
    } finally {
      fake.changeOfferLifetimeMs = 15 * 60_000;
    }
    expect(creates()).toBe(createsBefore);
  });
});
