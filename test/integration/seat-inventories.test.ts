import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { findFlight, isOffered, offerOnFlight, seatHoldsOf, seatsLeft, type FlightChoice } from "../helpers/flights";
import { bookOffer, createOrderA } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Sandbox and live tenants book separate inventories of every flight: pending
 * orders never expire yet, so a sandbox tenant holding every seat of a flight must not stop a
 * live tenant selling it, and a live tenant selling out leaves the sandbox its own seats. SQLite,
 * or PostgreSQL under TEST_DATABASE_URL.
 */
describe("sandbox and live seat inventories", () => {
  let server: TestServer;
  let sandbox: TenantFixture;
  let live: TenantFixture;

  beforeAll(async () => {
    server = await startTestServer();
    sandbox = await createTenant(server, { environment: "sandbox" });
    live = await createTenant(server, { environment: "live" });
    // Live wallets start empty; booking needs the balance to cover each order (nothing is debited before ticketing).
    const credited = await call(server, "POST", `/v1/tenants/${live.tenantId}/wallet/credits`, { key: server.ownerKey, body: { amount: "100000.00", currency: "USD" } });
    expect(credited.status, JSON.stringify(credited.body)).toBe(201);
  });
  afterAll(() => server.close());

  /**
   * Books every seat `tenant`'s environment has left on the flight, one passenger an order;
   * returns the orders and one more offer of the flight, taken while seats remained.
   */
  async function bookEverySeat(tenant: TenantFixture, flight: FlightChoice, environment: "sandbox" | "live"): Promise<{ orders: any[]; late: any }> {
    const left = await seatsLeft(server, flight, environment);
    const offers = [];
    for (let seat = 0; seat <= left; seat++) offers.push(await offerOnFlight(server, tenant.key, flight));
    const late = offers.pop();
    const orders = [];
    for (const offer of offers) orders.push(await bookOffer(server, tenant.key, offer));
    expect(await seatsLeft(server, flight, environment)).toBe(0);
    return { orders, late };
  }

  /** The tenant's inventory of the flight is sold out: search stops offering it, and an offer taken before is refused. */
  async function expectSoldOut(tenant: TenantFixture, flight: FlightChoice, late: any): Promise<void> {
    expect(await isOffered(server, tenant.key, flight), "a sold-out flight is not offered").toBe(false);
    const refused = await createOrderA(server, tenant.key, late);
    expectError(refused, 422, "offer_no_longer_available", "selected_offers[0]");
    expect(refused.body.reason).toMatch(/too few seats/);
  }

  it("a sandbox tenant holding every seat of a flight leaves a live tenant every seat of it", async () => {
    const flight = await findFlight(server, sandbox.key, 2, 6);
    expect(await seatsLeft(server, flight)).toBe(flight.capacity);

    const sandboxSale = await bookEverySeat(sandbox, flight, "sandbox");
    await expectSoldOut(sandbox, flight, sandboxSale.late);

    // The live inventory is untouched: all of it is for sale, and a live tenant sells it to the last seat.
    expect(await seatsLeft(server, flight, "live")).toBe(flight.capacity);
    expect(await isOffered(server, live.key, flight)).toBe(true);
    const liveSale = await bookEverySeat(live, flight, "live");
    expect(liveSale.orders).toHaveLength(flight.capacity);
    await expectSoldOut(live, flight, liveSale.late);
    expect(await isOffered(server, sandbox.key, flight)).toBe(false);
  });

  it("a live tenant selling out a flight leaves the sandbox its own seats, and a cancellation gives its seat back to its own inventory", async () => {
    const flight = await findFlight(server, live.key, 2, 6);
    const { orders: liveOrders, late } = await bookEverySeat(live, flight, "live");
    await expectSoldOut(live, flight, late);

    expect(await seatsLeft(server, flight, "sandbox")).toBe(flight.capacity);
    const sandboxOrder = await bookOffer(server, sandbox.key, await offerOnFlight(server, sandbox.key, flight));
    expect(await seatsLeft(server, flight, "sandbox")).toBe(flight.capacity - 1);
    expect(await seatsLeft(server, flight, "live")).toBe(0);

    // A live cancellation frees a live seat, and only a live one.
    const cancelled = await call(server, "POST", `/v1/air/orders/${liveOrders[0].id}/actions/cancel`, { key: live.key });
    expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
    expect(await seatHoldsOf(server, liveOrders[0].id)).toBe(0);
    expect(await seatsLeft(server, flight, "live")).toBe(1);
    expect(await seatsLeft(server, flight, "sandbox")).toBe(flight.capacity - 1);
    const [last, lateAgain] = [await offerOnFlight(server, live.key, flight), await offerOnFlight(server, live.key, flight)];
    await bookOffer(server, live.key, last);
    await expectSoldOut(live, flight, lateAgain);
    expect(await seatHoldsOf(server, sandboxOrder.id)).toBeGreaterThan(0);
  });

  it("each hold carries its tenant's environment", async () => {
    const holds = await server.db.prisma.seatHold.findMany({ select: { tenantId: true, environment: true } });
    expect(holds.length).toBeGreaterThan(0);
    for (const hold of holds) expect(hold.environment, hold.tenantId).toBe(hold.tenantId === live.tenantId ? "live" : "sandbox");
  });
});
