import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/clock";
import { call, createTenant, graphql, startServerWithTenant, type ApiResponse, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { localToInstant, toMinor } from "../helpers/flight-checks";
import { allTransactions, bookOffer, getOrder, newKey, searchForBooking, signedMinor, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import { ticketedOrderWithRefunds } from "../helpers/cancellations";
import type { TestServer } from "../helpers/test-server";

/**
 * Cancellation quotes (docs/rest-api.md#cancellations-with-a-quote) and an order's history: a quote changes nothing and
 * lives 15 minutes; its refund follows the fare (refundable: the total less the penalty;
 * non-refundable: the taxes; a hold: nothing); confirming cancels or refunds once, however many
 * confirmations race, and the seed's refund action agrees on the amount. The in-process server
 * shares the product clock with the test, which moves it (setClock) instead of waiting.
 * SQLite, or PostgreSQL under TEST_DATABASE_URL.
 */

const QUOTE_LIFETIME_MS = 15 * 60_000;

let server: TestServer;
let tenant: TenantFixture;

beforeAll(async () => {
  ({ server, tenant } = await startServerWithTenant({ JOB_POLL_MS: "20", TICKETING_DELAY_MS: "100" }));
});

afterAll(async () => {
  await server?.close();
});

afterEach(() => {
  setClock(new Date());
});

/** POST /v1/air/order_cancellations for `orderId`. */
function quote(orderId: string, options: { key?: string; idempotencyKey?: string } = {}): Promise<ApiResponse> {
  return call(server, "POST", "/v1/air/order_cancellations", {
    key: options.key ?? tenant.key,
    headers: options.idempotencyKey ? { "idempotency-key": options.idempotencyKey } : {},
    body: { order_id: orderId },
  });
}

/** A quote for `orderId`, asserting 201. */
async function quoted(orderId: string): Promise<any> {
  const response = await quote(orderId);
  expect(response.status, JSON.stringify(response.body)).toBe(201);
  return response.body.data;
}

function confirm(quoteId: string, key = tenant.key): Promise<ApiResponse> {
  return call(server, "POST", `/v1/air/order_cancellations/${quoteId}/actions/confirm`, { key });
}

function refund(orderId: string): Promise<ApiResponse> {
  return call(server, "POST", `/v1/air/orders/${orderId}/actions/refund`, { key: tenant.key });
}

async function pendingOrder(): Promise<any> {
  const [offer] = await searchForBooking(server, tenant.key);
  return bookOffer(server, tenant.key, offer);
}

/** A TICKETED order of a fare that allows refunds or not, with its offer. */
const ticketedOrder = (refundable: boolean) => ticketedOrderWithRefunds(server, tenant.key, refundable);

/** The order's ledger entries, as `type amount` in minor units. */
async function ledgerOf(orderId: string): Promise<string[]> {
  return (await allTransactions(server, tenant.key))
    .filter((entry) => entry.order_id === orderId)
    .map((entry) => `${entry.type} ${signedMinor(entry.amount, entry.currency)}`)
    .sort();
}

/** Everything a client could see change about an order: the order, its events, the wallet, its seats. */
async function snapshotOf(orderId: string) {
  const order = (await getOrder(server, tenant.key, orderId)).body.data;
  const events = (await call(server, "GET", `/v1/air/orders/${orderId}/events`, { key: tenant.key })).body.data.items;
  return { order, events, wallet: await walletBalance(server, tenant.key), seats: await server.db.prisma.seatHold.count({ where: { holdId: orderId } }) };
}

/** The answers' bodies are all the first one's. */
function expectSameAnswers(answers: ApiResponse[]): void {
  for (const answer of answers) expect({ status: answer.status, body: answer.body.data }, JSON.stringify(answer.body)).toEqual({ status: answers[0]!.status, body: answers[0]!.body.data });
}

describe("quoting a cancellation", () => {
  it("quotes nothing back for a hold, and changes nothing: its history only tells of the quote", async () => {
    const order = await pendingOrder();
    const before = await snapshotOf(order.id);
    const made = await quoted(order.id);
    expect(made).toEqual({
      id: expect.stringMatching(/^ore_/),
      order_id: order.id,
      refund_amount: "0.00",
      refund_currency: order.total_currency,
      refund_to: "balance",
      expires_at: new Date(Date.parse(made.created_at) + QUOTE_LIFETIME_MS).toISOString(),
      confirmed_at: null,
      created_at: expect.any(String),
    });
    const told = expect.objectContaining({ event: "order_cancellation.created", data: expect.objectContaining({ id: order.id, order_cancellation: made }) });
    expect(await snapshotOf(order.id)).toEqual({ ...before, events: [...before.events, told] });
    expect((await call(server, "GET", `/v1/air/order_cancellations/${made.id}`, { key: tenant.key })).body.data).toEqual(made);
    const listed = await call(server, "GET", `/v1/air/order_cancellations?order_id=${order.id}`, { key: tenant.key });
    expect(listed.body.data.items).toEqual([made]);
  });

  it("a refundable fare: the total less its penalty; the refund action credits the same amount", async () => {
    const { order, offer } = await ticketedOrder(true);
    const penalty = toMinor(offer.conditions.refund_before_departure.penalty_amount, offer.total_currency);
    const made = await quoted(order.id);
    const expected = Math.max(0, toMinor(order.total_amount, order.total_currency) - penalty);
    expect(toMinor(made.refund_amount, made.refund_currency)).toBe(expected);
    expect(made.refund_currency).toBe(order.total_currency);

    // The seed's one-step refund of the very same order credits what the quote said.
    expect((await refund(order.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    expect(await ledgerOf(order.id)).toEqual([`refund_credit ${expected}`, `ticketing_debit ${-toMinor(order.total_amount, order.total_currency)}`]);
    // The refund action is a quote confirmed at once: the unconfirmed quote stays as it was.
    const quotes = (await call(server, "GET", `/v1/air/order_cancellations?order_id=${order.id}`, { key: tenant.key })).body.data.items;
    expect(quotes.map((each: any) => [each.refund_amount, each.confirmed_at === null])).toEqual([[made.refund_amount, false], [made.refund_amount, true]]);
  });

  it("a non-refundable fare: its taxes only, which confirming credits (the refund action still refuses it)", async () => {
    const { order } = await ticketedOrder(false);
    expect(toMinor(order.tax_amount, order.total_currency)).toBeGreaterThan(0);
    const made = await quoted(order.id);
    expect(made.refund_amount).toBe(order.tax_amount);
    expectError(await refund(order.id), 422, "refund_not_allowed");

    const confirmed = await confirm(made.id);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data).toEqual({ ...made, confirmed_at: expect.any(String) });
    const refunded = await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    expect(refunded.body.data.refund_status).toBe("refunded");
    expect(await ledgerOf(order.id)).toEqual([`refund_credit ${toMinor(order.tax_amount, order.total_currency)}`, `ticketing_debit ${-toMinor(order.total_amount, order.total_currency)}`]);
  });

  it("refuses an order that is not pending or ticketed (409), a departed one (422), an unknown or another tenant's (404), a bad body (400)", async () => {
    const { order } = await ticketedOrder(true);
    // Departed: the first flight has left.
    const segment = order.slices[0].segments[0];
    setClock(new Date(localToInstant(segment.departing_at, segment.origin.time_zone).instantMs + 60_000));
    expectError(await quote(order.id), 422, "refund_not_allowed");
    setClock(new Date());

    // Refund under way, then refunded.
    expect((await refund(order.id)).status).toBe(200);
    expectError(await quote(order.id), 409, "order_state_conflict");
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    expectError(await quote(order.id), 409, "order_state_conflict");

    // PROCESSING: paid, the airline not yet answered (the ticket answer comes before the job runs).
    const processing = await pendingOrder();
    expect((await ticketOrder(server, tenant.key, processing.id)).body.data.ticketing_status).toBe("in_progress");
    expectError(await quote(processing.id), 409, "order_state_conflict");

    const other = await createTenant(server);
    expectError(await quote(order.id, { key: other.key }), 404, "not_found");
    expectError(await quote("ord_unknown"), 404, "not_found");
    expectError(await call(server, "POST", "/v1/air/order_cancellations", { key: tenant.key, body: { order: order.id } }), 400, "validation_failed");
    expectError(await call(server, "GET", `/v1/air/order_cancellations?order_id=${order.id}`, { key: other.key }), 404, "not_found");
    expect(await server.db.prisma.orderCancellation.count({ where: { tenantId: other.tenantId } })).toBe(0);
  });

  it("honours Idempotency-Key: a repeat answers the same quote, another body with the key is refused", async () => {
    const order = await pendingOrder();
    const idempotencyKey = newKey("quote");
    const first = await quote(order.id, { idempotencyKey });
    const again = await quote(order.id, { idempotencyKey });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.body).toEqual(first.body);
    expectError(await quote((await pendingOrder()).id, { idempotencyKey }), 422, "idempotency_key_reused");
    expect(await server.db.prisma.orderCancellation.count({ where: { orderId: order.id } })).toBe(1);
  });
});

describe("confirming a quote", () => {
  it("cancels a hold: seats released, nothing credited, the cancelled event; every repeat answers the same", async () => {
    const order = await pendingOrder();
    const made = await quoted(order.id);
    const before = await walletBalance(server, tenant.key);
    const confirmed = await confirm(made.id);
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);
    expect(confirmed.body.data).toEqual({ ...made, confirmed_at: expect.any(String) });
    const read = (await getOrder(server, tenant.key, order.id)).body.data;
    expect({ status: read.status, reason: read.cancellation_reason }).toEqual({ status: "cancelled", reason: "requested" });
    await eventually(async () => ((await server.db.prisma.seatHold.count({ where: { holdId: order.id } })) === 0 ? true : undefined), () => "seats still held");
    expect((await walletBalance(server, tenant.key)).minor).toBe(before.minor);
    expect(await ledgerOf(order.id)).toEqual([]);
    expectSameAnswers([confirmed, await confirm(made.id)]);
    expect((await call(server, "GET", `/v1/air/order_cancellations/${made.id}`, { key: tenant.key })).body.data).toEqual(confirmed.body.data);
  });

  it("an expired quote is refused with 422 cancellation_quote_expired and changes nothing; a confirmed one answers the same after", async () => {
    const order = await pendingOrder();
    const made = await quoted(order.id);
    const before = await snapshotOf(order.id);
    setClock(new Date(Date.parse(made.expires_at) + 1000));
    expectError(await confirm(made.id), 422, "cancellation_quote_expired");
    setClock(new Date());
    expect(await snapshotOf(order.id)).toEqual(before);

    const fresh = await quoted(order.id);
    const confirmed = await confirm(fresh.id);
    expect(confirmed.status).toBe(200);
    setClock(new Date(Date.parse(fresh.expires_at) + 60_000));
    expectSameAnswers([confirmed, await confirm(fresh.id)]);
  });

  it("a newer quote replaces the order's earlier one: the earlier expires then and is refused with 422 cancellation_quote_expired, changing nothing; the newer confirms", async () => {
    const { order } = await ticketedOrder(true);
    const earlier = await quoted(order.id);
    const newer = await quoted(order.id);
    const replaced = (await call(server, "GET", `/v1/air/order_cancellations/${earlier.id}`, { key: tenant.key })).body.data;
    expect(Date.parse(replaced.expires_at)).toBe(Date.parse(newer.created_at));
    const before = await snapshotOf(order.id);
    expectError(await confirm(earlier.id), 422, "cancellation_quote_expired");
    expect(await snapshotOf(order.id)).toEqual(before);
    expect((await confirm(newer.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    expect(await ledgerOf(order.id)).toEqual([`refund_credit ${toMinor(newer.refund_amount, newer.refund_currency)}`, `ticketing_debit ${-toMinor(order.total_amount, order.total_currency)}`]);
  });

  it("a quote made before the order was paid is refused once it is ticketed (409): its nothing is no longer right", async () => {
    const order = await pendingOrder();
    const made = await quoted(order.id);
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    expectError(await confirm(made.id), 409, "order_state_conflict");
    expect(await ledgerOf(order.id)).toEqual([`ticketing_debit ${-toMinor(order.total_amount, order.total_currency)}`]);
  });

  it("refuses an unknown or another tenant's quote with 404", async () => {
    const made = await quoted((await pendingOrder()).id);
    const other = await createTenant(server);
    expectError(await confirm(made.id, other.key), 404, "not_found");
    expectError(await call(server, "GET", `/v1/air/order_cancellations/${made.id}`, { key: other.key }), 404, "not_found");
    expectError(await confirm("ore_unknown"), 404, "not_found");
    expect((await call(server, "GET", `/v1/air/order_cancellations/${made.id}`, { key: tenant.key })).body.data.confirmed_at).toBeNull();
  });

  it("16 confirmations at once: one refund, one credit of the quoted amount, the same answer to all", async () => {
    const { order } = await ticketedOrder(true);
    const made = await quoted(order.id);
    const before = await walletBalance(server, tenant.key);
    const answers = await Promise.all(Array.from({ length: 16 }, () => confirm(made.id)));
    expect(answers.map((answer) => answer.status)).toEqual(Array(16).fill(200));
    expectSameAnswers(answers);
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    const credited = toMinor(made.refund_amount, made.refund_currency);
    expect(await ledgerOf(order.id)).toEqual([`refund_credit ${credited}`, `ticketing_debit ${-toMinor(order.total_amount, order.total_currency)}`]);
    expect((await walletBalance(server, tenant.key)).minor).toBe(before.minor + credited);
  });

  it("racing the refund action: one of them wins, one credit", async () => {
    const { order } = await ticketedOrder(true);
    const made = await quoted(order.id);
    const [confirmed, refunded] = await Promise.all([confirm(made.id), refund(order.id)]);
    expect([confirmed.status, refunded.status].sort(), JSON.stringify([confirmed.body, refunded.body])).toEqual([200, 409]);
    if (confirmed.status === 409) expectError(confirmed, 409, "order_state_conflict");
    else expectError(refunded, 409, "order_state_conflict");
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    expect(await ledgerOf(order.id)).toEqual([`refund_credit ${toMinor(made.refund_amount, made.refund_currency)}`, `ticketing_debit ${-toMinor(order.total_amount, order.total_currency)}`]);
  });

  it("racing the cancel action on a hold: one of them cancels it, once", async () => {
    const order = await pendingOrder();
    const made = await quoted(order.id);
    const [confirmed, cancelled] = await Promise.all([confirm(made.id), call(server, "POST", `/v1/air/orders/${order.id}/actions/cancel`, { key: tenant.key })]);
    expect([confirmed.status, cancelled.status].sort(), JSON.stringify([confirmed.body, cancelled.body])).toEqual([200, 409]);
    const events = (await call(server, "GET", `/v1/air/orders/${order.id}/events`, { key: tenant.key })).body.data.items;
    // The quote's confirmation is told only when it was the one that cancelled.
    const confirmation = confirmed.status === 200 ? ["order_cancellation.confirmed"] : [];
    expect(events.map((event: any) => event.event)).toEqual(["order.created", "order_cancellation.created", "order.cancelled", ...confirmation]);
    expect(await ledgerOf(order.id)).toEqual([]);
  });
});

describe("GraphQL", () => {
  const fields = "id orderId refundAmount refundCurrency refundTo expiresAt confirmedAt createdAt order { id status }";

  it("quoteOrderCancellation, confirmOrderCancellation, orderCancellation and orderCancellations, as REST", async () => {
    const order = await pendingOrder();
    const made = await graphql(server, `mutation($orderId: ID!) { quoteOrderCancellation(orderId: $orderId) { ${fields} } }`, { orderId: order.id }, { key: tenant.key });
    expect(made.body.errors).toBeUndefined();
    const quote = made.body.data.quoteOrderCancellation;
    expect(quote).toMatchObject({ orderId: order.id, refundAmount: "0.00", refundCurrency: order.total_currency, refundTo: "BALANCE", confirmedAt: null, order: { id: order.id, status: "PENDING" } });
    const rest = (await call(server, "GET", `/v1/air/order_cancellations/${quote.id}`, { key: tenant.key })).body.data;
    expect({ expiresAt: quote.expiresAt, createdAt: quote.createdAt }).toEqual({ expiresAt: rest.expires_at, createdAt: rest.created_at });

    const confirmation = `mutation($id: ID!, $key: String) { confirmOrderCancellation(id: $id, idempotencyKey: $key) { ${fields} } }`;
    const idempotencyKey = newKey("confirm");
    const confirmed = await graphql(server, confirmation, { id: quote.id, key: idempotencyKey }, { key: tenant.key });
    expect(confirmed.body.data.confirmOrderCancellation).toMatchObject({ id: quote.id, confirmedAt: expect.any(String), order: { status: "CANCELED" } });
    const repeated = await graphql(server, confirmation, { id: quote.id, key: idempotencyKey }, { key: tenant.key });
    expect(repeated.body.data).toEqual(confirmed.body.data);

    const read = await graphql(server, `query($id: ID!, $orderId: ID) { orderCancellation(id: $id) { id confirmedAt } unknown: orderCancellation(id: "ore_unknown") { id } orderCancellations(orderId: $orderId) { totalCount nodes { id } } }`, { id: quote.id, orderId: order.id }, { key: tenant.key });
    expect(read.body).toEqual({ data: { orderCancellation: { id: quote.id, confirmedAt: confirmed.body.data.confirmOrderCancellation.confirmedAt }, unknown: null, orderCancellations: { totalCount: 1, nodes: [{ id: quote.id }] } } });
  });

  it("an expired quote is a cancellation_quote_expired error", async () => {
    const made = await quoted((await pendingOrder()).id);
    setClock(new Date(Date.parse(made.expires_at) + 1000));
    const answer = await graphql(server, `mutation($id: ID!) { confirmOrderCancellation(id: $id) { id } }`, { id: made.id }, { key: tenant.key });
    expect(answer.body.errors?.[0]?.extensions.code).toBe("cancellation_quote_expired");
  });
});

describe("an order's history", () => {
  it("booked, paid and cancelled for a refund: its events in order, each as its webhook carried it, paged", async () => {
    const { order } = await ticketedOrder(true);
    const made = await quoted(order.id);
    expect((await confirm(made.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);

    const history = await call(server, "GET", `/v1/air/orders/${order.id}/events`, { key: tenant.key });
    expect(history.status).toBe(200);
    const items = history.body.data.items;
    expect(items.map((item: any) => item.event)).toEqual(["order.created", "order.ticketed", "order_cancellation.created", "order_cancellation.confirmed", "order.refunded"]);
    const outbox = await server.db.prisma.orderEvent.findMany({ where: { orderId: order.id } });
    expect(items).toEqual(items.map((item: any) => JSON.parse(outbox.find((row) => row.id === item.id)!.payload)));
    expect(items.map((item: any) => item.data.status)).toEqual(["pending", "confirmed", "confirmed", "confirmed", "refunded"]);
    expect(items[2].data.order_cancellation).toEqual(made);
    expect(items[3].data.order_cancellation).toMatchObject({ id: made.id, confirmed_at: expect.any(String) });
    expect(items[4].data.refund_amount).toBe(made.refund_amount);
    expect(history.body.data.pagination).toMatchObject({ total: 5, hasMore: false });

    // One at a time, following the cursors: the same events in the same order.
    const paged: any[] = [];
    let cursor: string | null = null;
    do {
      const page: ApiResponse = await call(server, "GET", `/v1/air/orders/${order.id}/events?limit=1${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key: tenant.key });
      paged.push(...page.body.data.items);
      cursor = page.body.data.pagination.nextCursor;
    } while (cursor);
    expect(paged).toEqual(items);

    const graph = await graphql(server, `query($id: ID!) { order(id: $id) { events(first: 2) { totalCount nodes { id type createdAt data } pageInfo { hasNextPage } } } }`, { id: order.id }, { key: tenant.key });
    expect(graph.body.data.order.events).toEqual({
      totalCount: 5,
      nodes: items.slice(0, 2).map((item: any) => ({ id: item.id, type: item.event, createdAt: item.created_at, data: item.data })),
      pageInfo: { hasNextPage: true },
    });
  });

  it("is the tenant's own: another tenant's or an unknown order is 404", async () => {
    const order = await pendingOrder();
    const other = await createTenant(server);
    expectError(await call(server, "GET", `/v1/air/orders/${order.id}/events`, { key: other.key }), 404, "not_found");
    expectError(await call(server, "GET", "/v1/air/orders/ord_unknown/events", { key: tenant.key }), 404, "not_found");
  });
});
