import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { clock } from "../../src/clock";
import { AppError } from "../../src/errors/app-error";
import { onAccount } from "../../src/connectors/duffel/duffel-accounts";
import { ORDER_ID_METADATA } from "../../src/connectors/duffel/duffel-bookings";
import { DuffelBookings } from "../../src/connectors/duffel/duffel-bookings";
import { DuffelExtras } from "../../src/connectors/duffel/duffel-extras";
import { DuffelSupplier } from "../../src/connectors/duffel/duffel-supplier";
import { offerRequestBody, pricedOffer } from "../../src/connectors/duffel/duffel-offers";
import type { DuffelOffer } from "../../src/connectors/duffel/duffel-shapes";
import { duffelAccounts } from "../../src/connectors/duffel/connected-accounts";
import { SupplierAccountRefused } from "../../src/gateway/contract/errors";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { accountOf, connectDuffel, fakeToken, londonToNewYork, secretsKey, travellers } from "../helpers/duffel";
import { startDuffelFake, type DuffelFake } from "../helpers/duffel-fake";
import { newKey } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * The Duffel connector against the contract fake of Duffel's API v2 (docs/duffel.md): the
 * tenant's token from its connection, Duffel's shapes in and out, its errors in the catalogue's
 * words, 429s waited out within the caller's deadline, and bookings made once per Idempotency-Key.
 */

