import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, startServerWithTenant, type ApiResponse, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { localToInstant, minorDigits, toMinor } from "../helpers/flight-checks";
import { confirmChange, createChange, laterDate, requestChange } from "../helpers/order-changes";
import { allTransactions, bookOffer, createOrderA, flightsOfOffer, freshFlights, getOrder, searchForBooking, signedMinor, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import { seatForSale, seatMaps } from "../helpers/seat-maps";
import { findFlight, offerOnFlight } from "../helpers/flights";
import type { TestServer } from "../helpers/test-server";

/**
 * Airline-initiated changes (docs/rest-api.md#airline-initiated-changes): the sandbox trigger makes the airline
 * retime or cancel a ticketed order's first flight; each of the tenant's ticketed orders on it
 * gains a change and the event order.airline_initiated_change_detected. Accepting takes the added
 * slices (seats moved, a seat on a cancelled flight given back, once); cancelling is a quote that
 * refunds the whole total; changing is a change request without penalty. Acting twice answers
 * the same, racing answers leave one. SQLite, or PostgreSQL under TEST_DATABASE_URL.
 */

const RETIME_MINUTES = 125;
/** A retimed local time the clocks repeat moves on by whole hours (at most 3), as the timetable does. */
const RETIME_SHIFTS = [0, 1, 2, 3].map((hours) => (RETIME_MINUTES + 60 * hours) * 60_000);

let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  ({ server, tenant } = await startServerWithTenant({ JOB_POLL_MS: "20", TICKETING_DELAY_MS: "100" }));
});

afterAll(async () => {
  await server?.close();
});

function simulate(orderId: string, kind: string, key = tenant.key): Promise<ApiResponse> {
  return call(server, "POST", `/v1/sandbox/orders/${orderId}/airline_initiated_change`, { key, body: { kind } });
}

/** The order's change made by the trigger (asserting 201); the flights it adds are kept from other bookings of the suite. */
async function simulated(orderId: string, kind: "retime" | "cancel_flight"): Promise<any> {
  const response = await simulate(orderId, kind);
  expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(201);
  freshFlights([{ slices: response.body.data.added }], flightsOfOffer);
  return response.body.data;
}

function accept(changeId: string, key = tenant.key): Promise<ApiResponse> {
  return call(server, "POST", `/v1/air/airline_initiated_changes/${changeId}/actions/accept`, { key });
}

function quote(orderId: string): Promise<ApiResponse> {
  return call(server, "POST", "/v1/air/order_cancellations", { key: tenant.key, body: { order_id: orderId } });
}

function confirmQuote(quoteId: string): Promise<ApiResponse> {
  return call(server, "POST", `/v1/air/order_cancellations/${quoteId}/actions/confirm`, { key: tenant.key });
}

const segmentsOf = (offer: any): any[] => offer.slices.flatMap((slice: any) => slice.segments);

/** A fresh direct offer (LHR → JFK economy) that `pick` accepts. */
async function directOffer(pick: (offer: any) => boolean = () => true): Promise<any> {
  for (let attempt = 0; attempt < 20; attempt++) {
    const found = (await searchForBooking(server, tenant.key)).find((offer) => segmentsOf(offer).length === 1 && pick(offer));
    if (found) return found;
  }
  throw new Error("no direct offer that fits");
}

/** Books and tickets the offer (with `services` paid with it), returning the TICKETED order. */
async function ticketed(offer: any, services: any[] = []): Promise<any> {
  const extra = services.reduce((sum, service) => sum + toMinor(service.total_amount, service.total_currency), 0);
  const total = toMinor(offer.total_amount, offer.total_currency) + extra;
  const booked = services.length === 0 ? await bookOffer(server, tenant.key, offer) : await bookWith(offer, services, total);
  expect((await ticketOrder(server, tenant.key, booked.id)).status).toBe(200);
  return (await waitForStatus(server, tenant.key, booked.id, ["TICKETED"])).body.data;
}

