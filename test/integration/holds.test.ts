import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/clock";
import { call, createTenant, startServerWithTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { credit } from "../helpers/wallet";
import { localToInstant, toMinor } from "../helpers/flight-checks";
import { allTransactions, bookOffer, flightsOfOffer, getOrder, newKey, searchForBooking, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

/**
 * Holds (docs/rest-api.md#holds-and-payments): every order's payment_status, the deadline rules (ORDER_HOLD_SECONDS,
 * never later than 24 h before departure, 15 minutes within it), and the durable job that
 * cancels an unpaid hold at its deadline. The in-process server shares the product clock with
 * the test, so the test moves it (setClock) instead of waiting.
 */

const HOUR_MS = 3_600_000;
const HOLD_SECONDS = 86_400;

let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  ({ server, tenant } = await startServerWithTenant({ JOB_POLL_MS: "50" }));
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  setClock(new Date());
});

/** The first flight's departure instant of a Variant A offer or order. */
function firstDepartureMs(offerOrOrder: any): number {
  const segment = offerOrOrder.slices[0].segments[0];
  return localToInstant(segment.departing_at, segment.origin.time_zone).instantMs;
}

/** Books an offer of the same first flight as `offer`, searched again now (the product clock may have moved). */
async function bookSameFlightNow(offer: any): Promise<any> {
  const [flight] = flightsOfOffer(offer);
  // Its local departure date, as days from today's (UTC) date, which is how searchForBooking counts them.
  const departureDate = offer.slices[0].segments[0].departing_at.slice(0, 10);
  const days = Math.round((Date.parse(departureDate) - Date.parse(new Date().toISOString().slice(0, 10))) / (24 * HOUR_MS));
  const again = await searchForBooking(server, tenant.key, { reuseFlights: true, days });
  const match = again.find((candidate) => flightsOfOffer(candidate).length === 1 && JSON.stringify(flightsOfOffer(candidate)[0]) === JSON.stringify(flight));
  expect(match, "the same flight is still on sale").toBeDefined();
  return bookOffer(server, tenant.key, match);
}

/** An offer of one direct flight, departing some weeks ahead. */
async function directOffer(): Promise<any> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const direct = (await searchForBooking(server, tenant.key)).find((offer) => flightsOfOffer(offer).length === 1);
    if (direct) return direct;
  }
  throw new Error("no direct offer");
}

describe("payment_status", () => {
  it("a new order awaits payment for ORDER_HOLD_SECONDS, its price guaranteed until the offer expires", async () => {
    const [offer] = await searchForBooking(server, tenant.key);
    const order = await bookOffer(server, tenant.key, offer);
    expect(order.payment_status).toEqual({
      awaiting_payment: true,
      payment_required_by: new Date(Date.parse(order.created_at) + HOLD_SECONDS * 1000).toISOString(),
      price_guarantee_expires_at: offer.expires_at,
      paid_at: null,
    });
    expect(order.cancellation_reason).toBeNull();
    const read = await getOrder(server, tenant.key, order.id);
    expect(read.body.data.payment_status).toEqual(order.payment_status);
  });

  it("never later than 24 h before the first departure", async () => {
    const offer = await directOffer();
    const departure = firstDepartureMs(offer);
    setClock(new Date(departure - 30 * HOUR_MS));
    const order = await bookSameFlightNow(offer);
    expect(order.payment_status.payment_required_by).toBe(new Date(departure - 24 * HOUR_MS).toISOString());
  });

  it("booked within 24 h of departure: 15 minutes to pay", async () => {
    const offer = await directOffer();
    setClock(new Date(firstDepartureMs(offer) - 20 * HOUR_MS));
    const order = await bookSameFlightNow(offer);
    expect(order.payment_status.payment_required_by).toBe(new Date(Date.parse(order.created_at) + 15 * 60_000).toISOString());
  });

  it("paid: no longer awaiting payment, paid_at set", async () => {
    const [offer] = await searchForBooking(server, tenant.key);
    const order = await bookOffer(server, tenant.key, offer);
    const ticketed = await ticketOrder(server, tenant.key, order.id);
    expect(ticketed.status).toBe(200);
    expect(ticketed.body.data.payment_status).toEqual({ awaiting_payment: false, payment_required_by: null, price_guarantee_expires_at: null, paid_at: expect.any(String) });
    expect(Date.parse(ticketed.body.data.payment_status.paid_at)).toBeGreaterThanOrEqual(Date.parse(order.created_at));
  });

  it("GraphQL Order.paymentStatus and cancellationReason", async () => {
    const [offer] = await searchForBooking(server, tenant.key);
    const order = await bookOffer(server, tenant.key, offer);
    const cancelled = await call(server, "POST", `/v1/air/orders/${order.id}/actions/cancel`, { key: tenant.key });
    expect(cancelled.body.data.cancellation_reason).toBe("requested");
    const response = await call(server, "POST", "/graphql", {
      key: tenant.key,
      body: { query: `query($id: ID!) { order(id: $id) { cancellationReason paymentStatus { awaitingPayment paymentRequiredBy priceGuaranteeExpiresAt paidAt } } }`, variables: { id: order.id } },
    });
    expect(response.body).toEqual({
      data: { order: { cancellationReason: "requested", paymentStatus: { awaitingPayment: false, paymentRequiredBy: null, priceGuaranteeExpiresAt: null, paidAt: null } } },
    });
  });
});

