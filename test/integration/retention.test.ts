import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offerAddress } from "../../src/search/offer-ids";
import { call, createTenant, graphql, startServerWithTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { daysAhead } from "../helpers/offers";
import { changeOffer, confirmChange, createChange } from "../helpers/order-changes";
import { bookOffer, createOrderA, getOrder, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import { seatForSale, seatMaps } from "../helpers/seat-maps";
import { confirmCancellation, quoteCancellation } from "../helpers/servicing";
import type { TestServer } from "../helpers/test-server";

/**
 * Retention (docs/retention.md): a search and its offers are gone OFFER_RETENTION_SECONDS after
 * they expire, and every process removes them in the background; an order never needs them.
 */

/** The rows of the searches the offers belong to. */
const searchRows = (server: TestServer, offerIds: string[]) =>
  server.db.prisma.offerRequest.count({ where: { id: { in: offerIds.map((id) => offerAddress(id)!.requestId) } } });

/** Waits until every offer reads 404 and its search's row is removed from the database. */
async function waitUntilRemoved(server: TestServer, key: string, offerIds: string[], deadlineMs: number): Promise<void> {
  await eventually(
    async () => {
      for (const id of offerIds) if ((await call(server, "GET", `/v1/air/offers/${id}`, { key })).status !== 404) return undefined;
      return (await searchRows(server, offerIds)) === 0 ? true : undefined;
    },
    () => `offers ${offerIds.join(", ")} still readable or stored`,
    deadlineMs,
    100,
  );
}

describe("a search past its offers' expiry and the retention after it", { timeout: 60_000 }, () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    ({ server, tenant } = await startServerWithTenant({ OFFER_TTL_SECONDS: "2", OFFER_RETENTION_SECONDS: "1", RETENTION_SWEEP_SECONDS: "0.5" }));
  });
  afterAll(() => server.close());

  it("reads 404 not_found within 30 s of its expiry, leaves GET /v1/air/search, cannot be booked, and its row is removed", async () => {
    const requested = await call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: { data: { slices: [{ origin: "LHR", destination: "JFK", departure_date: daysAhead(30) }], passengers: [{ type: "adult", id: "p1" }], cabin_class: "economy" }, return_offers: false },
    });
    expect(requested.status).toBe(200);
    const requestId: string = requested.body.data.id;
    const listed = await call(server, "GET", `/v1/air/offers?offer_request_id=${requestId}&limit=100`, { key: tenant.key });
    const offers: any[] = listed.body.data.items;
    expect(offers.length).toBeGreaterThan(0);
    const [offer] = offers;
    const expiresAt = Date.parse(offer.expires_at);
    expect((await call(server, "GET", "/v1/air/search", { key: tenant.key })).body.data.items.map((item: any) => item.id)).toContain(requestId);

    await eventually(
      async () => ((await call(server, "GET", `/v1/air/offers/${offer.id}`, { key: tenant.key })).status === 404 ? true : undefined),
      () => `offer ${offer.id} still readable`,
      expiresAt + 30_000 - Date.now(),
      100,
    );
    expect(Date.now()).toBeLessThan(expiresAt + 30_000);

    expectError(await call(server, "GET", `/v1/air/offers/${offer.id}`, { key: tenant.key }), 404, "not_found");
    expect((await call(server, "GET", "/v1/air/search", { key: tenant.key })).body.data).toMatchObject({ items: [], pagination: { total: 0 } });
    expectError(await call(server, "GET", `/v1/air/offers?offer_request_id=${requestId}`, { key: tenant.key }), 404, "not_found");
    expect((await call(server, "GET", "/v1/air/offers", { key: tenant.key })).body.data.pagination.total).toBe(0);
    expect((await graphql(server, `{ offer(id: "${offer.id}") { id } }`, {}, { key: tenant.key })).body).toEqual({ data: { offer: null } });
    expectError(await call(server, "GET", `/v1/air/seat_maps?offer_id=${offer.id}`, { key: tenant.key }), 404, "not_found");
    expectError(await createOrderA(server, tenant.key, { ...offer, total_currency: offer.currency }), 422, "offer_no_longer_available");

    await waitUntilRemoved(server, tenant.key, offers.map((each) => each.id), 30_000);
    const metrics = await call<string>(server, "GET", "/metrics");
    expect(metrics.body).toMatch(/aerogate_retention_removed_total\{table="OfferRequest"\} [1-9]/);
  });
});