async function bookWith(offer: any, services: any[], total: number): Promise<any> {
  const digits = minorDigits(offer.total_currency);
  const amount = (total / 10 ** digits).toFixed(digits);
  const response = await createOrderA(server, tenant.key, offer, {
    body: { services: services.map((service) => ({ id: service.id, quantity: 1 })), payments: [{ type: "balance", currency: offer.total_currency, amount }] },
  });
  expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(201);
  return response.body.data;
}

async function orderNow(orderId: string, key = tenant.key): Promise<any> {
  const response = await getOrder(server, key, orderId);
  expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
  return response.body.data;
}

async function eventsOf(orderId: string): Promise<any[]> {
  return (await call(server, "GET", `/v1/air/orders/${orderId}/events?limit=100`, { key: tenant.key })).body.data.items;
}

/** The flights (keys) the airline holds seats on for the order. */
async function heldFlights(orderId: string): Promise<string[]> {
  return (await server.db.prisma.seatHold.findMany({ where: { holdId: orderId }, orderBy: { flightKey: "asc" } })).map((hold) => hold.flightKey);
}

/** The flights (keys) the order's slices fly (test setup reads the stored order). */
async function orderFlights(orderId: string): Promise<string[]> {
  const row = await server.db.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
  return (row.offerSnapshot as any).payload.slices.flatMap((slice: any) => slice.segments.map((segment: any) => segment.flightKey)).sort();
}

/** The order's ledger entries, as `type amount` in minor units. */
async function ledgerOf(orderId: string): Promise<string[]> {
  return (await allTransactions(server, tenant.key))
    .filter((entry) => entry.order_id === orderId)
    .map((entry) => `${entry.type} ${signedMinor(entry.amount, entry.currency)}`)
    .sort();
}

const instantOf = (local: string, place: any) => localToInstant(local, place.time_zone).instantMs;

describe("the sandbox trigger", () => {
  it("retimes the first flight: the order gains a change with the same flight later, and the event is sent", async () => {
    const order = await ticketed(await directOffer());
    const change = await simulated(order.id, "retime");

    expect(change).toMatchObject({ id: expect.stringMatching(/^aic_/), order_id: order.id, action_taken: null, action_taken_at: null, available_actions: ["accept", "cancel", "change"] });
    expect(change.removed).toEqual(order.slices);
    const [before] = order.slices[0].segments;
    const [after] = change.added[0].segments;
    expect({ ...after, departing_at: undefined, arriving_at: undefined }).toEqual({ ...before, departing_at: undefined, arriving_at: undefined });
    const shift = instantOf(after.departing_at, after.origin) - instantOf(before.departing_at, before.origin);
    expect(RETIME_SHIFTS).toContain(shift);
    expect(instantOf(after.arriving_at, after.destination) - instantOf(before.arriving_at, before.destination)).toBe(shift);
    expect(change.added[0]).toMatchObject({ id: order.slices[0].id, departure_date: after.departing_at.slice(0, 10), duration: order.slices[0].duration });

    const now = await orderNow(order.id);
    expect(now.airline_initiated_changes).toEqual([change]);
    expect(now.slices).toEqual(order.slices);
    const detected = (await eventsOf(order.id)).filter((event) => event.event === "order.airline_initiated_change_detected");
    expect(detected).toHaveLength(1);
    expect(detected[0].data).toMatchObject({ id: order.id, status: "confirmed", airline_initiated_change: { id: change.id, available_actions: ["accept", "cancel", "change"] } });
  });

  it("cancels the first flight: the airline proposes its route on a later day", async () => {
    const order = await ticketed(await directOffer());
    const change = await simulated(order.id, "cancel_flight");
    expect(change.removed).toEqual(order.slices);
    const [replacement] = change.added;
    expect(replacement.id).not.toBe(order.slices[0].id);
    expect([replacement.origin.iata_code, replacement.destination.iata_code]).toEqual([order.slices[0].origin.iata_code, order.slices[0].destination.iata_code]);
    expect([1, 2, 3].map((days) => laterDate(order.slices[0].departure_date, days))).toContain(replacement.departure_date);
    expect(replacement.segments.every((segment: any) => segment.marketing_carrier.iata_code === order.slices[0].segments[0].marketing_carrier.iata_code)).toBe(true);
  });

  it("changes every ticketed order of the tenant on the flight", async () => {
    const flight = await findFlight(server, tenant.key, 20, 1000);
    const orders = [];
    for (let index = 0; index < 2; index++) orders.push(await ticketed(await offerOnFlight(server, tenant.key, flight)));
    const change = await simulated(orders[0].id, "retime");
    const other = await orderNow(orders[1].id);
    expect(other.airline_initiated_changes).toHaveLength(1);
    expect(other.airline_initiated_changes[0]).toMatchObject({ order_id: orders[1].id, action_taken: null });
    expect(other.airline_initiated_changes[0].added[0].segments[0].departing_at).toBe(change.added[0].segments[0].departing_at);
    expect((await eventsOf(orders[1].id)).map((event) => event.event)).toContain("order.airline_initiated_change_detected");
  });

  it("refuses what it cannot do, changing nothing", async () => {
    const live = await createTenant(server, { environment: "live" });
    expectError(await simulate("ord_whatever", "retime", live.key), 404, "route_not_found");

    const [offer] = await searchForBooking(server, tenant.key);
    const pending = await bookOffer(server, tenant.key, offer);
    expectError(await simulate(pending.id, "retime"), 409, "order_state_conflict");
    expectError(await simulate(pending.id, "delay"), 400, "validation_failed", "kind");
    expect((await orderNow(pending.id)).airline_initiated_changes).toEqual([]);

    const order = await ticketed(await directOffer());
    const change = await simulated(order.id, "retime");
    expectError(await simulate(order.id, "cancel_flight"), 409, "order_state_conflict");

    const stranger = await createTenant(server);
    expectError(await simulate(order.id, "retime", stranger.key), 404, "not_found");
    expectError(await accept(change.id, stranger.key), 404, "not_found");
    expectError(await accept("aic_neverexisted"), 404, "not_found");
    expect((await orderNow(order.id)).airline_initiated_changes).toEqual([change]);
  });
});