/** The order's outbox events, oldest first. */
async function eventsOf(orderId: string): Promise<Array<{ event: string; data: any }>> {
  const rows = await server.db.prisma.orderEvent.findMany({ where: { orderId }, orderBy: { id: "asc" } });
  return rows.map((row) => JSON.parse(row.payload));
}

describe("the payment deadline", () => {
  it("cancels an unpaid hold once, with its reason and event, and gives its seats back", async () => {
    const [offer] = await searchForBooking(server, tenant.key);
    const order = await bookOffer(server, tenant.key, offer);
    expect(await server.db.prisma.seatHold.count({ where: { holdId: order.id } })).toBeGreaterThan(0);

    setClock(new Date(Date.parse(order.payment_status.payment_required_by) + 1000));
    const cancelled = await eventually(
      async () => {
        const read = await getOrder(server, tenant.key, order.id);
        return read.body.data.status === "cancelled" ? read.body.data : undefined;
      },
      () => `order ${order.id} not cancelled at its deadline`,
    );
    expect(cancelled.cancellation_reason).toBe("payment_deadline_passed");
    expect(cancelled.payment_status.awaiting_payment).toBe(false);
    const events = await eventsOf(order.id);
    expect(events.map((event) => event.event)).toEqual(["order.created", "order.cancelled"]);
    expect(events[1]!.data.cancellation_reason).toBe("payment_deadline_passed");
    await eventually(async () => ((await server.db.prisma.seatHold.count({ where: { holdId: order.id } })) === 0 ? true : undefined), () => "seats still held");
    expect(await server.db.prisma.orderJob.count({ where: { orderId: order.id } })).toBe(0);

    const late = await ticketOrder(server, tenant.key, order.id);
    expectError(late, 409, "order_state_conflict");
  });

  it("leaves a paid order alone: its job only goes", async () => {
    const [offer] = await searchForBooking(server, tenant.key);
    const order = await bookOffer(server, tenant.key, offer);
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    setClock(new Date(Date.parse(order.payment_status.payment_required_by) + 1000));
    await eventually(async () => ((await server.db.prisma.orderJob.count({ where: { orderId: order.id, kind: "payment_deadline" } })) === 0 ? true : undefined), () => "deadline job still queued");
    const read = await getOrder(server, tenant.key, order.id);
    expect(read.body.data.status).not.toBe("cancelled");
    expect((await eventsOf(order.id)).map((event) => event.event)).not.toContain("order.cancelled");
  });
});

