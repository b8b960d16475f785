import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { findFlight, offerOnFlight, seatsLeft } from "../helpers/flights";
import { allTransactions, bookOffer, createOrderA, newKey, searchForBooking, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Races (docs/testing.md#races-and-crashes): money, seats and idempotency stay exact when many requests arrive at once,
 * whichever database serialises them (SQLite's one writer, PostgreSQL's row locks).
 */
describe("orders under concurrency", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0" } });
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  it("50 identical creates with one key make exactly one order; every other answer is its replay or 409 in progress", async () => {
    const [offer] = await searchForBooking(server, tenant.key);
    const key = newKey("race");
    const responses = await Promise.all(Array.from({ length: 50 }, () => createOrderA(server, tenant.key, offer, { idempotencyKey: key })));
    const created = responses.filter((response) => response.status === 201);
    const inProgress = responses.filter((response) => response.status === 409);
    expect(created.length + inProgress.length, JSON.stringify(responses.map((r) => r.status))).toBe(50);
    expect(created.length).toBeGreaterThanOrEqual(1);
    for (const response of inProgress) expectError(response, 409, "idempotency_request_in_progress");
    const [first] = created;
    for (const response of created) expect(response.body).toEqual(first!.body);
    expect(created.filter((response) => response.headers.get("idempotent-replayed") !== "true")).toHaveLength(1);

    const orders = await call(server, "GET", "/v1/air/orders?limit=100", { key: tenant.key });
    expect(orders.body.data.items.filter((order: any) => order.offer_id === offer.id).map((order: any) => order.id)).toEqual([first!.body.data.id]);
    // After the first finished, a repeat replays it.
    const later = await createOrderA(server, tenant.key, offer, { idempotencyKey: key });
    expect(later.status).toBe(201);
    expect(later.body).toEqual(first!.body);
  });

  it("50 ticket requests against a balance that covers 10: exactly 10 are ticketed and the balance is exact to the cent", async () => {
    const live = await createTenant(server, { environment: "live" });
    const flight = await findFlight(server, live.key, 50, 1000);
    const offers = [];
    for (let i = 0; i < 50; i++) offers.push(await offerOnFlight(server, live.key, flight));
    // Same flight, cabin and passenger: the same price for all 50.
    const total = toMinor(offers[0].total_amount, "USD");
    expect(new Set(offers.map((offer) => offer.total_amount)).size).toBe(1);
    const tenTimes = total * 10;
    const credit = await call(server, "POST", `/v1/tenants/${live.tenantId}/wallet/credits`, {
      key: server.ownerKey,
      body: { amount: `${Math.floor(tenTimes / 100)}.${String(tenTimes % 100).padStart(2, "0")}`, currency: "USD" },
    });
    expect(credit.status).toBe(201);
    // 50 unpaid holds on one flight: past a live tenant's default hold limit of 9 seats, lifted here.
    const unlimited = await call(server, "PATCH", `/v1/tenants/${live.tenantId}/wallet`, { key: server.ownerKey, body: { hold_limits: { max_unpaid_seats_per_flight: null } } });
    expect(unlimited.status).toBe(200);
    const orders = [];
    for (const offer of offers) orders.push(await bookOffer(server, live.key, offer));

    const answers = await Promise.all(orders.map((order) => ticketOrder(server, live.key, order.id)));
    const accepted = orders.filter((_order, index) => answers[index]!.status === 200);
    expect(accepted).toHaveLength(10);
    for (const answer of answers.filter((response) => response.status !== 200)) expectError(answer, 402, "insufficient_balance");
    expect((await walletBalance(server, live.key)).minor).toBe(0);

    for (const order of accepted) expect((await waitForStatus(server, live.key, order.id, ["TICKETED", "FAILED"])).body.order.status).toBe("TICKETED");
    const debits = (await allTransactions(server, live.key)).filter((entry) => entry.type === "ticketing_debit");
    expect(debits.map((entry) => entry.order_id).sort()).toEqual(accepted.map((order) => order.id).sort());
    expect(debits.every((entry) => toMinor(entry.amount.slice(1), "USD") === total)).toBe(true);
    const stillPending = await call(server, "GET", "/v1/air/orders?status=PENDING&limit=100", { key: live.key });
    expect(stillPending.body.data.pagination.total).toBe(40);
  });

  it("a race for a flight's last seats books exactly as many passengers as it has seats", async () => {
    const flight = await findFlight(server, tenant.key, 3, 8);
    const left = await seatsLeft(server, flight);
    const offers = [];
    for (let i = 0; i < left + 6; i++) offers.push(await offerOnFlight(server, tenant.key, flight));
    const answers = await Promise.all(offers.map((offer) => createOrderA(server, tenant.key, offer)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(left);
    for (const answer of answers.filter((response) => response.status !== 201)) expectError(answer, 422, "offer_no_longer_available");
    expect(await seatsLeft(server, flight)).toBe(0);
  });

  it("one order ticketed by 10 requests with different keys is debited once", async () => {
    const [offer] = await searchForBooking(server, tenant.key);
    const order = await bookOffer(server, tenant.key, offer);
    const before = await walletBalance(server, tenant.key);
    const answers = await Promise.all(Array.from({ length: 10 }, () => ticketOrder(server, tenant.key, order.id)));
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    for (const answer of answers.filter((response) => response.status !== 200)) expectError(answer, 409, "order_state_conflict");
    expect((await walletBalance(server, tenant.key)).minor).toBe(before.minor - toMinor(offer.total_amount, "USD"));
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    const entries = (await allTransactions(server, tenant.key)).filter((entry) => entry.order_id === order.id);
    expect(entries.map((entry) => entry.type)).toEqual(["ticketing_debit"]);
  });
});
