import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type ApiResponse, type TenantFixture } from "../helpers/client";
import { databaseState } from "../helpers/database-state";
import { eventually } from "../helpers/eventually";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { findFlight, offerOnFlight } from "../helpers/flights";
import { allTransactions, bookOffer, getOrder, newKey, passengersOf, searchForBooking, signedMinor, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import { seatForSale, seatMaps, seatsOfMap } from "../helpers/seat-maps";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { credit } from "../helpers/wallet";

/**
 * Services after booking (docs/rest-api.md#services-after-booking): what an order's passengers can still
 * add, adding bags and seats to a pending order (its total grows) and to a ticketed one (the
 * wallet pays at once, an EMD per service follows), the refusals, and the races the database
 * decides: one seat for two orders, one balance for two additions, a payment racing an addition.
 * SQLite, or PostgreSQL under TEST_DATABASE_URL.
 */

type PassengerType = "adult" | "child" | "infant_without_seat";
const usd = (minor: number) => (minor / 100).toFixed(2);
const minorOf = (holder: { total_amount: string; total_currency: string }) => toMinor(holder.total_amount, holder.total_currency);

describe("services after booking", () => {
  let server: TestServer;
  let alice: TenantFixture;
  let bob: TenantFixture;
  beforeAll(async () => {
    // A quick airline; a `Slow` passenger keeps an order PROCESSING for twice the lease (4 s).
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "300", JOB_POLL_MS: "50", JOB_LEASE_SECONDS: "2" } });
    alice = await createTenant(server, { name: "Alice Travel" });
    bob = await createTenant(server, { name: "Bob Trips" });
  });
  afterAll(() => server.close());

  function addServices(orderId: string, body: unknown, options: { key?: string; idempotencyKey?: string } = {}): Promise<ApiResponse> {
    return call(server, "POST", `/v1/air/orders/${orderId}/services`, { key: options.key ?? alice.key, headers: { "idempotency-key": options.idempotencyKey ?? newKey("services") }, body });
  }

  async function availableServices(orderId: string, key = alice.key): Promise<any[]> {
    const response = await call(server, "GET", `/v1/air/orders/${orderId}/available_services`, { key });
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
    return response.body.data;
  }

  /** A direct offer (one segment, one map) for `passengers`, on a flight no other test books. */
  async function directOffer(key = alice.key, passengers?: PassengerType[]): Promise<any> {
    for (let attempt = 0; attempt < 10; attempt++) {
      const found = (await searchForBooking(server, key, { passengers })).find((offer) => offer.slices[0].segments.length === 1);
      if (found) return found;
    }
    throw new Error("no direct offer");
  }

  /** A PENDING order of a direct offer. */
  async function pendingOrder(options: { key?: string; passengers?: PassengerType[]; details?: Record<string, unknown> } = {}): Promise<any> {
    const key = options.key ?? alice.key;
    const offer = await directOffer(key, options.passengers);
    return bookOffer(server, key, offer, { passengers: passengersOf(offer, options.details) });
  }

  /** A TICKETED order of a direct offer. */
  async function ticketedOrder(key = alice.key): Promise<any> {
    const order = await pendingOrder({ key });
    expect((await ticketOrder(server, key, order.id)).status).toBe(200);
    return (await waitForStatus(server, key, order.id, ["TICKETED"])).body.data;
  }

  async function usage(tenant: TenantFixture): Promise<any> {
    const response = await call(server, "GET", `/v1/tenants/${tenant.tenantId}/usage`, { key: server.ownerKey });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data;
  }

  const bagOf = (services: any[], passengerId = "p1") => services.find((service) => service.type === "baggage" && service.passenger_ids[0] === passengerId);
  const orderMap = async (orderId: string) => (await seatMaps(server, alice.key, `order_id=${orderId}`))[0];

  it("lists what the passengers can still add: the offer's bags less those booked, and seats for passengers without one", async () => {
    const offer = await directOffer(alice.key, ["adult", "adult"]);
    const offered = (await call(server, "GET", `/v1/air/offers/${offer.id}?return_available_services=true`, { key: alice.key })).body.data.available_services;
    const bag = bagOf(offered);
    const order = await bookOffer(server, alice.key, offer, {
      body: { services: [{ id: bag.id, quantity: 1 }], payments: [{ type: "balance", currency: offer.total_currency, amount: usd(minorOf(offer) + minorOf(bag)) }] },
    });

    const left = await availableServices(order.id);
    expect(left).toEqual(offered.map((service: any) => (service.id === bag.id ? { ...service, maximum_quantity: 1 } : service)));

    const seat = seatForSale(await orderMap(order.id));
    const added = await addServices(order.id, { add_services: [{ id: seat.service.id }, { id: bag.id, quantity: 1 }] });
    expect(added.status, JSON.stringify(added.body).slice(0, 500)).toBe(201);
    const now = await availableServices(order.id);
    expect(now.map((service) => service.id)).toEqual(offered.filter((service: any) => service.id !== bag.id && !(service.type === "seat" && service.passenger_ids[0] === "p1")).map((service: any) => service.id));

    expectError(await call(server, "GET", `/v1/air/orders/ord_nope/available_services`, { key: alice.key }), 404, "not_found");
    expectError(await call(server, "GET", `/v1/air/orders/${order.id}/available_services`, { key: bob.key }), 404, "not_found");
  });

  it("adds a bag and a seat to a pending order: its total grows (taxes stay), one event, and the payment of the new total covers them", async () => {
    const order = await pendingOrder();
    const balance = await walletBalance(server, alice.key);
    const bag = bagOf(await availableServices(order.id));
    const seat = seatForSale(await orderMap(order.id));

    const response = await addServices(order.id, { add_services: [{ id: bag.id, quantity: 2 }, { id: seat.service.id, quantity: 1 }] });
    expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(201);
    const added = response.body.data;
    const servicesTotal = 2 * minorOf(bag) + minorOf(seat.service);
    expect(minorOf(added)).toBe(minorOf(order) + servicesTotal);
    expect(added.tax_amount).toBe(order.tax_amount);
    expect(toMinor(added.base_amount, added.base_currency) + toMinor(added.tax_amount, added.tax_currency)).toBe(minorOf(added));
    expect(added.status).toBe("pending");
    expect(added.services).toEqual([
      { id: bag.id, type: "baggage", quantity: 2, total_amount: usd(2 * minorOf(bag)), total_currency: bag.total_currency, passenger_ids: ["p1"], segment_ids: bag.segment_ids, designator: null },
      { id: seat.service.id, type: "seat", quantity: 1, total_amount: seat.service.total_amount, total_currency: seat.service.total_currency, passenger_ids: ["p1"], segment_ids: [seat.segmentId], designator: seat.designator },
    ]);
    const { offer: _booked, ...read } = (await getOrder(server, alice.key, order.id)).body.data;
    expect(read).toEqual(added);
    // Nothing is paid yet; the seat is taken.
    expect((await walletBalance(server, alice.key)).minor).toBe(balance.minor);
    expect(seatsOfMap(await orderMap(order.id)).find((candidate) => candidate.designator === seat.designator).available_services).toEqual([]);

    const events = await server.db.prisma.orderEvent.findMany({ where: { orderId: order.id }, orderBy: { id: "asc" } });
    expect(events.map((event) => event.type)).toEqual(["order.created", "order.services_added"]);
    const { data } = JSON.parse(events[1]!.payload);
    expect({ status: data.status, total: data.total_amount, addition: data.service_addition }).toEqual({
      status: "pending",
      total: added.total_amount,
      addition: { id: expect.stringMatching(/^osa_/), services: added.services, total_amount: usd(servicesTotal), total_currency: added.total_currency, paid_at: null },
    });

    const paid = await call(server, "POST", "/v1/air/payments", {
      key: alice.key,
      headers: { "idempotency-key": newKey("pay") },
      body: { order_id: order.id, payment: { type: "balance", amount: added.total_amount, currency: added.total_currency } },
    });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    const ticketed = (await waitForStatus(server, alice.key, order.id, ["TICKETED"])).body.data;
    // Paid with the order: its e-ticket covers them, no EMD.
    expect(ticketed.documents.map((document: any) => document.type)).toEqual(["electronic_ticket"]);
    expect((await walletBalance(server, alice.key)).minor).toBe(balance.minor - minorOf(added));
  });

  it("on a ticketed order the wallet pays at once (services_debit), and the airline issues an EMD per service after its delay", async () => {
    const order = await ticketedOrder();
    const before = await walletBalance(server, alice.key);
    const usageBefore = await usage(alice);
    const bag = bagOf(await availableServices(order.id));
    const seat = seatForSale(await orderMap(order.id));
    const total = minorOf(bag) + minorOf(seat.service);
    const body = (amount: string) => ({ add_services: [{ id: bag.id, quantity: 1 }, { id: seat.service.id, quantity: 1 }], payment: { type: "balance", amount, currency: bag.total_currency } });

    expectError(await addServices(order.id, body(usd(total + 1))), 422, "payment_amount_mismatch", "payment.amount");
    const response = await addServices(order.id, body(usd(total)));
    expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(201);
    const added = response.body.data;
    expect({ status: added.status, total: minorOf(added), tax: added.tax_amount }).toEqual({ status: "confirmed", total: minorOf(order) + total, tax: order.tax_amount });

    const entries = (await allTransactions(server, alice.key)).filter((entry) => entry.order_id === order.id);
    const debits = entries.filter((entry) => entry.type === "services_debit");
    expect(debits.map((entry) => signedMinor(entry.amount, entry.currency))).toEqual([-total]);
    expect(debits[0].reference).toMatch(/^osa_/);
    const after = await walletBalance(server, alice.key);
    expect(after.minor).toBe(before.minor - total);
    expect((await allTransactions(server, alice.key)).reduce((sum, entry) => sum + signedMinor(entry.amount, entry.currency), 0)).toBe(after.minor);

    const documents = await eventually(
      async () => {
        const read = (await getOrder(server, alice.key, order.id)).body.data.documents;
        return read.length === 3 ? read : undefined;
      },
      () => "EMDs not issued",
    );
    const emds = documents.filter((document: any) => document.type === "electronic_miscellaneous_document");
    expect(emds).toHaveLength(2);
    for (const emd of emds) {
      expect(emd.unique_identifier).toMatch(/^\d{13}$/);
      expect(emd.passenger_id).toBe("p1");
      const read = await call(server, "GET", emd.url, { key: alice.key });
      expect({ status: read.status, type: read.body.data.type }).toEqual({ status: 200, type: "electronic_miscellaneous_document" });
    }
    expect(new Set(documents.map((document: any) => document.unique_identifier)).size).toBe(3);
    // Usage: EMDs are no tickets; what the services cost is spent.
    const usageAfter = await usage(alice);
    expect({ tickets: usageAfter.tickets, spent: toMinor(usageAfter.walletSpend.amount, usageAfter.walletSpend.currency) }).toEqual({
      tickets: usageBefore.tickets,
      spent: toMinor(usageBefore.walletSpend.amount, usageBefore.walletSpend.currency) + total,
    });
    expect(await server.db.prisma.orderJob.count({ where: { orderId: order.id, kind: "emd" } })).toBe(0);
    expect((await server.db.prisma.orderServiceAddition.findMany({ where: { orderId: order.id } })).map((row) => [Number(row.totalAmount), row.paidAt !== null])).toEqual([[total, true]]);
  });

  it("refuses services the order does not offer and quantities out of range with 422 naming the field, changing nothing", async () => {
    const order = await pendingOrder({ passengers: ["adult", "adult"] });
    const other = await pendingOrder();
    const bag = bagOf(await availableServices(order.id));
    const map = await orderMap(order.id);
    const seat = seatForSale(map);
    const secondSeat = seatForSale(map, "p1", [seat.designator]);
    const sameSeatForP2 = seatsOfMap(map).find((candidate) => candidate.designator === seat.designator).available_services.find((service: any) => service.passenger_id === "p2");
    const foreignBag = bagOf(await availableServices(other.id));
    const foreignSeat = seatForSale(await orderMap(other.id));
    const before = await databaseState(server);

    const refusals: Array<[unknown, number, string, string | undefined]> = [
      [{ add_services: [{ id: foreignBag.id }] }, 422, "invalid_field_value", "add_services[0].id"],
      [{ add_services: [{ id: bag.id }, { id: foreignSeat.service.id }] }, 422, "invalid_field_value", "add_services[1].id"],
      [{ add_services: [{ id: "ase_nosuchservice" }] }, 422, "invalid_field_value", "add_services[0].id"],
      [{ add_services: [{ id: bag.id, quantity: 0 }] }, 422, "invalid_field_value", "add_services[0].quantity"],
      [{ add_services: [{ id: bag.id, quantity: 3 }] }, 422, "invalid_field_value", "add_services[0].quantity"],
      [{ add_services: [{ id: seat.service.id, quantity: 2 }] }, 422, "invalid_field_value", "add_services[0].quantity"],
      [{ add_services: [{ id: bag.id }, { id: bag.id }] }, 422, "invalid_field_value", "add_services[1].id"],
      [{ add_services: [{ id: seat.service.id }, { id: secondSeat.service.id }] }, 422, "invalid_field_value", "add_services[1].id"],
      [{ add_services: [{ id: seat.service.id }, { id: sameSeatForP2.id }] }, 422, "seat_unavailable", "add_services[1].id"],
      [{ add_services: [{ id: bag.id }], payment: { type: "balance", amount: bag.total_amount, currency: bag.total_currency } }, 422, "invalid_field_value", "payment"],
      [{ add_services: [] }, 400, "validation_failed", "add_services"],
      [{ services: [{ id: bag.id }] }, 400, "validation_failed", undefined],
      [{ add_services: [{ id: bag.id, quantity: 1.5 }] }, 400, "validation_failed", "add_services[0].quantity"],
    ];
    for (const [body, status, code, field] of refusals) expectError(await addServices(order.id, body), status, code, field);
    expectError(await call(server, "POST", `/v1/air/orders/${order.id}/services`, { key: alice.key, body: { add_services: [{ id: bag.id }] } }), 400, "idempotency_key_required");
    expectError(await addServices("ord_nope", { add_services: [{ id: bag.id }] }), 404, "not_found");
    expectError(await addServices(order.id, { add_services: [{ id: bag.id }] }, { key: bob.key }), 404, "not_found");
    expect(await databaseState(server)).toEqual(before);

    // A seat already held for the passenger, from the booking or an addition, is not sold twice.
    expect((await addServices(order.id, { add_services: [{ id: seat.service.id }] })).status).toBe(201);
    expectError(await addServices(order.id, { add_services: [{ id: secondSeat.service.id }] }), 422, "invalid_field_value", "add_services[0].id");
    expectError(await addServices(order.id, { add_services: [{ id: bag.id, quantity: 2 }, { id: sameSeatForP2.id }] }), 422, "seat_unavailable", "add_services[1].id");
  });

  it("answers 409 order_state_conflict for an order that takes no services: processing, failed, cancelled", async () => {
    const processing = await pendingOrder({ details: { family_name: "Slow" } });
    const failed = await pendingOrder({ details: { family_name: "Rejected" } });
    const cancelled = await pendingOrder();
    const bags = new Map(await Promise.all([processing, failed, cancelled].map(async (order) => [order.id, bagOf(await availableServices(order.id))] as const)));
    expect((await ticketOrder(server, alice.key, failed.id)).status).toBe(200);
    expect((await call(server, "POST", `/v1/air/orders/${cancelled.id}/actions/cancel`, { key: alice.key })).status).toBe(200);
    await waitForStatus(server, alice.key, failed.id, ["FAILED"]);
    // Last: the airline takes 4 s to answer a Slow passenger, so the order is PROCESSING meanwhile.
    expect((await ticketOrder(server, alice.key, processing.id)).status).toBe(200);
    for (const order of [processing, failed, cancelled]) {
      expectError(await addServices(order.id, { add_services: [{ id: bags.get(order.id).id }] }), 409, "order_state_conflict");
      expect(await availableServices(order.id)).toEqual([]);
    }
  });

  it("replays an addition sent again with its Idempotency-Key, paying once; another body under the key is refused", async () => {
    const order = await ticketedOrder();
    const bag = bagOf(await availableServices(order.id));
    const idempotencyKey = newKey("services-once");
    const first = await addServices(order.id, { add_services: [{ id: bag.id }] }, { idempotencyKey });
    expect(first.status).toBe(201);
    const again = await addServices(order.id, { add_services: [{ id: bag.id }] }, { idempotencyKey });
    expect({ status: again.status, replayed: again.headers.get("idempotent-replayed"), body: again.body }).toEqual({ status: 201, replayed: "true", body: first.body });
    expectError(await addServices(order.id, { add_services: [{ id: bag.id, quantity: 2 }] }, { idempotencyKey }), 422, "idempotency_key_reused");
    const debits = (await allTransactions(server, alice.key)).filter((entry) => entry.order_id === order.id && entry.type === "services_debit");
    expect(debits).toHaveLength(1);
  });

  it("gives a seat to exactly one of ten orders adding it at once; cancelling, or failing, the order that has it frees it", async () => {
    const flight = await findFlight(server, alice.key, 12, 400);
    const orders: any[] = [];
    for (let index = 0; index < 11; index++) orders.push(await bookOffer(server, alice.key, await offerOnFlight(server, alice.key, flight)));
    const { designator } = seatForSale(await orderMap(orders[0].id));
    const serviceOf = async (order: any) => seatsOfMap(await orderMap(order.id)).find((seat) => seat.designator === designator).available_services.find((service: any) => service.passenger_id === "p1");
    const services = await Promise.all(orders.map(serviceOf));
    expect(services.every(Boolean)).toBe(true);

    const responses = await Promise.all(orders.slice(0, 10).map((order, index) => addServices(order.id, { add_services: [{ id: services[index].id }] })));
    const winners = responses.flatMap((response, index) => (response.status === 201 ? [orders[index]] : []));
    expect(winners).toHaveLength(1);
    for (const response of responses.filter((candidate) => candidate.status !== 201)) expectError(response, 422, "seat_unavailable", "add_services[0].id");
    const last = orders[10];
    expect(await serviceOf(last)).toBeUndefined();

    expect((await call(server, "POST", `/v1/air/orders/${winners[0].id}/actions/cancel`, { key: alice.key })).status).toBe(200);
    expect(await serviceOf(last)).toEqual(services[10]);

    // The seat added to an order whose ticketing the airline rejects goes back on sale with its other seats.
    const rejected = await bookOffer(server, alice.key, await offerOnFlight(server, alice.key, flight), { passengers: [{ ...passengersOf({ passengers: [{ id: "p1", type: "adult" }] })[0], family_name: "Rejected" }] });
    expect((await addServices(rejected.id, { add_services: [{ id: (await serviceOf(rejected)).id }] })).status).toBe(201);
    expect(await serviceOf(last)).toBeUndefined();
    expect((await ticketOrder(server, alice.key, rejected.id)).status).toBe(200);
    await waitForStatus(server, alice.key, rejected.id, ["FAILED"]);
    expect(await serviceOf(last)).toEqual(services[10]);
  });

  it("with a balance for one of three concurrent additions to a ticketed order, exactly one is paid and the ledger agrees", async () => {
    const live = await createTenant(server, { name: "Live Agency", environment: "live" });
    const offer = await directOffer(live.key);
    await credit(server, live.tenantId, offer.total_amount);
    const order = await bookOffer(server, live.key, offer);
    expect((await ticketOrder(server, live.key, order.id)).status).toBe(200);
    await waitForStatus(server, live.key, order.id, ["TICKETED"]);
    const bag = bagOf(await availableServices(order.id, live.key));
    await credit(server, live.tenantId, bag.total_amount);

    const responses = await Promise.all([0, 1, 2].map(() => addServices(order.id, { add_services: [{ id: bag.id }] }, { key: live.key })));
    expect(responses.map((response) => response.status).sort()).toEqual([201, 402, 402]);
    for (const response of responses.filter((candidate) => candidate.status === 402)) expectError(response, 402, "insufficient_balance");

    const entries = await allTransactions(server, live.key);
    expect(entries.filter((entry) => entry.type === "services_debit").map((entry) => signedMinor(entry.amount, entry.currency))).toEqual([-minorOf(bag)]);
    const wallet = await walletBalance(server, live.key);
    expect(wallet.minor).toBe(0);
    expect(entries.reduce((sum, entry) => sum + signedMinor(entry.amount, entry.currency), 0)).toBe(wallet.minor);
    const read = (await getOrder(server, live.key, order.id)).body.data;
    expect({ services: read.services.length, total: minorOf(read) }).toEqual({ services: 1, total: minorOf(order) + minorOf(bag) });
  });

  it("a payment racing an addition pays the total it read, or nothing: never less than the order costs", async () => {
    const orders = await Promise.all([0, 1, 2, 3, 4, 5].map(() => pendingOrder()));
    const bags = await Promise.all(orders.map(async (order) => bagOf(await availableServices(order.id))));
    const outcomes = await Promise.all(
      orders.map(async (order, index) => {
        const [added, ticketed] = await Promise.all([addServices(order.id, { add_services: [{ id: bags[index].id }] }), ticketOrder(server, alice.key, order.id)]);
        return { order, added: added.status, ticketed: ticketed.status };
      }),
    );
    const entries = await allTransactions(server, alice.key);
    for (const { order, added, ticketed } of outcomes) {
      // Either the addition came first (and the ticket paid the new total, or found it changed), or the payment did (and the order took no services).
      expect([201, 409]).toContain(added);
      expect([200, 422]).toContain(ticketed);
      const read = (await getOrder(server, alice.key, order.id)).body.data;
      const debits = entries.filter((entry) => entry.order_id === order.id && entry.type === "ticketing_debit").map((entry) => -signedMinor(entry.amount, entry.currency));
      expect(debits, order.id).toEqual(ticketed === 200 ? [minorOf(read)] : []);
      expect(read.services.length, order.id).toBe(added === 201 ? 1 : 0);
    }
  });

  it("GraphQL: orderAvailableServices and addOrderServices, with a seat from seatMaps(orderId)", async () => {
    const order = await pendingOrder();
    const listed = await graphql(server, `query Left($orderId: ID!) { orderAvailableServices(orderId: $orderId) { id type totalAmount totalCurrency maximumQuantity passengerIds segmentIds } }`, { orderId: order.id }, { key: alice.key });
    expect(listed.body.errors).toBeUndefined();
    const rest = await availableServices(order.id);
    expect(listed.body.data.orderAvailableServices.map((service: any) => [service.id, service.totalAmount, service.maximumQuantity])).toEqual(rest.map((service) => [service.id, service.total_amount, service.maximum_quantity]));
    const bag = listed.body.data.orderAvailableServices.find((service: any) => service.type === "baggage");

    const maps = await graphql(
      server,
      `query Maps($orderId: ID) { seatMaps(orderId: $orderId) { segmentId cabins { rows { sections { elements { type designator availableServices { id passengerId totalAmount } } } } } } }`,
      { orderId: order.id },
      { key: alice.key },
    );
    const seat = maps.body.data.seatMaps[0].cabins
      .flatMap((cabin: any) => cabin.rows.flatMap((row: any) => row.sections.flatMap((section: any) => section.elements)))
      .find((element: any) => element.type === "SEAT" && element.availableServices.length > 0);
    const mutation = `mutation Add($input: AddOrderServicesInput!, $key: String!) { addOrderServices(input: $input, idempotencyKey: $key) { status totalAmount taxAmount services { type designator quantity totalAmount } } }`;

    const refused = await graphql(server, mutation, { key: newKey("gql-services"), input: { orderId: order.id, addServices: [{ id: "ase_nosuchservice" }] } }, { key: alice.key });
    expectGraphQLError(refused, "invalid_field_value", { field: "addServices[0].id" });

    const added = await graphql(server, mutation, { key: newKey("gql-services"), input: { orderId: order.id, addServices: [{ id: bag.id, quantity: 2 }, { id: seat.availableServices[0].id }] } }, { key: alice.key });
    expect(added.body.errors, JSON.stringify(added.body.errors)).toBeUndefined();
    const total = minorOf(order) + 2 * toMinor(bag.totalAmount, bag.totalCurrency) + toMinor(seat.availableServices[0].totalAmount, order.total_currency);
    expect(added.body.data.addOrderServices).toEqual({
      status: "PENDING",
      totalAmount: usd(total),
      taxAmount: order.tax_amount,
      services: [
        { type: "baggage", designator: null, quantity: 2, totalAmount: usd(2 * toMinor(bag.totalAmount, bag.totalCurrency)) },
        { type: "seat", designator: seat.designator, quantity: 1, totalAmount: seat.availableServices[0].totalAmount },
      ],
    });
  });
});