describe("accepting", () => {
  it("gives the order the retimed flight, keeps its seats, emits order.changed, and answers the same twice", async () => {
    const order = await ticketed(await directOffer());
    const change = await simulated(order.id, "retime");
    const held = await heldFlights(order.id);
    const wallet = await walletBalance(server, tenant.key);

    const accepted = await accept(change.id);
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toEqual({ ...change, action_taken: "accepted", action_taken_at: expect.any(String), available_actions: [], updated_at: accepted.body.data.action_taken_at });
    const now = await orderNow(order.id);
    expect(now.slices).toEqual(change.added);
    expect(now.airline_initiated_changes).toEqual([accepted.body.data]);
    expect(now.total_amount).toBe(order.total_amount);
    expect(await heldFlights(order.id)).toEqual(held);
    expect(await walletBalance(server, tenant.key)).toEqual(wallet);
    const changed = (await eventsOf(order.id)).filter((event) => event.event === "order.changed");
    expect(changed.map((event) => event.data)).toEqual([expect.objectContaining({ airline_initiated_change_id: change.id, change_total_amount: "0.00" })]);

    const again = await accept(change.id);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(accepted.body.data);
    expect((await eventsOf(order.id)).filter((event) => event.event === "order.changed")).toHaveLength(1);
  });

  it("moves the seats to the replacement flight and gives back a seat chosen on the cancelled one, once", async () => {
    const offer = await directOffer();
    const [map] = await seatMaps(server, tenant.key, `offer_id=${offer.id}`);
    const seat = seatForSale(map);
    const order = await ticketed(offer, [seat.service]);
    const seatPrice = toMinor(seat.service.total_amount, seat.service.total_currency);
    const oldFlights = await orderFlights(order.id);
    const change = await simulated(order.id, "cancel_flight");
    const before = await walletBalance(server, tenant.key);

    const answers = await Promise.all([accept(change.id), accept(change.id), accept(change.id)]);
    for (const answer of answers) expect({ status: answer.status, data: answer.body.data }).toEqual({ status: 200, data: answers[0]!.body.data });
    const now = await orderNow(order.id);
    expect(now.slices).toEqual(change.added);
    expect(now.services.filter((service: any) => service.type === "seat")).toEqual([]);
    expect(toMinor(now.total_amount, now.total_currency)).toBe(toMinor(order.total_amount, order.total_currency) - seatPrice);
    const newFlights = await orderFlights(order.id);
    expect(newFlights).not.toEqual(oldFlights);
    expect(await heldFlights(order.id)).toEqual(newFlights);
    expect(await server.db.prisma.seatAssignment.count({ where: { holdId: order.id } })).toBe(0);
    const credited = seatPrice === 0 ? [] : [`change_credit ${seatPrice}`];
    expect((await ledgerOf(order.id)).filter((entry) => entry.startsWith("change_credit"))).toEqual(credited);
    expect((await walletBalance(server, tenant.key)).minor).toBe(before.minor + seatPrice);
  });
});