describe("GraphQL reads of an offer, answered again from memory while it is kept", { timeout: 60_000 }, () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    ({ server, tenant } = await startServerWithTenant({ OFFER_TTL_SECONDS: "4", OFFER_RETENTION_SECONDS: "2" }));
  });
  afterAll(() => server.close());

  it("answer the offer until it is no longer kept, then null; another tenant's key never gets it; `expired` follows the clock", async () => {
    const [offer] = await searchForBooking(server, tenant.key);
    const read = (document: string, key = tenant.key) => graphql(server, document, { id: offer.id }, { key });
    const plain = "query($id: ID!) { offer(id: $id) { id totalAmount } }";
    const timed = "query($id: ID!) { offer(id: $id) { id expired } }";
    // The first read runs through Apollo, the second prepared; the third is the answer kept from the second.
    for (let i = 0; i < 3; i++) {
      expect((await read(plain)).body).toEqual({ data: { offer: { id: offer.id, totalAmount: offer.total_amount } } });
      expect((await read(timed)).body).toEqual({ data: { offer: { id: offer.id, expired: false } } });
    }
    const other = await createTenant(server);
    for (let i = 0; i < 3; i++) expect((await read(plain, other.key)).body).toEqual({ data: { offer: null } });

    const expiresAt = Date.parse(offer.expires_at);
    await eventually(async () => (Date.now() > expiresAt ? true : undefined), () => "the offer has not expired", 10_000, 50);
    const afterExpiry = await read(timed);
    // Expired, and still kept (for OFFER_RETENTION_SECONDS) unless the machine was too slow to ask in time.
    if (Date.now() < expiresAt + 2000) expect(afterExpiry.body.data.offer).toEqual({ id: offer.id, expired: true });
    await eventually(async () => (Date.now() > expiresAt + 2000 ? true : undefined), () => "the offer is still kept", 10_000, 50);
    expect((await read(plain)).body).toEqual({ data: { offer: null } });
    expect((await read(timed)).body).toEqual({ data: { offer: null } });
  });
});

