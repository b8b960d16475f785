import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/clock";
import { call, createTenant, graphql, startServerWithTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { changeOffer, confirmChange, createChange, laterDate, requestChange, ticketedOrder } from "../helpers/order-changes";
import { allTransactions, bookOffer, flightsOfOffer, getOrder, searchForBooking, signedMinor, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";
import { credit } from "../helpers/wallet";

/**
 * Order changes (docs/rest-api.md#order-changes): the airline's offers for a later date priced as
 * new fare − old fare + the fare's penalty, a change chosen and confirmed once (slices, seats,
 * money, event), the e-tickets reissued after the airline's delay, and every refusal from the
 * catalogue with nothing changed. The in-process server shares the product clock with the test,
 * which moves it (setClock) to expire an offer.
 */

const CHANGE_OFFER_LIFETIME_MS = 15 * 60 * 1000;

let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  ({ server, tenant } = await startServerWithTenant({ JOB_POLL_MS: "50", TICKETING_DELAY_MS: "300" }));
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  setClock(new Date());
});

/** The airline's flights (keys) the order's slices fly now (test setup reads the stored order). */
async function orderFlights(orderId: string): Promise<string[]> {
  const row = await server.db.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
  return (row.offerSnapshot as any).payload.slices.flatMap((slice: any) => slice.segments.map((segment: any) => segment.flightKey));
}

/** The flights (keys) a change offer adds. */
async function addedFlights(offerId: string): Promise<string[]> {
  const row = await server.db.prisma.orderChangeOffer.findUniqueOrThrow({ where: { id: offerId } });
  return (row.payload as any).added.slices.flatMap((slice: any) => slice.segments.map((segment: any) => segment.flightKey));
}

/** Seats bookings hold on each flight (every cabin, every environment). */
async function seatsHeldOnEach(flightKeys: string[]): Promise<number[]> {
  return Promise.all(flightKeys.map(async (flightKey) => (await server.db.prisma.seatHold.aggregate({ where: { flightKey }, _sum: { seats: true } }))._sum.seats ?? 0));
}

/** The flights (keys) the airline holds seats on for the order. */
async function heldFlights(orderId: string): Promise<string[]> {
  return (await server.db.prisma.seatHold.findMany({ where: { holdId: orderId }, orderBy: { flightKey: "asc" } })).map((hold) => hold.flightKey);
}

/** The tenant's ledger entries for a change. */
async function changeEntries(key: string, changeId: string): Promise<any[]> {
  return (await allTransactions(server, key)).filter((entry) => entry.reference === changeId);
}

async function changedEvents(orderId: string) {
  return server.db.prisma.orderEvent.findMany({ where: { orderId, type: "order.changed" } });
}

/** The order's state a refused request must leave alone. */
async function orderState(key: string, orderId: string) {
  const order = (await getOrder(server, key, orderId)).body.data;
  return { order: { slices: order.slices, total_amount: order.total_amount, updated_at: order.updated_at }, flights: await heldFlights(orderId), ledger: (await allTransactions(server, key)).length };
}

const minor = (amount: string, currency: string) => signedMinor(amount, currency);