describe("cancelling and changing", () => {
  it("quotes the whole total while the change is open, refunds it once, and records the change cancelled", async () => {
    const order = await ticketed(await directOffer((offer) => !offer.conditions.refund_before_departure.allowed));
    const total = toMinor(order.total_amount, order.total_currency);
    const earlier = (await quote(order.id)).body.data;
    expect(toMinor(earlier.refund_amount, earlier.refund_currency)).toBeLessThan(total);

    const change = await simulated(order.id, "retime");
    expectError(await confirmQuote(earlier.id), 409, "order_state_conflict");
    const full = (await quote(order.id)).body.data;
    expect(full.refund_amount).toBe(order.total_amount);
    expect((await confirmQuote(full.id)).status).toBe(200);
    expect((await confirmQuote(full.id)).body.data.confirmed_at).not.toBeNull();

    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    expect((await ledgerOf(order.id)).filter((entry) => entry.startsWith("refund_credit"))).toEqual([`refund_credit ${total}`]);
    const [answered] = (await orderNow(order.id)).airline_initiated_changes;
    expect(answered).toMatchObject({ id: change.id, action_taken: "cancelled", available_actions: [] });
    expectError(await accept(change.id), 409, "order_state_conflict");
  });

  it("asks a change without penalty while the change is open, and records the change changed", async () => {
    const hasPenalty = (offer: any) => !offer.conditions.change_before_departure.allowed || toMinor(offer.conditions.change_before_departure.penalty_amount, offer.total_currency) > 0;
    const order = await ticketed(await directOffer(hasPenalty));
    const change = await simulated(order.id, "retime");

    const offers = await eventually(async () => {
      for (let days = 1; days <= 10; days++) {
        const asked = await requestChange(server, tenant.key, order, laterDate(order.slices[0].departure_date, days));
        expect(asked.status, JSON.stringify(asked.body).slice(0, 300)).toBe(201);
        if (asked.body.data.order_change_offers.length > 0) return asked.body.data.order_change_offers as any[];
      }
      return undefined;
    }, () => "no change offer in the 10 days after departure");
    expect(offers.map((offer) => offer.penalty_total_amount)).toEqual(offers.map(() => "0.00"));

    const made = await createChange(server, tenant.key, offers[0].id);
    expect(made.status, JSON.stringify(made.body)).toBe(201);
    const confirmed = await confirmChange(server, tenant.key, made.body.data);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    const [answered] = (await orderNow(order.id)).airline_initiated_changes;
    expect(answered).toMatchObject({ id: change.id, action_taken: "changed", available_actions: [] });
    expectError(await accept(change.id), 409, "order_state_conflict");
  });
});

