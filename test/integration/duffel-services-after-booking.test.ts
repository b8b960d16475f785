import { beforeAll, describe, expect, it } from "vitest";
import { call, type TenantFixture } from "../helpers/client";
import type { DuffelFake } from "../helpers/duffel-fake";
import { duffelOffer, expectLedgerOf, ownAndPlatformSuite, ticketedDuffelOrder } from "../helpers/duffel-gateway";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { bookOffer, getOrder, newKey, walletBalance } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

/**
 * Bags added after booking to a ticketed Duffel order (docs/duffel.md#seats-and-bags): the order's
 * bags are Duffel's (GET /air/orders/:id/available_services) under our ids, and adding them sells
 * and pays them at Duffel at once (POST /air/orders/:id/services, from the Duffel balance of the
 * account that booked the order), exactly once, before our commit. Who settles says what the
 * wallet pays: nothing for a tenant's own account, the bags' price for the owner's platform
 * account. A hold takes no services at Duffel. SQLite, or PostgreSQL under TEST_DATABASE_URL.
 */
describe("bags after booking on Duffel orders", { timeout: 120_000 }, () => {
  const suite = ownAndPlatformSuite("5000.00");
  let fake: DuffelFake;
  let server: TestServer;
  /** `supplier`-settled (its own Duffel account) and `wallet`-settled (the owner's platform account). */
  let own: TenantFixture;
  let platform: TenantFixture;
  beforeAll(() => void ({ fake, server, own, platform } = suite));

  const ticketedOrder = (tenant: TenantFixture) => ticketedDuffelOrder(server, tenant.key, fake);

  async function availableServices(tenant: TenantFixture, orderId: string): Promise<any[]> {
    const read = await call(server, "GET", `/v1/air/orders/${orderId}/available_services`, { key: tenant.key });
    expect(read.status, JSON.stringify(read.body).slice(0, 500)).toBe(200);
    return read.body.data;
  }

  function addServices(tenant: TenantFixture, orderId: string, body: unknown) {
    return call(server, "POST", `/v1/air/orders/${orderId}/services`, { key: tenant.key, headers: { "idempotency-key": newKey("services") }, body });
  }

  const paymentsOf = (duffelOrderId: string) => fake.servicePayments.filter((payment) => payment.orderId === duffelOrderId);

  it("a ticketed order's available services are Duffel's bags for it, under our passenger and segment ids; it lists add_services but not select_seats", async () => {
    const { order, atDuffel } = await ticketedOrder(own);
    const [bag, ...more] = await availableServices(own, order.id);
    expect(more).toEqual([]);
    const segment = order.slices[0].segments[0];
    expect(bag).toMatchObject({ id: expect.stringMatching(/^ase_/), type: "baggage", maximum_quantity: 2, passenger_ids: [order.passengers[0].id], segment_ids: [segment.id], total_currency: order.total_currency });
    expect(fake.requests.some((request) => request.method === "GET" && request.path === `/air/orders/${atDuffel.id}/available_services`)).toBe(true);
    expect(order.available_actions).toContain("add_services");
    expect(order.available_actions).not.toContain("select_seats");
  });

  it("adding a bag to a tenant-account order pays Duffel once its price from the Duffel balance and moves the wallet by 0; the bag is the order's, and Duffel offers one fewer", async () => {
    const { order, atDuffel } = await ticketedOrder(own);
    const [bag] = await availableServices(own, order.id);
    const before = (await walletBalance(server, own.key)).minor;
    const price = toMinor(bag.total_amount, bag.total_currency);

    const added = await addServices(own, order.id, { add_services: [{ id: bag.id, quantity: 1 }], payment: { type: "balance", amount: bag.total_amount, currency: bag.total_currency } });
    expect(added.status, JSON.stringify(added.body).slice(0, 500)).toBe(201);
    expect(added.body.data.services).toEqual([expect.objectContaining({ id: bag.id, type: "baggage", quantity: 1 })]);
    expect(toMinor(added.body.data.total_amount, added.body.data.total_currency)).toBe(toMinor(order.total_amount, order.total_currency) + price);
    // Duffel's price, in the order's Duffel currency (the fake prices a bag at 30.00; ours is converted to the offer's currency).
    expect(paymentsOf(atDuffel.id)).toEqual([{ orderId: atDuffel.id, amount: "30.00", currency: atDuffel.totalCurrency }]);
    expect(await expectLedgerOf(server, own.key, order.id, ["ticketing_debit"])).toBe(before);
    expect((await availableServices(own, order.id))[0]).toMatchObject({ id: bag.id, maximum_quantity: 1 });
    // Duffel numbers the bag's documents itself: no EMD of ours is owed.
    expect(await server.db.prisma.orderJob.count({ where: { orderId: order.id, kind: "emd" } })).toBe(0);
  });

  it("adding bags to a platform-account order moves the wallet by their price once, and pays Duffel from the platform's balance once", async () => {
    const { order, atDuffel } = await ticketedOrder(platform);
    const [bag] = await availableServices(platform, order.id);
    const before = (await walletBalance(server, platform.key)).minor;
    const price = 2 * toMinor(bag.total_amount, bag.total_currency);

    const added = await addServices(platform, order.id, { add_services: [{ id: bag.id, quantity: 2 }] });
    expect(added.status, JSON.stringify(added.body).slice(0, 500)).toBe(201);
    expect(paymentsOf(atDuffel.id)).toEqual([{ orderId: atDuffel.id, amount: "60.00", currency: atDuffel.totalCurrency }]);
    expect(await expectLedgerOf(server, platform.key, order.id, ["ticketing_debit", "services_debit"])).toBe(before - price);
    // Every bag is the order's now: none left to add.
    expect(await availableServices(platform, order.id)).toEqual([]);
  });

  it("five additions racing (each its own Idempotency-Key) pay Duffel for exactly the additions that commit, and the wallet for each once", async () => {
    const { order, atDuffel } = await ticketedOrder(platform);
    const [bag] = await availableServices(platform, order.id);
    const before = (await walletBalance(server, platform.key)).minor;
    const price = toMinor(bag.total_amount, bag.total_currency);

    const answers = await Promise.all(Array.from({ length: 5 }, () => addServices(platform, order.id, { add_services: [{ id: bag.id, quantity: 1 }] })));
    const added = answers.filter((answer) => answer.status === 201);
    for (const answer of answers) expect([201, 409, 422], JSON.stringify(answer.body).slice(0, 300)).toContain(answer.status);
    // The bag's maximum is 2: the additions take turns at Duffel, so two are made, each paid once; the others find no bag left.
    expect(added).toHaveLength(2);
    const final = (await getOrder(server, platform.key, order.id)).body.data;
    const quantity = final.services.reduce((sum: number, service: any) => sum + service.quantity, 0);
    expect(quantity).toBe(added.length);
    expect(paymentsOf(atDuffel.id)).toHaveLength(added.length);
    expect(atDuffel.services.reduce((sum, service) => sum + service.quantity, 0)).toBe(quantity);
    expect(await expectLedgerOf(server, platform.key, order.id, ["ticketing_debit", ...added.map(() => "services_debit")])).toBe(before - added.length * price);
  });

  it("an unknown id or a quantity over the maximum is a clear 422 and changes nothing, here or at Duffel", async () => {
    const { order, atDuffel } = await ticketedOrder(platform);
    const [bag] = await availableServices(platform, order.id);
    const before = (await walletBalance(server, platform.key)).minor;

    expectError(await addServices(platform, order.id, { add_services: [{ id: "ase_nope", quantity: 1 }] }), 422, "invalid_field_value", "add_services[0].id");
    expectError(await addServices(platform, order.id, { add_services: [{ id: bag.id, quantity: 3 }] }), 422, "invalid_field_value", "add_services[0].quantity");
    expectError(await addServices(platform, order.id, { add_services: [{ id: bag.id, quantity: 1 }], payment: { type: "balance", amount: "1.00", currency: bag.total_currency } }), 422, "payment_amount_mismatch");

    const after = (await getOrder(server, platform.key, order.id)).body.data;
    expect({ services: after.services, total_amount: after.total_amount }).toEqual({ services: [], total_amount: order.total_amount });
    expect(paymentsOf(atDuffel.id)).toEqual([]);
    expect(fake.requests.some((request) => request.method === "POST" && request.path === `/air/orders/${atDuffel.id}/services`)).toBe(false);
    expect(await expectLedgerOf(server, platform.key, order.id, ["ticketing_debit"])).toBe(before);
  });

  it("a PENDING Duffel hold takes no services: it lists none and an addition is refused with 409 order_state_conflict", async () => {
    const offer = await duffelOffer(server, own.key, "VS");
    const order = await bookOffer(server, own.key, offer);
    expect(order.status).toBe("pending");
    expect(order.available_actions).not.toContain("add_services");
    expect(await availableServices(own, order.id)).toEqual([]);
    const bag = (await call(server, "GET", `/v1/air/offers/${offer.id}?return_available_services=true`, { key: own.key })).body.data.available_services[0];
    const servicePosts = () => fake.requests.filter((request) => request.method === "POST" && /^\/air\/orders\/[^/]+\/services$/.test(request.path)).length;
    const postsBefore = servicePosts();
    const refused = await addServices(own, order.id, { add_services: [{ id: bag.id, quantity: 1 }] });
    expectError(refused, 409, "order_state_conflict");
    expect(JSON.stringify(refused.body)).toContain("only on a ticketed order");
    expect(servicePosts()).toBe(postsBefore);
    expect((await getOrder(server, own.key, order.id)).body.data.services).toEqual([]);
  });
});
