import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { bookOffer, getOrder, searchForBooking } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";
import { startTwoServers, type TwoServers } from "../helpers/two-servers";

/**
 * A sandbox tenant's clock (docs/sandbox-clock.md) with two server processes on one PostgreSQL
 * database: moved on one, it is the tenant's time on the other at once, and the hold deadline it
 * passes is run by whichever process claims it, dated on the tenant's clock. Another tenant's
 * time is untouched on both. Only meaningful on PostgreSQL.
 */

const DAY_MS = 86_400_000;

describe("a sandbox clock shared by two processes on one PostgreSQL database", { timeout: 120_000 }, () => {
  let servers: TwoServers;
  let a: TestServer;
  let b: TestServer;
  let ahead: TenantFixture;
  let real: TenantFixture;

  beforeAll(async () => {
    servers = await startTwoServers({ JOB_POLL_MS: "50" });
    ({ a, b } = servers);
    ahead = await createTenant(a);
    real = await createTenant(a);
  });
  afterAll(() => servers?.close());

  const offsetOn = async (server: TestServer, tenant: TenantFixture) => (await call(server, "GET", "/v1/sandbox/clock", { key: tenant.key })).body.data.offset_seconds;

  it("moved on one process, is the tenant's time on the other; another tenant keeps real time on both", async () => {
    // Both processes have the tenants cached before the move.
    for (const server of [a, b]) for (const tenant of [ahead, real]) expect(await offsetOn(server, tenant)).toBe(0);
    expect((await call(a, "POST", "/v1/sandbox/clock/advance", { key: ahead.key, body: { seconds: 2 * 86_400 } })).status).toBe(200);
    await eventually(async () => ((await offsetOn(b, ahead)) === 2 * 86_400 ? true : undefined), () => "process B does not see the moved clock");
    const [offer] = await searchForBooking(b, ahead.key);
    const order = await bookOffer(b, ahead.key, offer);
    expect(Date.parse(order.created_at) - Date.now()).toBeGreaterThan(2 * DAY_MS - 60_000);
    expect(await offsetOn(b, real)).toBe(0);
    expect(await offsetOn(a, real)).toBe(0);
  });

  it("a hold booked on one process lapses when the clock is moved on the other, dated on the tenant's clock", async () => {
    const [offer] = await searchForBooking(b, ahead.key);
    const order = await bookOffer(b, ahead.key, offer);
    const deadline = Date.parse(order.payment_status.payment_required_by);
    expect((await call(a, "POST", "/v1/sandbox/clock/advance", { key: ahead.key, body: { to: new Date(deadline + 1000).toISOString() } })).status).toBe(200);
    expect((await getOrder(a, ahead.key, order.id)).body.data).toMatchObject({ status: "cancelled", cancellation_reason: "payment_deadline_passed" });
    await eventually(async () => ((await getOrder(b, ahead.key, order.id)).body.data.status === "cancelled" ? true : undefined), () => "process B does not read the order cancelled");
    const event = await a.db.prisma.orderEvent.findFirstOrThrow({ where: { orderId: order.id, type: "order.cancelled" } });
    expect(event.createdAt.getTime()).toBeGreaterThanOrEqual(deadline);
  });
});