describe("an order never needs its offer: reads, seat map, services, ticketing, change and cancellation after the offer is removed", { timeout: 90_000 }, () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    ({ server, tenant } = await startServerWithTenant({ OFFER_TTL_SECONDS: "8", OFFER_RETENTION_SECONDS: "0", RETENTION_SWEEP_SECONDS: "0.2", TICKETING_DELAY_MS: "100", JOB_POLL_MS: "50" }));
  });
  afterAll(() => server.close());

  it("serves the order from its own snapshot", async () => {
    const { key } = tenant;
    const [economy] = await searchForBooking(server, key);
    const [map] = await seatMaps(server, key, `offer_id=${economy.id}`);
    const seat = seatForSale(map);
    // No payment sent: the order's total is the offer's and the seat's.
    const held = await bookOffer(server, key, economy, { body: { services: [{ id: seat.service.id, quantity: 1 }], payments: undefined } });
    const business = (await searchForBooking(server, key, { cabin: "business" })).find((offer) => offer.conditions.change_before_departure.allowed);
    expect(business, "a business offer whose fare allows changes").toBeDefined();
    const changeable = await bookOffer(server, key, business);

    await waitUntilRemoved(server, key, [economy.id, business.id], 30_000);

    const read = await getOrder(server, key, held.id);
    expect(read.status).toBe(200);
    expect(read.body.data.offer).toEqual(economy);
    expect(read.body.data.services.map((service: any) => service.designator)).toEqual([seat.designator]);
    expect(read.body.offer).toEqual({ id: economy.id, total_amount: economy.total_amount });
    const viaGraphQL = await graphql(server, `{ order(id: "${held.id}") { offer { id totalAmount slices { segments { id } } } } }`, {}, { key });
    expect(viaGraphQL.body.data.order.offer).toEqual({
      id: economy.id,
      totalAmount: economy.total_amount,
      slices: economy.slices.map((slice: any) => ({ segments: slice.segments.map((segment: any) => ({ id: segment.id })) })),
    });
    const maps = await seatMaps(server, key, `order_id=${held.id}`);
    expect(maps.map((each) => each.segment_id)).toEqual(economy.slices.flatMap((slice: any) => slice.segments.map((segment: any) => segment.id)));
    const services = await call(server, "GET", `/v1/air/orders/${held.id}/available_services`, { key });
    expect(services.status).toBe(200);
    expect(services.body.data.some((service: any) => service.type === "baggage")).toBe(true);
    expect((await call(server, "GET", `/v1/air/orders/${held.id}/events`, { key })).body.data.items.map((event: any) => event.event)).toEqual(["order.created"]);

    // Past its offer's expiry the price guarantee is over too: the airline may price it again once (422 price_changed), then it tickets.
    let ticketing = await ticketOrder(server, key, changeable.id);
    if (ticketing.status === 422 && ticketing.body.errors[0].code === "price_changed") ticketing = await ticketOrder(server, key, changeable.id);
    expect(ticketing.status, JSON.stringify(ticketing.body).slice(0, 400)).toBe(200);
    const ticketed = (await waitForStatus(server, key, changeable.id, ["TICKETED"], 30_000)).body.data;
    const { offer: changeTo } = await changeOffer(server, key, ticketed);
    const change = await createChange(server, key, changeTo.id);
    expect(change.status, JSON.stringify(change.body).slice(0, 300)).toBe(201);
    const confirmed = await confirmChange(server, key, change.body.data);
    expect(confirmed.status, JSON.stringify(confirmed.body).slice(0, 300)).toBe(200);
    expect(confirmed.body.data.confirmed_at).not.toBeNull();

    const quote = await quoteCancellation(server, key, held.id);
    expect(quote.status).toBe(201);
    expect((await confirmCancellation(server, key, quote.body.data.id)).status).toBe(200);
    await waitForStatus(server, key, held.id, ["CANCELED"]);
  });
});

describe("booking an offer while retention removes it", { timeout: 90_000 }, () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    ({ server, tenant } = await startServerWithTenant({ OFFER_TTL_SECONDS: "6", OFFER_RETENTION_SECONDS: "0", RETENTION_SWEEP_SECONDS: "0.1" }));
  });
  afterAll(() => server.close());

  it("gives 201 with the offer's snapshot, or 422 offer_no_longer_available; never a 500, never an order without its snapshot", async () => {
    const offers: any[] = [];
    while (offers.length < 16) offers.push(...(await searchForBooking(server, tenant.key)));
    // Bookings from 3 s before each offer's expiry (and its removal, at once) to 1 s after it.
    const outcomes = await Promise.all(
      offers.map(async (offer, i) => {
        const at = Date.parse(offer.expires_at) - 3000 + (4000 * i) / offers.length;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
        return { offer, response: await createOrderA(server, tenant.key, offer) };
      }),
    );
    for (const { offer, response } of outcomes) {
      if (response.status === 201) {
        expect(response.body.data.offer_id).toBe(offer.id);
        const order = await getOrder(server, tenant.key, response.body.data.id);
        expect(order.body.data.offer, `the snapshot of ${offer.id}`).toEqual(offer);
      } else {
        expectError(response, 422, "offer_no_longer_available");
      }
    }
    const booked = outcomes.filter(({ response }) => response.status === 201);
    expect(booked.length, "bookings before the expiry").toBeGreaterThan(0);
    expect(booked.length, "bookings after it").toBeLessThan(outcomes.length);
    const orders = await server.db.prisma.order.findMany({ where: { tenantId: tenant.tenantId } });
    expect(orders.map((order) => order.offerId).sort()).toEqual(booked.map(({ offer }) => offer.id).sort());
    for (const order of orders) expect((order.offerSnapshot as { id: string }).id).toBe(order.offerId);
    await waitUntilRemoved(server, tenant.key, offers.map((offer) => offer.id), 30_000);
  });
});