/** POST /v1/air/payments for `order`, paying `amount` (its total by default). */
function pay(order: any, overrides: { amount?: string; currency?: string; orderId?: string; idempotencyKey?: string; key?: string } = {}) {
  return call(server, "POST", "/v1/air/payments", {
    key: overrides.key ?? tenant.key,
    headers: { "idempotency-key": overrides.idempotencyKey ?? newKey("pay") },
    body: { order_id: overrides.orderId ?? order.id, payment: { type: "balance", amount: overrides.amount ?? order.total_amount, currency: overrides.currency ?? order.total_currency } },
  });
}

async function bookedOrder(): Promise<any> {
  const [offer] = await searchForBooking(server, tenant.key);
  return bookOffer(server, tenant.key, offer);
}

describe("POST /v1/air/payments", () => {
  it("pays the total from the wallet and starts ticketing, as the ticket action does; a replay answers the same", async () => {
    const order = await bookedOrder();
    const before = await walletBalance(server, tenant.key);
    const idempotencyKey = newKey("pay");
    const paid = await pay(order, { idempotencyKey });
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data).toEqual({ id: expect.stringMatching(/^pay_/), order_id: order.id, type: "balance", amount: order.total_amount, currency: order.total_currency, created_at: expect.any(String) });
    const read = (await getOrder(server, tenant.key, order.id)).body.data;
    expect(read.ticketing_status).toBe("in_progress");
    expect(read.payment_status).toMatchObject({ awaiting_payment: false, paid_at: paid.body.data.created_at });
    expect((await walletBalance(server, tenant.key)).minor).toBe(before.minor - toMinor(order.total_amount, order.total_currency));
    const debit = (await allTransactions(server, tenant.key)).find((entry) => entry.order_id === order.id && entry.type === "ticketing_debit");
    expect(debit.reference).toBe(paid.body.data.id);

    const replay = await pay(order, { idempotencyKey });
    expect(replay.status).toBe(201);
    expect(replay.headers.get("idempotent-replayed")).toBe("true");
    expect(replay.body).toEqual(paid.body);
    expect((await walletBalance(server, tenant.key)).minor).toBe(before.minor - toMinor(order.total_amount, order.total_currency));
    await waitForStatus(server, tenant.key, order.id, ["TICKETED", "FAILED"]);
  });

  it("refuses a wrong amount or currency (422), an unknown or foreign order (404), and changes nothing", async () => {
    const order = await bookedOrder();
    const before = await walletBalance(server, tenant.key);
    expectError(await pay(order, { amount: "1.00" }), 422, "payment_amount_mismatch", "payment.amount");
    expectError(await pay(order, { currency: order.total_currency === "EUR" ? "USD" : "EUR" }), 422, "payment_amount_mismatch", "payment.amount");
    expectError(await pay(order, { orderId: "ord_nothing" }), 404, "not_found");
    const other = await createTenant(server);
    expectError(await pay(order, { key: other.key }), 404, "not_found");
    expect((await walletBalance(server, tenant.key)).minor).toBe(before.minor);
    expect((await getOrder(server, tenant.key, order.id)).body.data.payment_status.awaiting_payment).toBe(true);
  });

  it("402 insufficient_balance when the wallet cannot cover it, and nothing changes", async () => {
    // A live wallet starts empty: credited enough to book either of two orders, it pays only one.
    const live = await createTenant(server, { environment: "live" });
    const offers = (await searchForBooking(server, live.key)).slice(0, 2);
    expect(offers).toHaveLength(2);
    const [dearer, cheaper] = [...offers].sort((a, b) => toMinor(b.total_amount, b.total_currency) - toMinor(a.total_amount, a.total_currency));
    await credit(server, live.tenantId, dearer.total_amount, dearer.total_currency);
    const first = await bookOffer(server, live.key, dearer);
    const second = await bookOffer(server, live.key, cheaper);
    expect((await pay(first, { key: live.key })).status).toBe(201);
    expectError(await pay(second, { key: live.key }), 402, "insufficient_balance");
    expect((await getOrder(server, live.key, second.id)).body.data.payment_status.awaiting_payment).toBe(true);
    expect((await walletBalance(server, live.key)).minor).toBe(0);
  });

  it("409 order_state_conflict for a paid, cancelled or expired order", async () => {
    const paidOrder = await bookedOrder();
    expect((await pay(paidOrder)).status).toBe(201);
    expectError(await pay(paidOrder), 409, "order_state_conflict");

    const cancelled = await bookedOrder();
    await call(server, "POST", `/v1/air/orders/${cancelled.id}/actions/cancel`, { key: tenant.key });
    expectError(await pay(cancelled), 409, "order_state_conflict");

    const expired = await bookedOrder();
    await server.db.prisma.orderJob.deleteMany({ where: { orderId: expired.id, kind: "payment_deadline" } });
    setClock(new Date(Date.parse(expired.payment_status.payment_required_by) + 1000));
    expectError(await pay(expired), 409, "order_state_conflict");
  });

  it("GraphQL payOrder pays as the REST route does", async () => {
    const order = await bookedOrder();
    const response = await call(server, "POST", "/graphql", {
      key: tenant.key,
      body: {
        query: `mutation($input: PayOrderInput!, $key: String!) { payOrder(input: $input, idempotencyKey: $key) { id orderId type amount currency order { status paymentStatus { awaitingPayment } } } }`,
        variables: { key: newKey("gql-pay"), input: { orderId: order.id, payment: { type: "BALANCE", amount: order.total_amount, currency: order.total_currency } } },
      },
    });
    expect(response.body.errors).toBeUndefined();
    expect(response.body.data.payOrder).toEqual({
      id: expect.stringMatching(/^pay_/),
      orderId: order.id,
      type: "BALANCE",
      amount: order.total_amount,
      currency: order.total_currency,
      order: { status: "PROCESSING", paymentStatus: { awaitingPayment: false } },
    });
  });
});