describe("asking for a change", () => {
  it("refuses an order whose fare forbids changes, and one not yet ticketed (422 change_not_allowed)", async () => {
    // Value carriers (ZV, from LGW) sell Basic economy: neither changed nor refunded.
    let basic: any;
    for (let attempt = 0; attempt < 10 && !basic; attempt++) {
      const offers = await searchForBooking(server, tenant.key, { origin: "LGW", destination: "BCN" });
      basic = offers.find((offer) => offer.owner.iata_code === "ZV");
    }
    expect(basic, "a Basic fare on sale LGW → BCN").toBeDefined();
    expect(basic.conditions.change_before_departure).toEqual({ allowed: false, penalty_amount: null, penalty_currency: null });
    const order = await bookOffer(server, tenant.key, basic);
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
    const refused = await requestChange(server, tenant.key, ticketed, laterDate(ticketed.slices[0].departure_date, 2));
    expectError(refused, 422, "change_not_allowed", "order_id");
    expect(refused.body.reason).toContain("does not allow changes");

    const [offer] = await searchForBooking(server, tenant.key);
    const pending = await bookOffer(server, tenant.key, offer);
    expectError(await requestChange(server, tenant.key, pending, laterDate(pending.slices[0].departure_date, 2)), 422, "change_not_allowed", "order_id");
  });

  it("prices each offer for a later date as the new fare less the old plus the fare's penalty, and changes nothing", async () => {
    const order = await ticketedOrder(server, tenant.key);
    const before = await orderState(tenant.key, order.id);
    const { request, offer } = await changeOffer(server, tenant.key, order);
    const currency = order.total_currency;
    const penalty = order.offer.conditions.change_before_departure;
    expect(penalty.allowed).toBe(true);

    expect(request.id).toMatch(/^ocr_/);
    expect(request.order_id).toBe(order.id);
    expect(request.slices.remove).toEqual([{ slice_id: order.slices[0].id }]);
    expect(request.order_change_offers.length).toBeGreaterThan(0);
    const date = request.slices.add[0].departure_date;
    for (const candidate of request.order_change_offers) {
      expect(candidate.id).toMatch(/^oco_/);
      expect(candidate.penalty_total_amount).toBe(penalty.penalty_amount);
      expect(candidate.change_total_currency).toBe(currency);
      // One slice, no services: the old fare is the order's total, the new one its new total.
      expect(minor(candidate.change_total_amount, currency)).toBe(minor(candidate.new_total_amount, currency) - minor(order.total_amount, currency) + minor(penalty.penalty_amount, currency));
      expect(candidate.slices.remove.map((slice: any) => slice.id)).toEqual([order.slices[0].id]);
      expect(candidate.slices.add).toHaveLength(1);
      expect(candidate.slices.add[0].departure_date).toBe(date);
      for (const segment of candidate.slices.add[0].segments) expect(segment.marketing_carrier.iata_code, "a change stays with the order's airline").toBe(order.slices[0].segments[0].marketing_carrier.iata_code);
      expect(Date.parse(candidate.expires_at) - Date.parse(candidate.created_at)).toBe(CHANGE_OFFER_LIFETIME_MS);
      expect(candidate.refund_to).toBe("balance");
    }
    const amounts = request.order_change_offers.map((candidate: any) => minor(candidate.change_total_amount, currency));
    expect(amounts, "cheapest first").toEqual([...amounts].sort((a: number, b: number) => a - b));

    // The new fare is what the airline sells the same flight for in a search of that date.
    const days = Math.round((Date.parse(date) - Date.parse(new Date().toISOString().slice(0, 10))) / 86_400_000);
    const searched = await searchForBooking(server, tenant.key, { days, reuseFlights: true });
    const sameFlight = searched.find((candidate) => JSON.stringify(flightsOfOffer(candidate)) === JSON.stringify(flightsOfOffer({ slices: offer.slices.add })));
    expect(sameFlight, "the flight is on sale in a search").toBeDefined();
    expect(offer.new_total_amount).toBe(sameFlight.total_amount);

    const read = await call(server, "GET", `/v1/air/order_change_requests/${request.id}`, { key: tenant.key });
    expect(read.status).toBe(200);
    expect(read.body.data).toEqual(request);
    const readOffer = await call(server, "GET", `/v1/air/order_change_offers/${offer.id}`, { key: tenant.key });
    expect(readOffer.body.data).toEqual(offer);
    expect(await orderState(tenant.key, order.id), "asking changes nothing").toEqual(before);
  });

  it("refuses bad input with the field named, and another tenant's records as unknown (404), changing nothing", async () => {
    const order = await ticketedOrder(server, tenant.key);
    const before = await orderState(tenant.key, order.id);
    const [slice] = order.slices;
    const add = { origin: "LHR", destination: "JFK", departure_date: laterDate(slice.departure_date, 1), cabin_class: "economy" };
    const ask = (body: unknown) => call(server, "POST", "/v1/air/order_change_requests", { key: tenant.key, body });

    expectError(await ask({ order_id: order.id }), 400, "validation_failed", "slices");
    expectError(await ask({ order_id: order.id, slices: { remove: [], add: [add] } }), 400, "validation_failed", "slices.remove");
    expectError(await ask({ order_id: order.id, slices: { remove: [{ slice_id: slice.id }], add: [{ ...add, cabin_class: "steerage" }] } }), 400, "validation_failed", "slices.add[0].cabin_class");
    expectError(await ask({ order_id: order.id, slices: { remove: [{ slice_id: "sli_unknown" }], add: [add] } }), 422, "invalid_field_value", "slices.remove[0].slice_id");
    expectError(await ask({ order_id: order.id, slices: { remove: [{ slice_id: slice.id }, { slice_id: slice.id }], add: [add] } }), 422, "invalid_field_value", "slices.remove[1].slice_id");
    expectError(await ask({ order_id: order.id, slices: { remove: [{ slice_id: slice.id }], add: [add, { ...add, cabin_class: "business" }] } }), 422, "invalid_field_value", "slices.add[1].cabin_class");
    expectError(await ask({ order_id: order.id, slices: { remove: [{ slice_id: slice.id }], add: [{ ...add, origin: "QQQ" }] } }), 400, "invalid_search_params", "slices.add[0].origin");
    expectError(await ask({ order_id: order.id, slices: { remove: [{ slice_id: slice.id }], add: [{ ...add, departure_date: "2020-01-01" }] } }), 400, "invalid_search_params", "slices.add[0].departure_date");
    expectError(await ask({ order_id: "ord_unknown", slices: { remove: [{ slice_id: slice.id }], add: [add] } }), 404, "not_found", "order_id");

    const { request, offer } = await changeOffer(server, tenant.key, order);
    const change = (await createChange(server, tenant.key, offer.id)).body.data;
    const other = await createTenant(server);
    expectError(await call(server, "POST", "/v1/air/order_change_requests", { key: other.key, body: { order_id: order.id, slices: { remove: [{ slice_id: slice.id }], add: [add] } } }), 404, "not_found", "order_id");
    expectError(await call(server, "GET", `/v1/air/order_change_requests/${request.id}`, { key: other.key }), 404, "not_found");
    expectError(await call(server, "GET", `/v1/air/order_change_offers/${offer.id}`, { key: other.key }), 404, "not_found");
    expectError(await call(server, "GET", `/v1/air/order_changes/${change.id}`, { key: other.key }), 404, "not_found");
    expectError(await createChange(server, other.key, offer.id), 404, "not_found", "selected_order_change_offer");
    expectError(await confirmChange(server, other.key, change), 404, "not_found");
    expectError(await call(server, "POST", "/v1/air/order_changes/oce_unknown/actions/confirm", { key: tenant.key, body: {} }), 404, "not_found");
    expectError(await call(server, "POST", `/v1/air/order_changes/${change.id}/actions/confirm`, { key: tenant.key, body: { payment: { type: "card" } } }), 400, "validation_failed", "payment.type");

    const { ledger, ...unchanged } = await orderState(tenant.key, order.id);
    expect(unchanged).toEqual({ order: before.order, flights: before.flights });
    expect(ledger).toBe(before.ledger);
  });
});