/** The error a call fails with, as the catalogue words it. */
async function refusal(work: Promise<unknown>): Promise<AppError> {
  const error = await work.then(
    () => new Error("expected the call to fail"),
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(AppError);
  return error as AppError;
}

describe("the Duffel connector", () => {
  let fake: DuffelFake;
  let server: TestServer;
  let tenant: TenantFixture;
  let token: string;
  let connectionId: string;

  beforeAll(async () => {
    fake = await startDuffelFake();
    server = await startTestServer({ env: { SUPPLIER_SECRETS_KEY: secretsKey(), DUFFEL_API_URL: fake.url, DUFFEL_TIMEOUT_MS: "10000" } });
    tenant = await createTenant(server);
    token = fakeToken(fake);
    connectionId = (await connectDuffel(server, tenant, token)).id;
  });
  afterAll(async () => {
    await server.close();
    await fake.close();
  });
  beforeEach(() => {
    fake.delayMs = 0;
    fake.currency = "GBP";
  });

  const accounts = () => duffelAccounts(server.app.services.supplierAccounts, { baseUrl: fake.url, timeoutMs: 10_000 });
  /** Duffel's bookings as the connector keeps them, over the server's database. */
  const bookings = () => new DuffelBookings(server.db, accounts());
  /** The Duffel supplier as the connector makes it: every call with the tenant's own account. */
  const duffelSupplier = () => {
    const [theAccounts, theBookings] = [accounts(), bookings()];
    return new DuffelSupplier({ accounts: theAccounts, bookings: theBookings, airportByIata: (code) => server.app.services.airports.getByIata(code), extras: new DuffelExtras(theAccounts, theBookings), cancelledAtDuffel: async () => undefined });
  };
  const connection = async () => (await call(server, "GET", "/v1/supplier_connections", { key: tenant.key })).body.data.find((c: { id: string }) => c.id === connectionId);
  /** A fresh offer request's offers, through the tenant's account. */
  const searchOffers = async (deadlineMs?: number): Promise<DuffelOffer[]> => {
    const account = await accountOf(server, tenant);
    const answer = await onAccount(accounts(), account, (connector) => connector.createOfferRequest(offerRequestBody(londonToNewYork(server)), { returnOffers: true, supplierTimeoutMs: 2500, deadlineMs }));
    return answer.offers ?? [];
  };

  it("searches with the tenant's token, Duffel-Version v2, supplier_timeout and return_offers, and marks the connection used", async () => {
    const before = fake.requests.length;
    const offers = await searchOffers();
    expect(offers).toHaveLength(3);
    const [sent] = fake.requests.slice(before);
    expect(sent).toMatchObject({ method: "POST", authorization: `Bearer ${token}` });
    expect(sent!.path).toBe("/air/offer_requests?return_offers=true&supplier_timeout=2500");
    expect(sent!.body).toEqual({ data: { slices: [{ origin: "LHR", destination: "JFK", departure_date: expect.any(String) }], passengers: [{ type: "adult" }], cabin_class: "economy", max_connections: 1 } });
    const shown = await connection();
    expect(shown.status).toBe("active");
    expect(Date.parse(shown.last_used_at)).toBeGreaterThan(clock.nowMs() - 60_000);
  });

  it("answers the Supplier interface's search: offers in USD from Duffel's GBP, our airports, times in UTC", async () => {
    const offers = await duffelSupplier().search(londonToNewYork(server, tenant.tenantId));
    expect(offers).toHaveLength(3);
    // Cheapest first (VS, BA, AA at 388.20, 412.55, 450.10 GBP).
    expect(offers.map((offer) => offer.owner.iataCode)).toEqual(["VS", "BA", "AA"]);
    const first = offers.find((offer) => offer.owner.iataCode === "BA");
    expect(first!.baseCurrency).toBe("USD");
    // 412.55 GBP at the static table (0.79 GBP per USD) is 522.22 USD.
    expect(first!.totalAmount).toBe(52222);
    expect(first!.passengers.reduce((sum, fare) => sum + fare.fareAmount, 0)).toBe(first!.totalAmount);
    const segment = first!.slices[0]!.segments[0]!;
    expect(segment).toMatchObject({ flightKey: expect.stringMatching(/^BA100@\d{4}-\d{2}-\d{2}:LHR-JFK$/), origin: { iataCode: "LHR" }, destination: { iataCode: "JFK" }, durationMinutes: 475 });
    // 08:35 in London is 08:35Z in winter and 07:35Z in summer.
    expect(segment.departingAtUtc).toMatch(/T0[78]:35:00Z$/);
    expect(segment.baggageAllowances.adult).toEqual([{ type: "checked", quantity: 1 }, { type: "carry_on", quantity: 1 }]);
  });

  it("prices an offer in the tenant's currency with the static table and records the rate, or keeps Duffel's amount when it is the same currency", async () => {
    const [offer] = await searchOffers();
    expect(pricedOffer(offer!, "EUR").total).toEqual({ amountMinor: 48044, currency: "EUR", conversion: { from: "GBP", to: "EUR", rate: 1.16456 } });
    expect(pricedOffer(offer!, "GBP").total).toEqual({ amountMinor: 41255, currency: "GBP", conversion: null });
  });

  it("reads an offer with its available services, its seat maps, and pages through the request's offers by meta.after", async () => {
    const account = await accountOf(server, tenant);
    const offers = await searchOffers();
    const withServices = await account.connector.getOffer(offers[0]!.id, { returnAvailableServices: true });
    expect(withServices.available_services).toEqual([expect.objectContaining({ type: "baggage", total_amount: "30.00", passenger_ids: [offers[0]!.passengers[0]!.id] })]);
    const maps = await account.connector.seatMaps(offers[0]!.id);
    expect(maps[0]!.cabins[0]!.rows[0]!.sections[0]!.elements[0]).toMatchObject({ type: "seat", designator: "10A" });
    const offerRequestId = (offers[0] as DuffelOffer & { offer_request_id: string }).offer_request_id;
    const first = await account.connector.listOffers(offerRequestId, { limit: 2 });
    expect(first.data).toHaveLength(2);
    const second = await account.connector.listOffers(offerRequestId, { limit: 2, after: first.meta.after! });
    expect(second.data).toHaveLength(1);
    expect(second.meta.after).toBeNull();
  });

  it("waits out a 429 until ratelimit-reset when that comes before the deadline", async () => {
    fake.rateLimitNext(1, 300);
    const started = Date.now();
    expect(await searchOffers(clock.nowMs() + 8000)).toHaveLength(3);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });

  it("reports supplier_timeout at once when the 429's reset comes after the deadline", async () => {
    fake.rateLimitNext(1, 5000);
    const started = Date.now();
    const error = await refusal(searchOffers(clock.nowMs() + 1500));
    expect(error.code).toBe("supplier_timeout");
    expect(Date.now() - started).toBeLessThan(1400);
  });

  it("reports supplier_timeout when Duffel answers after the deadline", async () => {
    fake.delayMs = 1500;
    expect((await refusal(searchOffers(clock.nowMs() + 500))).code).toBe("supplier_timeout");
  });

  it("retries a read after a 5xx, but never a booking (502 supplier_error, nothing booked twice)", async () => {
    const account = await accountOf(server, tenant);
    const [offer] = await searchOffers();
    fake.failNext(1, 503);
    expect((await account.connector.getOffer(offer!.id)).id).toBe(offer!.id);
    fake.failNext(1, 500, "POST /air/orders");
    const ordersBefore = fake.orders.size;
    const booking = { idempotencyKey: newKey("duffel"), offerId: offer!.id, type: "instant" as const, passengers: travellers(offer!.passengers.map((p) => p.id)), payment: { amount: offer!.total_amount, currency: offer!.total_currency } };
    expect((await refusal(bookings().book(tenant.tenantId, booking))).code).toBe("supplier_error");
    expect(fake.orders.size).toBe(ordersBefore);
    // The same key again finds nothing at Duffel under its id, so books once now.
    const booked = await bookings().book(tenant.tenantId, booking);
    expect(booked.status).toBe("booked");
    expect(fake.orders.size).toBe(ordersBefore + 1);
  });

  it("books an instant order once per Idempotency-Key, naming our order id in Duffel's metadata", async () => {
    const [offer] = await searchOffers();
    const scope = tenant.tenantId;
    const booking = { idempotencyKey: newKey("duffel"), offerId: offer!.id, type: "instant" as const, passengers: travellers(offer!.passengers.map((p) => p.id)), payment: { amount: offer!.total_amount, currency: offer!.total_currency } };
    const first = await bookings().book(scope, booking);
    expect(first).toMatchObject({ id: expect.stringMatching(/^ord_/), status: "booked", duffelOrderId: expect.stringMatching(/^ord_0000/), totalAmount: offer!.total_amount, totalCurrency: "GBP", paymentRequiredBy: null });
    const again = await bookings().book(scope, booking);
    expect(again).toEqual(first);
    const atDuffel = [...fake.orders.values()].filter((order) => order.metadata[ORDER_ID_METADATA] === first.id);
    expect(atDuffel.map((order) => order.id)).toEqual([first.duffelOrderId]);
    expect((await refusal(bookings().book(scope, { ...booking, offerId: "off_0000other" }))).code).toBe("idempotency_key_reused");
  });

  it("holds an order until Duffel's payment_required_by, then pays it", async () => {
    const offers = await searchOffers();
    const holdable = offers.find((offer) => !offer.payment_requirements.requires_instant_payment)!;
    const booked = await bookings().book(tenant.tenantId, { idempotencyKey: newKey("hold"), offerId: holdable.id, type: "hold", passengers: travellers(holdable.passengers.map((p) => p.id)) });
    expect(booked.paymentRequiredBy).toBe(holdable.payment_requirements.payment_required_by);
    const account = await accountOf(server, tenant);
    const payment = await account.connector.createPayment(booked.duffelOrderId!, { amount: booked.totalAmount!, currency: booked.totalCurrency! });
    expect(payment).toMatchObject({ type: "balance", amount: holdable.total_amount, currency: "GBP" });
    expect((await account.connector.getOrder(booked.duffelOrderId!)).payment_status.awaiting_payment).toBe(false);
  });

  it.each([
    ["price_changed", (fake: DuffelFake, offerId: string) => fake.changePrice(offerId, "999.00")],
    ["offer_no_longer_available", (fake: DuffelFake, offerId: string) => fake.withdraw(offerId)],
  ])("answers Duffel's %s at booking with the catalogue's 422: no Duffel order, nothing debited", async (code, change) => {
    const [offer] = await searchOffers();
    change(fake, offer!.id);
    const ordersBefore = fake.orders.size;
    const balanceBefore = (await call(server, "GET", "/v1/wallet", { key: tenant.key })).body;
    const entriesBefore = await server.app.services.db.prisma.ledgerEntry.count({ where: { tenantId: tenant.tenantId } });
    const booking = { idempotencyKey: newKey("refused"), offerId: offer!.id, type: "instant" as const, passengers: travellers(offer!.passengers.map((p) => p.id)), payment: { amount: offer!.total_amount, currency: offer!.total_currency } };
    const error = await refusal(bookings().book(tenant.tenantId, booking));
    expect({ code: error.code, status: error.status }).toEqual({ code, status: 422 });
    expect(fake.orders.size).toBe(ordersBefore);
    expect((await call(server, "GET", "/v1/wallet", { key: tenant.key })).body).toEqual(balanceBefore);
    expect(await server.app.services.db.prisma.ledgerEntry.count({ where: { tenantId: tenant.tenantId } })).toBe(entriesBefore);
    expect(await server.app.services.db.prisma.duffelBooking.findFirst({ where: { tenantId: tenant.tenantId, idempotencyKey: booking.idempotencyKey } })).toMatchObject({ status: "failed", duffelOrderId: null });
  });

  it("is refused, as Duffel refuses it, an order missing the identity document its offer requires or an infant no adult holds: 422, the booking failed", async () => {
    const account = await accountOf(server, tenant);
    const search = { ...londonToNewYork(server), passengers: [{ id: "pas_1", type: "adult" as const }, { id: "pas_2", type: "infant_without_seat" as const, age: 1 }] };
    const answer = await onAccount(accounts(), account, (connector) => connector.createOfferRequest(offerRequestBody(search), { returnOffers: true, supplierTimeoutMs: 2500 }));
    const offer = answer.offers!.find((candidate) => !candidate.payment_requirements.requires_instant_payment)!;
    expect(offer.passenger_identity_documents_required).toBe(true);
    const [adult, infant] = travellers(offer.passengers.map((p) => p.id));
    const ordersBefore = fake.orders.size;
    const refused = async (passengers: ReturnType<typeof travellers>, message: string) => {
      const booking = { idempotencyKey: newKey("passengers"), offerId: offer.id, type: "hold" as const, passengers };
      const error = await refusal(bookings().book(tenant.tenantId, booking));
      expect({ code: error.code, status: error.status }).toEqual({ code: "invalid_field_value", status: 422 });
      expect(error.message + JSON.stringify(error.details)).toContain(message);
      expect(await server.app.services.db.prisma.duffelBooking.findFirst({ where: { tenantId: tenant.tenantId, idempotencyKey: booking.idempotencyKey } })).toMatchObject({ status: "failed" });
    };
    await refused([{ ...adult!, infant_passenger_id: infant!.id, identity_documents: undefined }, infant!], "identity_documents");
    await refused([adult!, infant!], "infant");
    expect(fake.orders.size).toBe(ordersBefore);
    const booked = await bookings().book(tenant.tenantId, { idempotencyKey: newKey("passengers"), offerId: offer.id, type: "hold", passengers: [{ ...adult!, infant_passenger_id: infant!.id }, infant!] });
    expect(booked.status).toBe("booked");
  });

  it("services a booked order: cancellation quote and confirmation, a change request, offer and confirmation, airline-initiated changes", async () => {
    const [offer] = await searchOffers();
    const booked = await bookings().book(tenant.tenantId, { idempotencyKey: newKey("servicing"), offerId: offer!.id, type: "instant", passengers: travellers(offer!.passengers.map((p) => p.id)), payment: { amount: offer!.total_amount, currency: offer!.total_currency } });
    const { connector } = await accountOf(server, tenant);
    const orderId = booked.duffelOrderId!;

    const request = await connector.requestChange(orderId, { add: [{ origin: "LHR", destination: "JFK", departure_date: "2099-01-01", cabin_class: "economy" }], remove: [{ slice_id: (await connector.getOrder(orderId)).slices[0]!.id }] });
    const changeOffer = await connector.getChangeOffer(request.order_change_offers[0]!.id);
    const change = await connector.createChange(changeOffer.id);
    const confirmed = await connector.confirmChange(change.id, { amount: change.change_total_amount!, currency: change.change_total_currency! });
    expect(confirmed.confirmed_at).not.toBeNull();

    // Only an order on LHR→LTN gets an airline's change, as in Duffel's test mode.
    expect(await connector.listAirlineInitiatedChanges(orderId)).toEqual([]);
    const changing = (await connector.createOfferRequest({ ...offerRequestBody(londonToNewYork(server)), slices: [{ origin: "LHR", destination: "LTN", departure_date: offer!.slices[0]!.segments[0]!.departing_at.slice(0, 10) }] }, { returnOffers: true, supplierTimeoutMs: 2500 })).offers![0]!;
    const changed = await bookings().book(tenant.tenantId, { idempotencyKey: newKey("changing"), offerId: changing.id, type: "instant", passengers: travellers(changing.passengers.map((p) => p.id)), payment: { amount: changing.total_amount, currency: changing.total_currency } });
    const [airlineChange] = await connector.listAirlineInitiatedChanges(changed.duffelOrderId!);
    expect(airlineChange).toMatchObject({ order_id: changed.duffelOrderId, action_taken: null, available_actions: expect.arrayContaining(["accept"]) });
    expect(airlineChange!.added[0]!.segments[0]!.departing_at).not.toBe(airlineChange!.removed[0]!.segments[0]!.departing_at);
    expect((await connector.acceptAirlineInitiatedChange(airlineChange!.id)).action_taken).toBe("accepted");
    expect((await connector.getOrder(changed.duffelOrderId!)).slices[0]!.segments[0]!.departing_at).toBe(airlineChange!.added[0]!.segments[0]!.departing_at);

    const quote = await connector.quoteCancellation(orderId);
    // The change confirmed above made the order's total its new one.
    expect(quote).toMatchObject({ order_id: orderId, refund_amount: confirmed.new_total_amount, confirmed_at: null });
    expect((await connector.confirmCancellation(quote.id)).confirmed_at).not.toBeNull();
    expect((await connector.getOrder(orderId)).cancelled_at).not.toBeNull();
  });

  it("marks the connection invalid when Duffel refuses the token (401): its searches fail with the account refused (502 supplier_error naming the token)", async () => {
    const other = await createTenant(server);
    const revoked = fakeToken(fake);
    const { id } = await connectDuffel(server, other, revoked);
    fake.revoke(revoked);
    const supplier = duffelSupplier();
    // A search tells the tenant's refused account apart (no circuit counts it), with the catalogue's answer.
    const refused = await supplier.search(londonToNewYork(server, other.tenantId)).then(
      () => new Error("expected the search to fail"),
      (thrown: unknown) => thrown,
    );
    expect(refused).toBeInstanceOf(SupplierAccountRefused);
    const error = (refused as SupplierAccountRefused).answer;
    expect(error.code).toBe("supplier_error");
    expect(error.details.reason).toContain("access token");
    const shown = (await call(server, "GET", "/v1/supplier_connections", { key: other.key })).body.data;
    expect(shown).toEqual([expect.objectContaining({ id, status: "invalid" })]);
    // A booking on the refused token fails the same way, and books nothing.
    const ordersBefore = fake.orders.size;
    const key = newKey("revoked");
    expect((await refusal(bookings().book(other.tenantId, { idempotencyKey: key, offerId: "off_0000x", type: "hold", passengers: [] }))).code).toBe("supplier_error");
    expect(fake.orders.size).toBe(ordersBefore);
    // Duffel refused it, so it made nothing: the booking is failed, not left for the reconciler.
    expect(await server.app.services.db.prisma.duffelBooking.findFirst({ where: { tenantId: other.tenantId, idempotencyKey: key } })).toMatchObject({ status: "failed" });
  });

  it("sends the token only to DUFFEL_API_URL, always with Duffel-Version v2 (the fake refuses any other version)", async () => {
    expect(new Set(fake.requests.filter((request) => request.authorization === `Bearer ${token}`).map((request) => request.authorization))).toEqual(new Set([`Bearer ${token}`]));
    const unversioned = await fetch(`${fake.url}/air/orders`, { headers: { authorization: `Bearer ${token}` } });
    expect(unversioned.status).toBe(400);
    expect(unversioned.headers.get("ratelimit-limit")).toMatch(/^\d+$/);
    expect(await unversioned.json()).toMatchObject({ errors: [{ type: "invalid_request_error", code: "unsupported_version", title: expect.any(String), message: expect.any(String) }], meta: { status: 400, request_id: expect.any(String) } });
  });
});
