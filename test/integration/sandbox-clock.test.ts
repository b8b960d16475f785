import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { bookOffer, createOrderA, getOrder, searchForBooking, ticketOrder } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

/**
 * A sandbox tenant's own clock (docs/sandbox-clock.md): moved ahead, it makes holds lapse, offers
 * and quotes expire and the airline's delays pass at once, for that tenant alone. SQLite, or
 * PostgreSQL under TEST_DATABASE_URL.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

describe("sandbox clock", () => {
  let server: TestServer;
  let receiver: Receiver;

  beforeAll(async () => {
    receiver = await startReceiver();
    // The airline takes a minute to ticket: only a clock moved ahead sees it done within a test.
    server = await startTestServer({ env: { TICKETING_DELAY_MS: String(MINUTE_MS), WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } });
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const clockOf = async (tenant: TenantFixture) => (await call(server, "GET", "/v1/sandbox/clock", { key: tenant.key })).body.data;
  const advance = (tenant: TenantFixture, body: Record<string, unknown>) => call(server, "POST", "/v1/sandbox/clock/advance", { key: tenant.key, body });
  const reset = (tenant: TenantFixture) => call(server, "POST", "/v1/sandbox/clock/reset", { key: tenant.key });

  it("reads real time until moved; moves ahead by seconds or to an instant, never back", async () => {
    const tenant = await createTenant(server);
    const before = Date.now();
    const first = await clockOf(tenant);
    expect(first.offset_seconds).toBe(0);
    expect(Date.parse(first.now)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(first.now)).toBeLessThanOrEqual(Date.now());

    const moved = await advance(tenant, { seconds: 3600 });
    expect(moved.status).toBe(200);
    expect(moved.body.data.offset_seconds).toBe(3600);
    expect(Date.parse(moved.body.data.now) - Date.now()).toBeGreaterThan(HOUR_MS - 5_000);

    const target = new Date(Date.parse(moved.body.data.now) + 2 * 86_400_000);
    const to = await advance(tenant, { to: target.toISOString() });
    expect(to.status).toBe(200);
    expect(Date.parse(to.body.data.now)).toBeGreaterThanOrEqual(target.getTime());
    expect(Date.parse(to.body.data.now) - target.getTime()).toBeLessThan(5_000);
    expect((await clockOf(tenant)).offset_seconds).toBe(to.body.data.offset_seconds);

    expectError(await advance(tenant, { to: new Date(Date.parse(to.body.data.now) - MINUTE_MS).toISOString() }), 422, "invalid_field_value", "to");
    expectError(await advance(tenant, { seconds: 0 }), 422, "invalid_field_value", "seconds");
    expectError(await advance(tenant, { seconds: -5 }), 422, "invalid_field_value", "seconds");
    expectError(await advance(tenant, { seconds: 20 * 366 * 86_400 }), 422, "invalid_field_value", "seconds");
    expect((await advance(tenant, { seconds: 60, to: target.toISOString() })).status).toBe(400);
    expect((await advance(tenant, {})).status).toBe(400);
    expect((await advance(tenant, { seconds: 1.5 })).status).toBe(400);
    expect((await advance(tenant, { to: "tomorrow" })).status).toBe(400);
    expect((await clockOf(tenant)).offset_seconds).toBe(to.body.data.offset_seconds);
  });

  it("advances racing each other: each moves the clock by what it asked; an instant another has passed is 422 as it would be after it", async () => {
    const tenant = await createTenant(server);
    const bySeconds = await Promise.all([3600, 7200, 60, 86_400].map((seconds) => advance(tenant, { seconds })));
    expect(bySeconds.map((answer) => answer.status)).toEqual([200, 200, 200, 200]);
    expect((await clockOf(tenant)).offset_seconds).toBe(3600 + 7200 + 60 + 86_400);

    const now = Date.parse((await clockOf(tenant)).now);
    const instants = [now + HOUR_MS, now + 3 * HOUR_MS, now + 2 * HOUR_MS];
    const byInstant = await Promise.all(instants.map((to) => advance(tenant, { to: new Date(to).toISOString() })));
    // The furthest instant always moves the clock; the others move it, or find it already past them.
    expect(byInstant[1]!.status).toBe(200);
    for (const answer of byInstant) if (answer.status !== 200) expectError(answer, 422, "invalid_field_value", "to");
    const after = await clockOf(tenant);
    expect(Date.parse(after.now)).toBeGreaterThanOrEqual(now + 3 * HOUR_MS);
    expect(Date.parse(after.now) - (now + 3 * HOUR_MS)).toBeLessThan(5_000);
    expect(byInstant[1]!.body.data.offset_seconds).toBe(after.offset_seconds);
  });

  it("is 404 route_not_found for a live tenant, on all three paths", async () => {
    const live = await createTenant(server, { environment: "live" });
    expectError(await call(server, "GET", "/v1/sandbox/clock", { key: live.key }), 404, "route_not_found");
    expectError(await advance(live, { seconds: 60 }), 404, "route_not_found");
    expectError(await reset(live), 404, "route_not_found");
    const gql = await graphql(server, "{ sandboxClock { offsetSeconds } }", {}, { key: live.key });
    expect(gql.body.errors?.[0]?.extensions?.code).toBe("route_not_found");
  });

  it("a hold whose deadline the clock passes is cancelled by the time the advance answers, and order.cancelled is delivered", async () => {
    const tenant = await createTenant(server);
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: receiver.url, webhook_enabled: true } })).status).toBe(200);
    const [offer] = await searchForBooking(server, tenant.key);
    const order = await bookOffer(server, tenant.key, offer);
    const deadline = Date.parse(order.payment_status.payment_required_by);
    expect((await advance(tenant, { to: new Date(deadline - MINUTE_MS).toISOString() })).status).toBe(200);
    expect((await getOrder(server, tenant.key, order.id)).body.data.status).toBe("pending");

    expect((await advance(tenant, { to: new Date(deadline + 1000).toISOString() })).status).toBe(200);
    const read = (await getOrder(server, tenant.key, order.id)).body.data;
    expect(read).toMatchObject({ status: "cancelled", cancellation_reason: "payment_deadline_passed" });
    expect(read.available_actions).toEqual([]);
    const [hook] = await receiver.waitFor(order.id, "order.cancelled");
    // The event is dated on the tenant's clock; its delivery's timestamp is real time (receivers check it against theirs).
    expect(Date.parse(hook!.json.created_at)).toBeGreaterThanOrEqual(deadline);
    expect(Number(hook!.headers["webhook-timestamp"]) * 1000).toBeLessThan(Date.now() + 5_000);
  });

  it("the airline's ticketing delay passes at once; expired offers and quotes are refused on the tenant's time", async () => {
    const tenant = await createTenant(server);
    const [toTicket, toExpire] = await searchForBooking(server, tenant.key, { atLeast: 2 });
    const order = await bookOffer(server, tenant.key, toTicket);
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    expect((await getOrder(server, tenant.key, order.id)).body.data.ticketing_status).toBe("in_progress");
    expect((await advance(tenant, { seconds: 61 })).status).toBe(200);
    expect((await getOrder(server, tenant.key, order.id)).body.data.status).toBe("confirmed");

    const quote = await call(server, "POST", "/v1/air/order_cancellations", { key: tenant.key, body: { order_id: order.id } });
    expect(quote.status).toBe(201);
    expect((await advance(tenant, { to: new Date(Date.parse(quote.body.data.expires_at) + 1000).toISOString() })).status).toBe(200);
    expectError(await call(server, "POST", `/v1/air/order_cancellations/${quote.body.data.id}/actions/confirm`, { key: tenant.key }), 422, "cancellation_quote_expired");

    expect((await advance(tenant, { to: new Date(Date.parse(toExpire.expires_at) + 1000).toISOString() })).status).toBe(200);
    expectError(await createOrderA(server, tenant.key, toExpire), 422, "offer_no_longer_available");
  });

  it("runs one tenant's clock ahead while another's keeps real time; dates on sale follow each tenant's day", async () => {
    const ahead = await createTenant(server);
    const real = await createTenant(server);
    await advance(ahead, { seconds: 3 * 86_400 });
    const [aheadOffer] = await searchForBooking(server, ahead.key);
    const [realOffer] = await searchForBooking(server, real.key);
    const aheadOrder = await bookOffer(server, ahead.key, aheadOffer);
    const realOrder = await bookOffer(server, real.key, realOffer);
    expect(Date.parse(aheadOrder.created_at) - Date.now()).toBeGreaterThan(3 * 86_400_000 - 60_000);
    expect(Math.abs(Date.parse(realOrder.created_at) - Date.now())).toBeLessThan(60_000);
    expect((await clockOf(real)).offset_seconds).toBe(0);

    // Tomorrow (at the origin, in real time) is in the past for the tenant three days ahead.
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    const search = (tenant: TenantFixture) =>
      call(server, "POST", "/v1/air/search", { key: tenant.key, body: { slices: [{ origin: "LHR", destination: "JFK", departure_date: tomorrow }], passengers: [{ type: "adult" }] } });
    expectError(await search(ahead), 400, "invalid_search_params", "slices[0].departure_date");
    expect((await search(real)).status).toBe(200);
  });

  it("resets to real time only with no pending order; what was priced on the moved clock is removed", async () => {
    const tenant = await createTenant(server);
    await advance(tenant, { seconds: 3600 });
    const [offer, unbooked] = await searchForBooking(server, tenant.key, { atLeast: 2 });
    const order = await bookOffer(server, tenant.key, offer);
    expectError(await reset(tenant), 409, "clock_reset_refused");
    expect((await call(server, "POST", `/v1/air/orders/${order.id}/actions/cancel`, { key: tenant.key })).status).toBe(200);

    const done = await reset(tenant);
    expect(done.status).toBe(200);
    expect(done.body.data.offset_seconds).toBe(0);
    expect(Math.abs(Date.parse(done.body.data.now) - Date.now())).toBeLessThan(5_000);
    expect((await clockOf(tenant)).offset_seconds).toBe(0);
    expectError(await call(server, "GET", `/v1/air/offers/${unbooked.id}`, { key: tenant.key }), 404, "not_found");
    // The order booked on the moved clock keeps its dates.
    expect((await getOrder(server, tenant.key, order.id)).body.data.status).toBe("cancelled");
  });

  it("has GraphQL twins: sandboxClock, advanceSandboxClock, resetSandboxClock", async () => {
    const tenant = await createTenant(server);
    const read = await graphql(server, "{ sandboxClock { now offsetSeconds } }", {}, { key: tenant.key });
    expect(read.body.data.sandboxClock.offsetSeconds).toBe(0);
    const moved = await graphql(server, "mutation($input: AdvanceSandboxClockInput!) { advanceSandboxClock(input: $input) { now offsetSeconds } }", { input: { seconds: 120 } }, { key: tenant.key });
    expect(moved.body.data.advanceSandboxClock.offsetSeconds).toBe(120);
    const back = await graphql(server, "mutation($input: AdvanceSandboxClockInput!) { advanceSandboxClock(input: $input) { offsetSeconds } }", { input: { to: new Date().toISOString() } }, { key: tenant.key });
    expect(back.body.errors?.[0]?.extensions).toMatchObject({ code: "invalid_field_value", field: "to" });
    const done = await graphql(server, "mutation { resetSandboxClock { offsetSeconds } }", {}, { key: tenant.key });
    expect(done.body.data.resetSandboxClock.offsetSeconds).toBe(0);
  });
});