describe("confirming a change", () => {
  it("moves the order to the new flight, its seats and the money once; the e-tickets are reissued after the airline's delay", async () => {
    const order = await ticketedOrder(server, tenant.key);
    const { offer } = await changeOffer(server, tenant.key, order);
    const currency = order.total_currency;
    const oldFlights = await orderFlights(order.id);
    const newFlights = await addedFlights(offer.id);
    const heldBefore = await seatsHeldOnEach([...oldFlights, ...newFlights]);
    const balanceBefore = await walletBalance(server, tenant.key);
    const oldTickets = order.documents.map((document: any) => document.unique_identifier);
    expect(oldTickets).toHaveLength(order.passengers.length);

    const created = await createChange(server, tenant.key, offer.id);
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const change = created.body.data;
    expect(change.id).toMatch(/^oce_/);
    expect({ ...change, id: undefined, created_at: undefined }).toEqual({
      id: undefined,
      order_id: order.id,
      order_change_offer_id: offer.id,
      slices: offer.slices,
      change_total_amount: offer.change_total_amount,
      change_total_currency: currency,
      penalty_total_amount: offer.penalty_total_amount,
      penalty_total_currency: currency,
      new_total_amount: offer.new_total_amount,
      new_total_currency: currency,
      refund_to: "balance",
      expires_at: offer.expires_at,
      confirmed_at: null,
      created_at: undefined,
    });
    expect((await createChange(server, tenant.key, offer.id)).body.data.id, "one change per offer").toBe(change.id);

    const confirmed = await confirmChange(server, tenant.key, change);
    expect(confirmed.status, JSON.stringify(confirmed.body).slice(0, 500)).toBe(200);
    expect(confirmed.body.data).toEqual({ ...change, confirmed_at: expect.any(String) });

    // Money: the change's cost moved once, as one ledger entry keyed by the change.
    const cost = minor(offer.change_total_amount, currency);
    expect((await walletBalance(server, tenant.key)).minor).toBe(balanceBefore.minor - cost);
    const entries = await changeEntries(tenant.key, change.id);
    expect(entries.map((entry) => ({ type: entry.type, amount: minor(entry.amount, entry.currency), order_id: entry.order_id }))).toEqual([
      { type: cost > 0 ? "change_debit" : "change_credit", amount: -cost, order_id: order.id },
    ]);

    // The order: the new slice, the new total, still ticketed.
    const changed = (await getOrder(server, tenant.key, order.id)).body.data;
    expect(changed.status).toBe("confirmed");
    expect(changed.slices).toEqual(offer.slices.add);
    expect(changed.total_amount).toBe(offer.new_total_amount);
    expect(toMinor(changed.base_amount, currency) + toMinor(changed.tax_amount, currency)).toBe(toMinor(changed.total_amount, currency));
    expect(changed.offer.total_amount).toBe(offer.new_total_amount);

    // Seats: each old flight has one more left, each new one one fewer; the airline holds only the new ones for the order.
    expect(await seatsHeldOnEach([...oldFlights, ...newFlights])).toEqual([...oldFlights.map((_flight, index) => heldBefore[index]! - 1), ...newFlights.map((_flight, index) => heldBefore[oldFlights.length + index]! + 1)]);
    expect(await heldFlights(order.id)).toEqual([...newFlights].sort());
    const events = await changedEvents(order.id);
    expect(events).toHaveLength(1);
    expect(JSON.parse(events[0]!.payload).data).toMatchObject({ id: order.id, status: "confirmed", order_change_id: change.id, change_total_amount: offer.change_total_amount, total_amount: offer.new_total_amount });

    // After the airline's delay the reissue job replaces the e-tickets.
    const reissued = await eventually(
      async () => {
        const documents = (await getOrder(server, tenant.key, order.id)).body.data.documents;
        return documents.every((document: any) => !oldTickets.includes(document.unique_identifier)) ? documents : undefined;
      },
      () => "the e-tickets reissued",
    );
    expect(reissued.map((document: any) => ({ type: document.type, passenger_id: document.passenger_id }))).toEqual(order.documents.map((document: any) => ({ type: "electronic_ticket", passenger_id: document.passenger_id })));
    for (const document of reissued) expect(document.unique_identifier).toMatch(/^\d{13}$/);

    // A repeat answers the confirmed change, and moves nothing.
    const again = await confirmChange(server, tenant.key, change);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(confirmed.body.data);
    expect(await changeEntries(tenant.key, change.id)).toHaveLength(1);
    expect((await call(server, "GET", `/v1/air/order_changes/${change.id}`, { key: tenant.key })).body.data).toEqual(confirmed.body.data);
  });

  it("changes the order once when ten confirmations race, and every one answers the confirmed change", async () => {
    const order = await ticketedOrder(server, tenant.key);
    const { offer } = await changeOffer(server, tenant.key, order);
    const change = (await createChange(server, tenant.key, offer.id)).body.data;
    const newFlights = await addedFlights(offer.id);
    const heldBefore = await seatsHeldOnEach(newFlights);
    const balanceBefore = await walletBalance(server, tenant.key);

    const answers = await Promise.all(Array.from({ length: 10 }, () => confirmChange(server, tenant.key, change)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body.data))).size, "one answer").toBe(1);
    expect(answers[0]!.body.data.confirmed_at).not.toBeNull();

    expect(await changeEntries(tenant.key, change.id)).toHaveLength(1);
    expect((await walletBalance(server, tenant.key)).minor).toBe(balanceBefore.minor - minor(offer.change_total_amount, order.total_currency));
    expect(await seatsHeldOnEach(newFlights)).toEqual(heldBefore.map((held) => held + 1));
    expect(await heldFlights(order.id)).toEqual([...newFlights].sort());
    expect(await changedEvents(order.id)).toHaveLength(1);
  });

  it("of two different changes of one order confirmed at once, one applies; the airline holds only its flights, the other's seats back on sale", async () => {
    const order = await ticketedOrder(server, tenant.key);
    const first = await changeOffer(server, tenant.key, order);
    // Flights of its own: the two exchanges never compete for one flight's seats.
    const flightsOf = (offer: any): string[] => offer.slices.add.flatMap((slice: any) => slice.segments.map((segment: any) => `${segment.marketing_carrier_flight_number}@${segment.departing_at}`));
    const second = await changeOffer(server, tenant.key, order, { accept: (offer) => !flightsOf(offer).some((flight) => flightsOf(first.offer).includes(flight)) });
    const changes = [(await createChange(server, tenant.key, first.offer.id)).body.data, (await createChange(server, tenant.key, second.offer.id)).body.data];
    const flights = [await addedFlights(first.offer.id), await addedFlights(second.offer.id)];
    const heldBefore = await Promise.all(flights.map((keys) => seatsHeldOnEach(keys)));
    const balanceBefore = await walletBalance(server, tenant.key);

    const answers = await Promise.all(changes.map((change) => confirmChange(server, tenant.key, change)));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const won = answers.findIndex((answer) => answer.status === 200);
    const [offer, lost] = [[first.offer, second.offer][won]!, 1 - won];
    expect(await heldFlights(order.id)).toEqual([...flights[won]!].sort());
    expect(await seatsHeldOnEach(flights[won]!)).toEqual(heldBefore[won]!.map((held) => held + 1));
    expect(await seatsHeldOnEach(flights[lost]!)).toEqual(heldBefore[lost]!);
    expect(await changeEntries(tenant.key, changes[lost]!.id)).toEqual([]);
    expect((await walletBalance(server, tenant.key)).minor).toBe(balanceBefore.minor - minor(offer.change_total_amount, order.total_currency));
  });

  it("refuses an offer priced before the order changed (409), so two changes never both apply", async () => {
    const order = await ticketedOrder(server, tenant.key);
    const first = await changeOffer(server, tenant.key, order);
    const second = await changeOffer(server, tenant.key, order, { accept: (offer) => offer.id !== first.offer.id });
    const firstChange = (await createChange(server, tenant.key, first.offer.id)).body.data;
    const secondChange = (await createChange(server, tenant.key, second.offer.id)).body.data;
    expect((await confirmChange(server, tenant.key, firstChange)).status).toBe(200);
    // Once the first change's e-tickets are reissued (the reissue job touches the order too).
    const oldTickets = new Set(order.documents.map((document: any) => document.unique_identifier));
    await eventually(async () => ((await getOrder(server, tenant.key, order.id)).body.data.documents.every((document: any) => !oldTickets.has(document.unique_identifier)) ? true : undefined), () => `order ${order.id} not reissued`);
    const after = await orderState(tenant.key, order.id);
    expectError(await confirmChange(server, tenant.key, secondChange), 409, "order_state_conflict");
    expect(await orderState(tenant.key, order.id)).toEqual(after);
  });

  it("refuses an expired change offer (422 change_offer_expired), changing nothing", async () => {
    const order = await ticketedOrder(server, tenant.key);
    const { offer } = await changeOffer(server, tenant.key, order);
    const { offer: unchosen } = await changeOffer(server, tenant.key, order);
    const change = (await createChange(server, tenant.key, offer.id)).body.data;
    const before = await orderState(tenant.key, order.id);
    setClock(new Date(Date.parse(unchosen.expires_at) + 1000));
    expectError(await confirmChange(server, tenant.key, change), 422, "change_offer_expired");
    expectError(await createChange(server, tenant.key, unchosen.id), 422, "change_offer_expired", "selected_order_change_offer");
    setClock(new Date());
    expect(await orderState(tenant.key, order.id)).toEqual(before);
    expect(await changeEntries(tenant.key, change.id)).toEqual([]);
  });

  it("refuses a wrong payment (422 naming it) and a wallet that cannot pay (402), changing nothing", async () => {
    // A live tenant whose wallet holds exactly the order's price: the change finds it empty.
    const poor = await createTenant(server, { environment: "live" });
    const [offer] = await searchForBooking(server, poor.key);
    await credit(server, poor.tenantId, offer.total_amount, offer.total_currency);
    const booked = await bookOffer(server, poor.key, offer);
    expect((await ticketOrder(server, poor.key, booked.id)).status).toBe(200);
    const order = (await waitForStatus(server, poor.key, booked.id, ["TICKETED"])).body.data;
    const { offer: costly } = await changeOffer(server, poor.key, order, { accept: (candidate) => minor(candidate.change_total_amount, candidate.change_total_currency) > 0 });
    const change = (await createChange(server, poor.key, costly.id)).body.data;
    const before = await (async () => ({ order: (await getOrder(server, poor.key, order.id)).body.data.updated_at, flights: await heldFlights(order.id), balance: (await walletBalance(server, poor.key)).minor }))();

    expectError(await confirmChange(server, poor.key, change, {}), 422, "payment_amount_mismatch", "payment");
    expectError(await confirmChange(server, poor.key, change, { payment: { type: "balance", amount: "1.00", currency: costly.change_total_currency } }), 422, "payment_amount_mismatch", "payment.amount");
    expectError(await confirmChange(server, poor.key, change), 402, "insufficient_balance");
    expect({ order: (await getOrder(server, poor.key, order.id)).body.data.updated_at, flights: await heldFlights(order.id), balance: (await walletBalance(server, poor.key)).minor }).toEqual(before);
    expect((await call(server, "GET", `/v1/air/order_changes/${change.id}`, { key: poor.key })).body.data.confirmed_at).toBeNull();
  });
});

