import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { expectError, expectSameAnswer } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { findFlight, isOffered, offerOnFlight, seatHoldsOf, seatsLeft } from "../helpers/flights";
import {
  allTransactions,
  bookOffer,
  createOrderA,
  getOrder,
  newKey,
  passengerFor,
  passengersOf,
  searchForBooking,
  signedMinor,
  ticketOrder,
  waitForStatus,
  walletBalance,
} from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Orders over REST (docs/rest-api.md#orders-and-ticketing): booking in both
 * variants, ticketing, the airline's answers, cancel, refund, passenger changes, every error
 * the docs name, and the order of one tenant invisible to another.
 */
describe("orders", () => {
  let server: TestServer;
  let alice: TenantFixture;
  let bob: TenantFixture;
  beforeAll(async () => {
    // Ticketing takes 300 ms at the airline: long enough to see PROCESSING, short for the suite.
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "300" } });
    alice = await createTenant(server, { name: "Alice Travel" });
    bob = await createTenant(server, { name: "Bob Tours" });
  });
  afterAll(() => server.close());

  const post = (path: string, key: string, body?: unknown, headers: Record<string, string> = {}) => call(server, "POST", path, { key, body, headers });
  const creditLive = async (tenantId: string, amount: string) => {
    const credited = await call(server, "POST", `/v1/tenants/${tenantId}/wallet/credits`, { key: server.ownerKey, body: { amount, currency: "USD" } });
    expect(credited.status, JSON.stringify(credited.body)).toBe(201);
  };
  /** An offer whose total is at most `minor` (prices vary by date: searched until one fits). */
  const offerCostingAtMost = async (key: string, minor: number) => {
    for (let attempt = 0; attempt < 10; attempt++) {
      const fitting = (await searchForBooking(server, key)).find((offer) => toMinor(offer.total_amount, "USD") <= minor);
      if (fitting) return fitting;
    }
    throw new Error(`no offer costing at most ${minor} minor units`);
  };

  describe("Variant A", () => {
    it("books an offer: 201, a pending order with a booking reference, the passengers and the exact offer booked", async () => {
      const [offer] = await searchForBooking(server, alice.key, { passengers: ["adult", "child"] });
      const passengers = passengersOf(offer);
      const created = await createOrderA(server, alice.key, offer, { passengers });
      expect(created.status, JSON.stringify(created.body).slice(0, 300)).toBe(201);
      const order = created.body.data;
      expect(order).toMatchObject({
        id: expect.stringMatching(/^ord_/),
        booking_reference: expect.stringMatching(/^[A-HJ-NP-Z2-9]{6}$/),
        status: "pending",
        ticketing_status: "not_started",
        offer_id: offer.id,
        total_amount: offer.total_amount,
        total_currency: offer.total_currency,
        documents: [],
        services: [],
      });
      expect(order.slices).toEqual(offer.slices);
      expect(order.passengers.map((p: any) => [p.id, p.type, p.given_name, p.born_on, p.phone_number])).toEqual(
        passengers.map((p: any, index: number) => [p.id, offer.passengers[index].type, p.given_name, p.born_on, p.phone_number]),
      );
      // Identity documents come back under the names they were sent with.
      expect(order.passengers.map((p: any) => p.identity_documents)).toEqual(passengers.map((p: any) => p.identity_documents ?? []));

      const read = await getOrder(server, alice.key, order.id);
      expect(read.status).toBe(200);
      // Both variants at once (docs/rest-api.md#two-interface-variants): Variant A in data with the offer snapshot, Variant B at the top.
      const { offer: snapshot, ...readOrder } = read.body.data;
      expect(readOrder).toEqual(order);
      expect(snapshot).toEqual(offer);
      expect(read.body.order).toEqual({ id: order.id, status: "PENDING", currency: offer.total_currency });
      expect(read.body.offer).toEqual({ id: offer.id, total_amount: offer.total_amount });
    });

    it("tickets: pending with ticketing in_progress at once, then confirmed with an e-ticket per passenger and the wallet debited the total", async () => {
      const [offer] = await searchForBooking(server, alice.key, { passengers: ["adult", "adult"] });
      const order = await bookOffer(server, alice.key, offer);
      const before = await walletBalance(server, alice.key);

      const ticketing = await ticketOrder(server, alice.key, order.id);
      expect(ticketing.status, JSON.stringify(ticketing.body)).toBe(200);
      expect(ticketing.body.data).toMatchObject({ id: order.id, status: "pending", ticketing_status: "in_progress" });
      expect((await walletBalance(server, alice.key)).minor).toBe(before.minor - toMinor(offer.total_amount, offer.total_currency));

      const done = await waitForStatus(server, alice.key, order.id, ["TICKETED", "FAILED"]);
      expect(done.body.order.status).toBe("TICKETED");
      expect(done.body.data).toMatchObject({ status: "confirmed", ticketing_status: "ticketed", booking_reference: order.booking_reference });
      const documents = done.body.data.documents;
      expect(documents.map((d: any) => d.passenger_id).sort()).toEqual(["p1", "p2"]);
      for (const document of documents) {
        expect(document).toMatchObject({ type: "electronic_ticket", unique_identifier: expect.stringMatching(/^\d{13}$/) });
        const read = await call(server, "GET", document.url, { key: alice.key });
        expect(read.status).toBe(200);
        expect(read.body.data).toMatchObject({ unique_identifier: document.unique_identifier, booking_reference: order.booking_reference, passenger_name: "Ada Lovelace" });
      }
      const debits = (await allTransactions(server, alice.key)).filter((entry) => entry.order_id === order.id);
      expect(debits).toEqual([expect.objectContaining({ type: "ticketing_debit", amount: `-${offer.total_amount}` })]);
    });
  });

  describe("Variant B", () => {
    it("books with offerId, answers the order unwrapped, tickets on /ticket with an Idempotency-Key", async () => {
      const [offer] = await searchForBooking(server, alice.key);
      const created = await post("/v1/air/orders", alice.key, { offerId: offer.id, passengers: passengersOf(offer), services: [], metadata: { trip: "42" } }, { "idempotency-key": newKey() });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toEqual({
        id: expect.stringMatching(/^ord_/),
        status: "PENDING",
        totalCents: toMinor(offer.total_amount, offer.total_currency),
        currency: offer.total_currency,
        createdAt: expect.any(String),
        offerId: offer.id,
        bookingReference: expect.stringMatching(/^[A-Z2-9]{6}$/),
      });
      const id = created.body.id;
      expectError(await post(`/v1/air/orders/${id}/ticket`, alice.key), 400, "idempotency_key_required", "Idempotency-Key");
      const ticketed = await post(`/v1/air/orders/${id}/ticket`, alice.key, undefined, { "idempotency-key": newKey() });
      expect(ticketed.status).toBe(200);
      expect(ticketed.body).toEqual({ order: { id, status: "PROCESSING", currency: offer.total_currency } });
      const done = await waitForStatus(server, alice.key, id, ["TICKETED"]);
      expect(done.body.data.metadata).toEqual({ trip: "42" });
    });

    it("prices selected services into the order and the debit", async () => {
      const [offer] = await searchForBooking(server, alice.key);
      const services = (await call(server, "GET", `/v1/air/offers/${offer.id}?return_available_services=true`, { key: alice.key })).body.data.available_services;
      const bag = services.find((service: any) => service.type === "baggage");
      const seat = services.find((service: any) => service.type === "seat");
      const created = await post(
        "/v1/air/orders",
        alice.key,
        { offerId: offer.id, passengers: passengersOf(offer), services: [{ id: bag.id, quantity: 2 }, { id: seat.id }] },
        { "idempotency-key": newKey() },
      );
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      const currency = offer.total_currency;
      const expected = toMinor(offer.total_amount, currency) + 2 * toMinor(bag.total_amount, currency) + toMinor(seat.total_amount, currency);
      expect(created.body.totalCents).toBe(expected);
      const read = await getOrder(server, alice.key, created.body.id);
      expect(read.body.data.services).toEqual([
        { id: bag.id, type: "baggage", quantity: 2, total_amount: expect.any(String), total_currency: currency, passenger_ids: bag.passenger_ids, segment_ids: bag.segment_ids, designator: null },
        { id: seat.id, type: "seat", quantity: 1, total_amount: seat.total_amount, total_currency: currency, passenger_ids: seat.passenger_ids, segment_ids: seat.segment_ids, designator: null },
      ]);
      expect(toMinor(read.body.data.services[0].total_amount, currency)).toBe(2 * toMinor(bag.total_amount, currency));

      const before = await walletBalance(server, alice.key);
      expect((await ticketOrder(server, alice.key, created.body.id)).status).toBe(200);
      expect((await walletBalance(server, alice.key)).minor).toBe(before.minor - expected);
    });

    it("refuses services the offer does not have, twice the same one, or more than allowed", async () => {
      const [offer] = await searchForBooking(server, alice.key);
      const services = (await call(server, "GET", `/v1/air/offers/${offer.id}?return_available_services=true`, { key: alice.key })).body.data.available_services;
      const bag = services.find((service: any) => service.type === "baggage");
      const create = (chosen: unknown[]) => post("/v1/air/orders", alice.key, { offerId: offer.id, passengers: passengersOf(offer), services: chosen }, { "idempotency-key": newKey() });
      expectError(await create([{ id: "ase_unknown" }]), 422, "invalid_field_value", "services[0].id");
      expectError(await create([{ id: bag.id }, { id: bag.id }]), 400, "validation_failed", "services[1].id");
      expectError(await create([{ id: bag.id, quantity: bag.maximum_quantity + 1 }]), 400, "validation_failed", "services[0].quantity");
    });
  });

  describe("the errors of booking and ticketing", () => {
    it("needs an Idempotency-Key to create an order and to ticket on either path", async () => {
      const [offer] = await searchForBooking(server, alice.key);
      const body = { selected_offers: [offer.id], passengers: passengersOf(offer) };
      expectError(await post("/v1/air/orders", alice.key, body), 400, "idempotency_key_required", "Idempotency-Key");
      expectError(await post("/v1/air/orders", alice.key, { offerId: offer.id, passengers: passengersOf(offer) }), 400, "idempotency_key_required", "Idempotency-Key");
      const order = await bookOffer(server, alice.key, offer);
      expectError(await post(`/v1/air/orders/${order.id}/actions/ticket`, alice.key), 400, "idempotency_key_required", "Idempotency-Key");
      expectError(await post(`/v1/air/orders/${order.id}/ticket`, alice.key), 400, "idempotency_key_required", "Idempotency-Key");
      expect((await getOrder(server, alice.key, order.id)).body.order.status).toBe("PENDING");
    });

    it("replays the first answer byte for byte for the same key and body, and refuses the key with another body", async () => {
      const [offer, other] = await searchForBooking(server, alice.key, { atLeast: 2 });
      const key = newKey();
      const first = await createOrderA(server, alice.key, offer, { idempotencyKey: key });
      const repeat = await createOrderA(server, alice.key, offer, { idempotencyKey: key });
      expect(first.status).toBe(201);
      expect(repeat.status).toBe(201);
      expect(repeat.headers.get("idempotent-replayed")).toBe("true");
      expect(repeat.body).toEqual(first.body);
      const orders = await call(server, "GET", "/v1/air/orders?limit=100", { key: alice.key });
      expect(orders.body.data.items.filter((item: any) => item.offer_id === offer.id)).toHaveLength(1);
      expectError(await createOrderA(server, alice.key, other, { idempotencyKey: key }), 422, "idempotency_key_reused", "Idempotency-Key");
      // The key is the tenant's: another tenant may use the same one.
      const [bobs] = await searchForBooking(server, bob.key);
      expect((await createOrderA(server, bob.key, bobs, { idempotencyKey: key })).status).toBe(201);
    });

    it("answers 404 not_found for an unknown offer, and the very same for another tenant's", async () => {
      const [bobsOffer] = await searchForBooking(server, bob.key);
      const unknown = await createOrderA(server, alice.key, { ...bobsOffer, id: "off_neverexisted" });
      expectError(unknown, 404, "not_found", "selected_offers[0]");
      const foreign = await createOrderA(server, alice.key, { ...bobsOffer, id: bobsOffer.id });
      expectError(foreign, 404, "not_found", "selected_offers[0]");
      expect(foreign.body.message).toBe(unknown.body.message);
      const unknownB = await post("/v1/air/orders", alice.key, { offerId: "off_neverexisted", passengers: passengersOf(bobsOffer) }, { "idempotency-key": newKey() });
      expectError(unknownB, 404, "not_found", "offerId");
    });

    it("answers 422 offer_no_longer_available for an offer booked already", async () => {
      const [offer] = await searchForBooking(server, alice.key);
      await bookOffer(server, alice.key, offer);
      expectError(await createOrderA(server, alice.key, offer), 422, "offer_no_longer_available", "selected_offers[0]");
    });

    it("answers 422 offer_no_longer_available for an offer of a flight sold out since, holds no seat for the refusal, and search stops offering it", async () => {
      const flight = await findFlight(server, alice.key, 1, 5);
      const left = await seatsLeft(server, flight);
      // Every offer taken while seats remain: one more than there are seats.
      const offers = [];
      for (let seat = 0; seat <= left; seat++) offers.push(await offerOnFlight(server, alice.key, flight));
      const late = offers.pop();
      for (const offer of offers) await bookOffer(server, alice.key, offer);
      const refused = await createOrderA(server, alice.key, late);
      expectError(refused, 422, "offer_no_longer_available", "selected_offers[0]");
      expect(refused.body.reason).toMatch(/too few seats/);
      expect(await seatsLeft(server, flight)).toBe(0);
      expect(await isOffered(server, alice.key, flight), "a sold-out flight is not offered").toBe(false);
    });

    it("search offers a flight only to a party it has seats for", async () => {
      const flight = await findFlight(server, alice.key, 2, 4);
      const left = await seatsLeft(server, flight);
      for (let seat = 0; seat < left - 1; seat++) await bookOffer(server, alice.key, await offerOnFlight(server, alice.key, flight));
      expect(await seatsLeft(server, flight)).toBe(1);
      expect(await isOffered(server, alice.key, flight), "one seat left: offered to one adult").toBe(true);
      expect(await isOffered(server, alice.key, flight, { passengers: ["adult", "adult"] }), "not to two").toBe(false);
      expect(await isOffered(server, alice.key, flight, { passengers: ["adult", "infant_without_seat"] }), "an infant on a lap needs no seat").toBe(true);
    });

    it("answers 422 payment_amount_mismatch unless the payment is exactly the total in the offer's currency", async () => {
      const [offer] = await searchForBooking(server, alice.key);
      const total = toMinor(offer.total_amount, offer.total_currency);
      const pay = (currency: string, amount: string) => createOrderA(server, alice.key, offer, { body: { payments: [{ type: "balance", currency, amount }] } });
      const lessOneCent = `${Math.floor((total - 1) / 100)}.${String((total - 1) % 100).padStart(2, "0")}`;
      expectError(await pay(offer.total_currency, lessOneCent), 422, "payment_amount_mismatch", "payments[0].amount");
      expectError(await pay("EUR", offer.total_amount), 422, "payment_amount_mismatch", "payments[0].amount");
      expectError(await pay(offer.total_currency, "lots"), 400, "validation_failed", "payments[0].amount");
      const card = await createOrderA(server, alice.key, offer, { body: { payments: [{ type: "card", currency: "USD", amount: offer.total_amount }] } });
      expectError(card, 400, "validation_failed", "payments[0].type");
      expect((await createOrderA(server, alice.key, offer)).status).toBe(201);
    });

    it("answers 402 insufficient_balance at booking when the wallet cannot cover the total", async () => {
      const live = await createTenant(server, { environment: "live" });
      const [offer] = await searchForBooking(server, live.key);
      expectError(await createOrderA(server, live.key, offer), 402, "insufficient_balance");
      const variantB = await post("/v1/air/orders", live.key, { offerId: offer.id, passengers: passengersOf(offer) }, { "idempotency-key": newKey() });
      expectError(variantB, 402, "insufficient_balance");
    });

    it("answers 402 insufficient_balance on the A ticket path and 400 TB_AUTH_101 on the B path, debiting nothing", async () => {
      const live = await createTenant(server, { environment: "live" });
      const [first, second, third] = await searchForBooking(server, live.key);
      await creditLive(live.tenantId, first.total_amount);
      // Each booking alone is covered; the first ticket spends it all.
      const orders = [await bookOffer(server, live.key, first)];
      await creditLive(live.tenantId, second.total_amount);
      await creditLive(live.tenantId, third.total_amount);
      orders.push(await bookOffer(server, live.key, second), await bookOffer(server, live.key, third));
      expect((await ticketOrder(server, live.key, orders[0].id)).status).toBe(200);
      expect((await ticketOrder(server, live.key, orders[1].id)).status).toBe(200);
      const left = await walletBalance(server, live.key);
      expect(left.minor).toBe(toMinor(third.total_amount, "USD"));
      // Spend part of what is left on another order, so the third cannot be ticketed.
      const spend = await offerCostingAtMost(live.key, left.minor);
      const extra = await bookOffer(server, live.key, spend);
      expect((await ticketOrder(server, live.key, extra.id)).status).toBe(200);
      const afterSpend = await walletBalance(server, live.key);
      expect(afterSpend.minor).toBeLessThan(toMinor(third.total_amount, "USD"));
      expectError(await ticketOrder(server, live.key, orders[2].id), 402, "insufficient_balance");
      expectError(await post(`/v1/air/orders/${orders[2].id}/ticket`, live.key, undefined, { "idempotency-key": newKey() }), 400, "TB_AUTH_101");
      expect((await walletBalance(server, live.key)).minor).toBe(afterSpend.minor);
      expect((await getOrder(server, live.key, orders[2].id)).body.order.status).toBe("PENDING");
    });

    it("answers 409 order_state_conflict naming the current state for every illegal transition", async () => {
      const [offer] = await searchForBooking(server, alice.key);
      const order = await bookOffer(server, alice.key, offer);
      const refundPending = await post(`/v1/air/orders/${order.id}/actions/refund`, alice.key);
      expectError(refundPending, 409, "order_state_conflict");
      expect(refundPending.body.message).toContain("PENDING");
      expect((await ticketOrder(server, alice.key, order.id)).status).toBe(200);
      for (const response of [
        await ticketOrder(server, alice.key, order.id),
        await post(`/v1/air/orders/${order.id}/ticket`, alice.key, undefined, { "idempotency-key": newKey() }),
        await post(`/v1/air/orders/${order.id}/actions/cancel`, alice.key),
        await post(`/v1/air/orders/${order.id}/cancel`, alice.key),
        await post(`/v1/air/orders/${order.id}/passengers`, alice.key, { passengers: [{ id: "p1", given_name: "Grace" }] }),
        await call(server, "PUT", `/v1/air/orders/${order.id}/passengers`, { key: alice.key, body: { passengers: [{ id: "p1", given_name: "Grace" }] } }),
      ]) {
        expectError(response, 409, "order_state_conflict");
        expect(response.body.message).toMatch(/is (PROCESSING|TICKETED)/);
      }
      await waitForStatus(server, alice.key, order.id, ["TICKETED"]);
      const cancelTicketed = await post(`/v1/air/orders/${order.id}/actions/cancel`, alice.key);
      expectError(cancelTicketed, 409, "order_state_conflict");
      expect(cancelTicketed.body.message).toContain("is TICKETED");
    });
  });

  describe("passengers", () => {
    let international: any;
    beforeAll(async () => {
      [international] = await searchForBooking(server, alice.key, { days: 45 });
      expect(international.passenger_identity_documents_required).toBe(true);
    });
    const bookWith = (overrides: Record<string, unknown>, offer = international) => createOrderA(server, alice.key, offer, { passengers: [passengerFor("p1", "adult", overrides)] });

    it.each([
      ["phone_number", { phone_number: "020 8016 0508" }],
      ["phone_number", { phone_number: "+0442080160508" }],
      ["email", { email: "ada-at-example" }],
      ["born_on", { born_on: "1985-02-30" }],
      ["born_on", { born_on: "12/04/1985" }],
      ["gender", { gender: "x" }],
      ["title", { title: "sir" }],
      ["given_name", { given_name: "" }],
      ["family_name", { family_name: "L0velace" }],
      ["identity_documents[0].issuing_country_code", { identity_documents: [{ type: "passport", number: "X1234567", issuing_country_code: "XX", expires_on: "2036-01-01" }] }],
      ["identity_documents[0].expires_on", { identity_documents: [{ type: "passport", number: "X1234567", issuing_country_code: "GB", expires_on: "2036-13-01" }] }],
    ])("refuses a bad %s with 400 validation_failed naming it", async (field, overrides) => {
      expectError(await bookWith(overrides), 400, "validation_failed", `passengers[0].${field}`);
    });

    it("requires a passport when the itinerary crosses a border, valid after the last flight", async () => {
      expectError(await bookWith({ identity_documents: [] }), 400, "validation_failed", "passengers[0].identity_documents");
      expectError(await bookWith({ identity_documents: undefined }), 400, "validation_failed", "passengers[0].identity_documents");
      const expiresBeforeTravel = await bookWith({ identity_documents: [{ type: "passport", number: "X1234567", issuing_country_code: "GB", expires_on: new Date().toISOString().slice(0, 10) }] });
      expectError(expiresBeforeTravel, 400, "validation_failed", "passengers[0].identity_documents[0].expires_on");
      const idCardOnly = await bookWith({ identity_documents: [{ type: "national_identity_card", number: "X1234567", issuing_country_code: "GB", expires_on: "2036-01-01" }] });
      expectError(idCardOnly, 400, "validation_failed", "passengers[0].identity_documents");
    });

    it("books a domestic itinerary without identity documents", async () => {
      // An itinerary that stays in the country (a connection abroad would cross a border).
      const domestic = (await searchForBooking(server, alice.key, { origin: "JFK", destination: "LAX" })).find((offer) => !offer.passenger_identity_documents_required);
      expect(domestic, "a JFK → LAX offer within the United States").toBeDefined();
      expect(domestic.slices[0].segments.every((segment: any) => segment.origin.iata_country_code === "US" && segment.destination.iata_country_code === "US")).toBe(true);
      expect((await bookWith({ identity_documents: undefined }, domestic)).status).toBe(201);
    });

    it("needs every passenger of the offer exactly once, under the ids the search gave, of the age their type says", async () => {
      const [family] = await searchForBooking(server, alice.key, { passengers: ["adult", "child"], days: 46 });
      const [adult, child] = passengersOf(family);
      const book = (passengers: unknown[]) => createOrderA(server, alice.key, family, { passengers });
      expectError(await book([adult]), 400, "validation_failed", "passengers");
      expectError(await book([adult, { ...child, id: "someone-else" }]), 400, "validation_failed", "passengers[1].id");
      expectError(await book([adult, adult]), 400, "validation_failed", "passengers[1].id");
      expectError(await book([adult, { ...child, type: "adult" }]), 400, "validation_failed", "passengers[1].type");
      expectError(await book([adult, { ...child, born_on: "1990-01-01" }]), 400, "validation_failed", "passengers[1].born_on");
      expectError(await book([{ ...adult, born_on: `${new Date().getUTCFullYear() - 5}-01-01` }, child]), 400, "validation_failed", "passengers[0].born_on");
      expectError(await book([{ ...adult, born_on: "2999-01-01" }, child]), 400, "validation_failed", "passengers[0].born_on");
      expect((await book([child, adult])).status).toBe(201);
    });

    it("changes passengers of a pending order on POST and PUT, checked as at booking", async () => {
      const [offer] = await searchForBooking(server, alice.key, { passengers: ["adult", "adult"], days: 47 });
      const order = await bookOffer(server, alice.key, offer);
      const path = `/v1/air/orders/${order.id}/passengers`;
      const renamed = await post(path, alice.key, { passengers: [{ id: "p2", given_name: "Grace", family_name: "Hopper" }] });
      expect(renamed.status, JSON.stringify(renamed.body)).toBe(200);
      expect(renamed.body.data.passengers.map((p: any) => `${p.given_name} ${p.family_name}`)).toEqual(["Ada Lovelace", "Grace Hopper"]);
      const put = await call(server, "PUT", path, { key: alice.key, body: { passengers: [{ id: "p1", phone_number: "+14155550100" }] } });
      expect(put.status).toBe(200);
      // The read answer follows every change (its rendered body is keyed by the order's version).
      const read = await getOrder(server, alice.key, order.id);
      expect(read.body.data.passengers.map((p: any) => [p.given_name, p.phone_number])).toEqual([
        ["Ada", "+14155550100"],
        ["Grace", "+442080160508"],
      ]);
      expectError(await post(path, alice.key, { passengers: [{ id: "p2", email: "nope" }] }), 400, "validation_failed", "passengers[0].email");
      expectError(await post(path, alice.key, { passengers: [{ id: "p9", given_name: "Nobody" }] }), 400, "validation_failed", "passengers[0].id");
      expectError(await post(path, alice.key, { passengers: [{ id: "p1", identity_documents: [] }] }), 400, "validation_failed", "passengers[0].identity_documents");
      expect((await getOrder(server, alice.key, order.id)).body.data.passengers[1].email).toBe("p2@travel.example");
    });
  });

  describe("the airline's answers (sandbox triggers)", () => {
    it.each([
      ["Rejected", "airline_rejected"],
      ["Timeout", "airline_timeout"],
    ])("a passenger named %s fails ticketing with %s: the debit is reversed and the seats are released", async (familyName, reason) => {
      const [offer] = await searchForBooking(server, alice.key, { days: 50 });
      const order = await bookOffer(server, alice.key, offer, { passengers: passengersOf(offer, { family_name: familyName }) });
      expect(await seatHoldsOf(server, order.id)).toBeGreaterThan(0);
      const before = await walletBalance(server, alice.key);
      expect((await ticketOrder(server, alice.key, order.id)).status).toBe(200);
      const failed = await waitForStatus(server, alice.key, order.id, ["TICKETED", "FAILED"]);
      expect(failed.body.order.status).toBe("FAILED");
      expect(failed.body.data).toMatchObject({ status: "failed", ticketing_status: "failed", failure_reason: reason, documents: [] });
      expect((await walletBalance(server, alice.key)).minor).toBe(before.minor);
      const entries = (await allTransactions(server, alice.key)).filter((entry) => entry.order_id === order.id);
      expect(entries.map((entry) => [entry.type, signedMinor(entry.amount, entry.currency)]).sort()).toEqual(
        [["ticketing_debit", -toMinor(offer.total_amount, "USD")], ["ticketing_reversal", toMinor(offer.total_amount, "USD")]].sort(),
      );
      expect(await seatHoldsOf(server, order.id)).toBe(0);
      // The rejected offer is not valid for a retry (docs/rest-api.md#order-lifecycle).
      expectError(await createOrderA(server, alice.key, offer), 422, "offer_no_longer_available");
    });

    it("ignores the triggers for live tenants", async () => {
      const live = await createTenant(server, { environment: "live" });
      const [offer] = await searchForBooking(server, live.key, { days: 51 });
      await creditLive(live.tenantId, offer.total_amount);
      const order = await bookOffer(server, live.key, offer, { passengers: passengersOf(offer, { family_name: "Rejected" }) });
      expect((await ticketOrder(server, live.key, order.id)).status).toBe(200);
      expect((await waitForStatus(server, live.key, order.id, ["TICKETED", "FAILED"])).body.order.status).toBe("TICKETED");
      expect((await walletBalance(server, live.key)).minor).toBe(0);
    });
  });

  describe("cancel and refund", () => {
    it("cancels a pending order on both paths and releases its seats", async () => {
      const [first, second] = await searchForBooking(server, alice.key, { days: 52, atLeast: 2 });
      const a = await bookOffer(server, alice.key, first);
      const b = await bookOffer(server, alice.key, second);
      const cancelledA = await post(`/v1/air/orders/${a.id}/actions/cancel`, alice.key);
      expect(cancelledA.status).toBe(200);
      expect(cancelledA.body.data).toMatchObject({ id: a.id, status: "cancelled" });
      const cancelledB = await post(`/v1/air/orders/${b.id}/cancel`, alice.key);
      expect(cancelledB.body).toEqual({ order: { id: b.id, status: "CANCELED", currency: second.total_currency } });
      expect(await seatHoldsOf(server, a.id)).toBe(0);
      expect(await seatHoldsOf(server, b.id)).toBe(0);
      expectError(await post(`/v1/air/orders/${a.id}/actions/cancel`, alice.key), 409, "order_state_conflict");
      expectError(await ticketOrder(server, alice.key, a.id), 409, "order_state_conflict");
    });

    it("refunds a ticketed refundable order after the airline confirms: total less the fare's penalty back in the wallet", async () => {
      const [offer] = await searchForBooking(server, alice.key, { cabin: "business", days: 53 });
      const condition = offer.conditions.refund_before_departure;
      expect(condition.allowed).toBe(true);
      const order = await bookOffer(server, alice.key, offer);
      expect((await ticketOrder(server, alice.key, order.id)).status).toBe(200);
      await waitForStatus(server, alice.key, order.id, ["TICKETED"]);
      const before = await walletBalance(server, alice.key);

      const requested = await post(`/v1/air/orders/${order.id}/actions/refund`, alice.key);
      expect(requested.status).toBe(200);
      expect(requested.body.data).toMatchObject({ status: "confirmed", refund_status: "in_progress" });
      expectError(await post(`/v1/air/orders/${order.id}/refund`, alice.key), 409, "order_state_conflict");

      const refunded = await waitForStatus(server, alice.key, order.id, ["REFUNDED"]);
      expect(refunded.body.data).toMatchObject({ status: "refunded", refund_status: "refunded" });
      const expected = toMinor(offer.total_amount, "USD") - toMinor(condition.penalty_amount, "USD");
      expect((await walletBalance(server, alice.key)).minor).toBe(before.minor + expected);
      const credit = (await allTransactions(server, alice.key)).find((entry) => entry.order_id === order.id && entry.type === "refund_credit");
      expect(signedMinor(credit.amount, credit.currency)).toBe(expected);
      expect(await seatHoldsOf(server, order.id)).toBe(0);
      expectError(await post(`/v1/air/orders/${order.id}/actions/refund`, alice.key), 409, "order_state_conflict");
    });

    it("answers 422 refund_not_allowed for a fare that does not allow refunds", async () => {
      const [offer] = await searchForBooking(server, alice.key, { days: 54 });
      expect(offer.conditions.refund_before_departure.allowed).toBe(false);
      const order = await bookOffer(server, alice.key, offer);
      expect((await ticketOrder(server, alice.key, order.id)).status).toBe(200);
      await waitForStatus(server, alice.key, order.id, ["TICKETED"]);
      const refused = await post(`/v1/air/orders/${order.id}/refund`, alice.key);
      expectError(refused, 422, "refund_not_allowed");
      expect(refused.body.reason).toMatch(/not refundable/);
    });
  });

  describe("lists", () => {
    it("lists orders (default 25) and bookings (default 20) newest first, filtered by status in either variant's spelling", async () => {
      const tenant = await createTenant(server);
      const searched: any[] = [];
      while (searched.length < 27) searched.push(...(await searchForBooking(server, tenant.key)));
      const offers = searched.slice(0, 27);
      const ids: string[] = [];
      for (const offer of offers) ids.push((await bookOffer(server, tenant.key, offer)).id);
      const cancelled = ids.slice(0, 3);
      for (const id of cancelled) expect((await post(`/v1/air/orders/${id}/cancel`, tenant.key)).status).toBe(200);

      const orders = await call(server, "GET", "/v1/air/orders", { key: tenant.key });
      expect(orders.body.data.pagination).toMatchObject({ total: 27, limit: 25, hasMore: true });
      expect(orders.body.data.items.map((item: any) => item.id)).toEqual([...ids].reverse().slice(0, 25));
      const bookings = await call(server, "GET", "/v1/bookings", { key: tenant.key });
      expect(bookings.body.data.pagination).toMatchObject({ total: 27, limit: 20, hasMore: true });
      expect(bookings.body.data.items[0]).toEqual(orders.body.data.items[0]);

      for (const spelling of ["cancelled", "CANCELED", "canceled"]) {
        const filtered = await call(server, "GET", `/v1/air/orders?status=${spelling}`, { key: tenant.key });
        expect(filtered.body.data.items.map((item: any) => item.id).sort()).toEqual([...cancelled].sort());
      }
      const pending = await call(server, "GET", "/v1/bookings?status=pending&limit=100", { key: tenant.key });
      expect(pending.body.data.pagination.total).toBe(24);
      expectError(await call(server, "GET", "/v1/air/orders?status=lost", { key: tenant.key }), 400, "validation_failed", "status");
      expectError(await call(server, "GET", "/v1/air/orders?limit=101", { key: tenant.key }), 400, "LIMIT_OUT_OF_RANGE", "limit");
    });

    it("walks 25+ orders once each with cursors while orders are being created", async () => {
      const tenant = await createTenant(server);
      const searched: any[] = [];
      while (searched.length < 32) searched.push(...(await searchForBooking(server, tenant.key)));
      const offers = searched;
      const existing: string[] = [];
      for (const offer of offers.slice(0, 26)) existing.push((await bookOffer(server, tenant.key, offer)).id);
      const later = offers.slice(26);
      const seen: string[] = [];
      let cursor: string | null = null;
      let page = 0;
      do {
        const response: any = await call(server, "GET", `/v1/air/orders?limit=5${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: tenant.key });
        expect(response.status).toBe(200);
        seen.push(...response.body.data.items.map((item: any) => item.id));
        cursor = response.body.data.pagination.nextCursor;
        // New orders arrive between pages; they are newer than the walk and never appear in it.
        const fresh = later[page++];
        if (fresh) await bookOffer(server, tenant.key, fresh);
      } while (cursor);
      expect(seen).toEqual([...existing].reverse());
    });
  });

  describe("isolation and lifecycle", () => {
    it("answers another tenant's order exactly as an unknown id on every order route", async () => {
      const [offer] = await searchForBooking(server, bob.key);
      const bobs = await bookOffer(server, bob.key, offer);
      const routes: Array<[string, string, unknown?]> = [
        ["GET", ""],
        ["POST", "/actions/ticket"],
        ["POST", "/ticket"],
        ["POST", "/actions/cancel"],
        ["POST", "/cancel"],
        ["POST", "/actions/refund"],
        ["POST", "/refund"],
        ["POST", "/passengers", { passengers: [{ id: "p1", given_name: "Eve" }] }],
        ["PUT", "/passengers", { passengers: [{ id: "p1", given_name: "Eve" }] }],
        ["GET", "/documents/doc_neverexisted"],
      ];
      for (const [method, suffix, body] of routes) {
        const headers = { "idempotency-key": newKey() };
        const foreign = await call(server, method, `/v1/air/orders/${bobs.id}${suffix}`, { key: alice.key, body, headers });
        const unknown = await call(server, method, `/v1/air/orders/ord_neverexisted${suffix}`, { key: alice.key, body, headers: { "idempotency-key": newKey() } });
        expectError(foreign, 404, "not_found");
        expectSameAnswer(foreign, unknown);
      }
      const read = await getOrder(server, bob.key, bobs.id);
      expect(read.body.order.status).toBe("PENDING");
      expect(read.body.data.passengers[0].given_name).toBe("Ada");
    });

    it("lets a suspended tenant read its orders but not book, ticket, cancel, refund or change them, even through the owner", async () => {
      const tenant = await createTenant(server);
      const [offer, another] = await searchForBooking(server, tenant.key, { atLeast: 2 });
      const order = await bookOffer(server, tenant.key, offer);
      expect((await call(server, "PATCH", `/v1/tenants/${tenant.tenantId}`, { key: server.ownerKey, body: { status: "suspended" } })).status).toBe(200);
      const asOwner = { "service-tenant": tenant.tenantId };
      const read = await call(server, "GET", `/v1/air/orders/${order.id}`, { key: server.ownerKey, headers: asOwner });
      expect(read.status).toBe(200);
      expect((await call(server, "GET", "/v1/wallet", { key: server.ownerKey, headers: asOwner })).status).toBe(200);
      expectError(await createOrderA(server, tenant.key, another), 403, "tenant_suspended");
      const writes: Array<[string, string, unknown?]> = [
        ["POST", "/v1/air/orders", { selected_offers: [another.id], passengers: passengersOf(another) }],
        ["POST", `/v1/air/orders/${order.id}/actions/ticket`],
        ["POST", `/v1/air/orders/${order.id}/cancel`],
        ["POST", `/v1/air/orders/${order.id}/refund`],
        ["PUT", `/v1/air/orders/${order.id}/passengers`, { passengers: [{ id: "p1", given_name: "Eve" }] }],
      ];
      for (const [method, path, body] of writes) {
        expectError(await call(server, method, path, { key: server.ownerKey, body, headers: { ...asOwner, "idempotency-key": newKey() } }), 403, "tenant_suspended");
      }
      expect((await call(server, "PATCH", `/v1/tenants/${tenant.tenantId}`, { key: server.ownerKey, body: { status: "active" } })).status).toBe(200);
      expect((await getOrder(server, tenant.key, order.id)).body.order.status).toBe("PENDING");
      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    });
  });
});