describe("racing answers", () => {
  it("five acceptances of one change at once all answer the accepted change; the airline moves the seats once", async () => {
    const order = await ticketed(await directOffer());
    const change = await simulated(order.id, "cancel_flight");
    const before = await ledgerOf(order.id);

    const answers = await Promise.all(Array.from({ length: 5 }, () => accept(change.id)));
    for (const answer of answers) expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    expect(new Set(answers.map((answer) => JSON.stringify(answer.body.data))).size, "one answer").toBe(1);
    expect((await orderNow(order.id)).slices).toEqual(change.added);
    expect(await heldFlights(order.id)).toEqual(await orderFlights(order.id));
    expect(await ledgerOf(order.id)).toEqual(before);
    expect((await eventsOf(order.id)).filter((event) => event.event === "order.changed")).toHaveLength(1);
  });


  it.each([1, 2])("accept against a full refund's confirmation (round %i): one of them, and the money moves once", async () => {
    const order = await ticketed(await directOffer());
    const total = toMinor(order.total_amount, order.total_currency);
    const change = await simulated(order.id, "cancel_flight");
    const full = (await quote(order.id)).body.data;

    const [accepted, cancelled] = await Promise.all([accept(change.id), confirmQuote(full.id)]);
    expect([accepted.status, cancelled.status].sort()).toEqual([200, 409]);
    const [answered] = (await orderNow(order.id)).airline_initiated_changes;
    if (accepted.status === 200) {
      expect(answered.action_taken).toBe("accepted");
      expect((await orderNow(order.id)).slices).toEqual(change.added);
      expect(await ledgerOf(order.id)).not.toContainEqual(expect.stringMatching(/^refund_credit/));
    } else {
      expect(answered.action_taken).toBe("cancelled");
      await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
      expect((await ledgerOf(order.id)).filter((entry) => entry.startsWith("refund_credit"))).toEqual([`refund_credit ${total}`]);
    }
  });
});

describe("GraphQL", () => {
  const CHANGE_FIELDS = "id orderId actionTaken actionTakenAt availableActions removed { id } added { id departureDate segments { id departingAt } } order { id }";

  it("simulates, shows on the order, and accepts", async () => {
    const order = await ticketed(await directOffer());
    const made = await graphql(server, `mutation ($orderId: ID!) { simulateAirlineInitiatedChange(orderId: $orderId, kind: RETIME) { ${CHANGE_FIELDS} } }`, { orderId: order.id }, { key: tenant.key });
    expect(made.body.errors, JSON.stringify(made.body)).toBeUndefined();
    const change = made.body.data.simulateAirlineInitiatedChange;
    expect(change).toMatchObject({ orderId: order.id, actionTaken: null, actionTakenAt: null, availableActions: ["ACCEPT", "CANCEL", "CHANGE"], removed: [{ id: order.slices[0].id }], order: { id: order.id } });

    const read = await graphql(server, `query ($id: ID!) { order(id: $id) { airlineInitiatedChanges { ${CHANGE_FIELDS} } } }`, { id: order.id }, { key: tenant.key });
    expect(read.body.data.order.airlineInitiatedChanges).toEqual([change]);

    const accepted = await graphql(server, `mutation ($id: ID!) { acceptAirlineInitiatedChange(id: $id, idempotencyKey: "aic-gql-accept") { ${CHANGE_FIELDS} order { offer { slices { segments { departingAt } } } } } }`, { id: change.id }, { key: tenant.key });
    expect(accepted.body.errors, JSON.stringify(accepted.body)).toBeUndefined();
    const answer = accepted.body.data.acceptAirlineInitiatedChange;
    expect(answer).toMatchObject({ id: change.id, actionTaken: "ACCEPTED", availableActions: [] });
    expect(answer.order.offer.slices[0].segments[0].departingAt).toBe(change.added[0].segments[0].departingAt);

    const live = await createTenant(server, { environment: "live" });
    const refused = await graphql(server, `mutation { simulateAirlineInitiatedChange(orderId: "${order.id}", kind: CANCEL_FLIGHT) { id } }`, {}, { key: live.key });
    expectGraphQLError(refused, "route_not_found", { statusCode: 404 });
  });
});