describe("order changes over GraphQL", () => {
  const changeFields = `id orderId changeTotalAmount changeTotalCurrency penaltyTotalAmount newTotalAmount refundTo expiresAt
    slices { add { departureDate segments { marketingCarrierFlightNumber departingAt } } remove { id } }`;

  it("requests, chooses and confirms a change that gives money back (a business fare moved to economy), the wallet credited what comes back", async () => {
    const order = await ticketedOrder(server, tenant.key, { cabin: "business" });
    const [slice] = order.slices;
    let request: any;
    for (let days = 1; days <= 10 && !request?.orderChangeOffers.some((offer: any) => offer.changeTotalAmount.startsWith("-")); days++) {
      const asked = await graphql(
        server,
        `mutation Ask($input: RequestOrderChangeInput!) { requestOrderChange(input: $input) { id orderId order { id } slices { remove { sliceId } add { departureDate cabinClass } } orderChangeOffers { ${changeFields} orderChangeRequestId expired } } }`,
        { input: { orderId: order.id, slices: { remove: [{ sliceId: slice.id }], add: [{ origin: "LHR", destination: "JFK", departureDate: laterDate(slice.departure_date, days), cabinClass: "ECONOMY" }] } } },
        { key: tenant.key },
      );
      expect(asked.body.errors, JSON.stringify(asked.body.errors)).toBeUndefined();
      request = asked.body.data!.requestOrderChange;
    }
    const offer = request.orderChangeOffers.find((candidate: any) => candidate.changeTotalAmount.startsWith("-"));
    expect(offer, "an economy flight cheaper than the business fare").toBeDefined();
    expect(request.order.id).toBe(order.id);
    expect(request.slices.add[0].cabinClass).toBe("ECONOMY");
    expect(offer.penaltyTotalAmount, "Business Flex changes free").toBe("0.00");
    expect(offer.expired).toBe(false);
    const read = await graphql(server, `query Read($id: ID!) { orderChangeRequest(id: $id) { id orderChangeOffers { id changeTotalAmount } } }`, { id: request.id }, { key: tenant.key });
    expect(read.body.data!.orderChangeRequest.orderChangeOffers).toEqual(request.orderChangeOffers.map((candidate: any) => ({ id: candidate.id, changeTotalAmount: candidate.changeTotalAmount })));

    const balanceBefore = await walletBalance(server, tenant.key);
    const created = await graphql(server, `mutation Choose($offer: ID!) { createOrderChange(selectedOrderChangeOffer: $offer) { ${changeFields} orderChangeOfferId confirmedAt } }`, { offer: offer.id }, { key: tenant.key });
    const change = created.body.data!.createOrderChange;
    expect(change.confirmedAt).toBeNull();
    expect(change.changeTotalAmount).toBe(offer.changeTotalAmount);
    const confirmed = await graphql(server, `mutation Confirm($id: ID!) { confirmOrderChange(id: $id) { id confirmedAt order { totalAmount offer { slices { departureDate } } } } }`, { id: change.id }, { key: tenant.key });
    expect(confirmed.body.errors, JSON.stringify(confirmed.body.errors)).toBeUndefined();
    expect(confirmed.body.data!.confirmOrderChange.confirmedAt).not.toBeNull();
    expect(confirmed.body.data!.confirmOrderChange.order).toEqual({ totalAmount: offer.newTotalAmount, offer: { slices: [{ departureDate: offer.slices.add[0].departureDate }] } });

    const back = -minor(offer.changeTotalAmount, offer.changeTotalCurrency);
    expect((await walletBalance(server, tenant.key)).minor).toBe(balanceBefore.minor + back);
    expect((await changeEntries(tenant.key, change.id)).map((entry) => ({ type: entry.type, amount: minor(entry.amount, entry.currency) }))).toEqual([{ type: "change_credit", amount: back }]);
    const again = await graphql(server, `query Change($id: ID!) { orderChange(id: $id) { confirmedAt } }`, { id: change.id }, { key: tenant.key });
    expect(again.body.data!.orderChange.confirmedAt).toBe(confirmed.body.data!.confirmOrderChange.confirmedAt);
  });

  it("names the GraphQL argument at fault, and an unknown change is not_found", async () => {
    const order = await ticketedOrder(server, tenant.key);
    const asked = await graphql(
      server,
      `mutation Ask($input: RequestOrderChangeInput!) { requestOrderChange(input: $input) { id } }`,
      { input: { orderId: order.id, slices: { remove: [{ sliceId: "sli_unknown" }], add: [{ origin: "LHR", destination: "JFK", departureDate: laterDate(order.slices[0].departure_date, 1), cabinClass: "ECONOMY" }] } } },
      { key: tenant.key },
    );
    expectGraphQLError(asked, "invalid_field_value", { statusCode: 422, field: "slices.remove[0].sliceId" });
    const unknown = await graphql(server, `mutation Confirm($id: ID!) { confirmOrderChange(id: $id, payment: { type: BALANCE, amount: "1.00", currency: "USD" }) { id } }`, { id: "oce_unknown" }, { key: tenant.key });
    expectGraphQLError(unknown, "not_found", { statusCode: 404 });
  });
});