describe("after the price guarantee", () => {
  it("the airline prices the order again: the old total is 422 price_changed naming the new one, which then pays", async () => {
    const order = await bookedOrder();
    setClock(new Date(Date.parse(order.payment_status.price_guarantee_expires_at) + 1000));
    const stale = await pay(order);
    expectError(stale, 422, "price_changed", "payment.amount");
    const repriced = (await getOrder(server, tenant.key, order.id)).body.data;
    expect(toMinor(repriced.total_amount, repriced.total_currency)).toBeGreaterThan(toMinor(order.total_amount, order.total_currency));
    expect(repriced.tax_amount).toBe(order.tax_amount);
    expect(JSON.stringify(stale.body)).toContain(repriced.total_amount);
    expectError(await pay(order), 422, "price_changed", "payment.amount");

    const paid = await pay(repriced);
    expect(paid.status, JSON.stringify(paid.body)).toBe(201);
    expect(paid.body.data.amount).toBe(repriced.total_amount);
  });

  it("the ticket action finding the move is 422 price_changed too; asked again, it pays the new total", async () => {
    const order = await bookedOrder();
    setClock(new Date(Date.parse(order.payment_status.price_guarantee_expires_at) + 1000));
    expectError(await ticketOrder(server, tenant.key, order.id), 422, "price_changed");
    const repriced = (await getOrder(server, tenant.key, order.id)).body.data;
    const before = await walletBalance(server, tenant.key);
    const ticketed = await ticketOrder(server, tenant.key, order.id);
    expect(ticketed.status).toBe(200);
    expect(ticketed.body.data.total_amount).toBe(repriced.total_amount);
    expect((await walletBalance(server, tenant.key)).minor).toBe(before.minor - toMinor(repriced.total_amount, repriced.total_currency));
  });

  it("within the guarantee the price never moves", async () => {
    const order = await bookedOrder();
    setClock(new Date(Date.parse(order.payment_status.price_guarantee_expires_at) - 5000));
    expect((await pay(order)).status).toBe(201);
  });
});
