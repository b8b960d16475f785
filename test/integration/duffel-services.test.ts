import { beforeAll, describe, expect, it } from "vitest";
import { call, type TenantFixture } from "../helpers/client";
import type { DuffelFake } from "../helpers/duffel-fake";
import { duffelOffer, duffelOrdersOf, expectLedgerOf, ownAndPlatformSuite } from "../helpers/duffel-gateway";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { createOrderA, getOrder, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";
import { credit } from "../helpers/wallet";

/**
 * Seats and bags of Duffel offers (docs/duffel.md#seats-and-bags): an offer's bags and seat maps
 * are Duffel's, read with the account that found the offer and shown under our ids with Duffel's
 * service ids; an order booked with them is booked at Duffel as an instant order at ticketing
 * (Duffel holds no services), sending `services` by Duffel's ids and paying the fare and the
 * services together. Who settles says what the wallet pays: the services' price too for a
 * platform-account order, nothing of them for a tenant's own account.
 */
describe("seats and bags of Duffel offers", { timeout: 90_000 }, () => {
  const suite = ownAndPlatformSuite();
  let fake: DuffelFake;
  let server: TestServer;
  /** A tenant with its own Duffel connection (`supplier`-settled), and one booking through the owner's platform account (`wallet`-settled). */
  let own: TenantFixture;
  let platform: TenantFixture;
  beforeAll(() => void ({ fake, server, own, platform } = suite));

  /** The offer's bags (REST, `return_available_services`). */
  async function bagsOf(key: string, offer: any): Promise<any[]> {
    const read = await call(server, "GET", `/v1/air/offers/${offer.id}?return_available_services=true`, { key });
    expect(read.status, JSON.stringify(read.body).slice(0, 500)).toBe(200);
    return read.body.data.available_services;
  }

  async function seatMapsOf(key: string, offer: any): Promise<any[]> {
    const read = await call(server, "GET", `/v1/air/seat_maps?offer_id=${offer.id}`, { key });
    expect(read.status, JSON.stringify(read.body).slice(0, 500)).toBe(200);
    return read.body.data;
  }

  const seatsOf = (map: any): any[] => map.cabins.flatMap((cabin: any) => cabin.rows.flatMap((row: any) => row.sections.flatMap((section: any) => section.elements.filter((element: any) => element.type === "seat"))));

  /** The Duffel offer id the fake made for our offer (the one its seat maps were read of). */
  const duffelOfferIdOf = (): string => new URL(fake.requests.filter((request) => request.path.startsWith("/air/seat_maps")).at(-1)!.path, "http://fake").searchParams.get("offer_id")!;

  it("an offer's seat maps and bags are Duffel's, under our passenger, segment and slice ids, with Duffel's service ids; a seat Duffel sells no service for is not for sale", async () => {
    const offer = await duffelOffer(server, own.key, "AA");
    const [map, ...others] = await seatMapsOf(own.key, offer);
    expect(others).toEqual([]);
    const segment = offer.slices[0].segments[0];
    expect(map).toMatchObject({ id: expect.stringMatching(/^sea_/), segment_id: segment.id, slice_id: offer.slices[0].id });
    expect(map.cabins[0]).toMatchObject({ cabin_class: "economy", deck: 0, aisles: 1 });
    const seats = seatsOf(map);
    expect(seats.map((seat) => seat.designator)).toEqual(["10A", "10B", "10C", "11A", "11B", "11C"]);
    expect(seats.find((seat) => seat.designator === "10A").available_services).toEqual([]);
    const service = seats.find((seat) => seat.designator === "11B").available_services[0];
    expect(service).toMatchObject({ id: expect.stringMatching(/^ase_/), passenger_id: offer.passengers[0].id, total_currency: offer.total_currency });
    expect(toMinor(service.total_amount, service.total_currency)).toBeGreaterThan(0);
    expect(fake.requests.some((request) => request.path === `/air/seat_maps?offer_id=${duffelOfferIdOf()}`)).toBe(true);

    const [bag, ...moreBags] = await bagsOf(own.key, offer);
    expect(moreBags).toEqual([]);
    expect(bag).toMatchObject({ id: expect.stringMatching(/^ase_/), type: "baggage", maximum_quantity: 2, passenger_ids: [offer.passengers[0].id], segment_ids: [segment.id], total_currency: offer.total_currency });
    expect(fake.requests.some((request) => request.path === `/air/offers/${duffelOfferIdOf()}?return_available_services=true`)).toBe(true);
    // The same ids on every read: Duffel's own.
    expect((await bagsOf(own.key, offer))[0].id).toBe(bag.id);
  });

  it("booking with a bag and a seat books nothing at Duffel until ticketing, then an instant order sending Duffel's service ids and paying the fare and the services; a tenant's own account moves the wallet by 0", async () => {
    const offer = await duffelOffer(server, own.key, "AA");
    const [bag] = await bagsOf(own.key, offer);
    const seat = seatsOf((await seatMapsOf(own.key, offer))[0]).find((candidate) => candidate.designator === "11B").available_services[0];
    const duffelOfferId = duffelOfferIdOf();
    const servicesMinor = 2 * toMinor(bag.total_amount, bag.total_currency) + toMinor(seat.total_amount, seat.total_currency);
    const total = toMinor(offer.total_amount, offer.total_currency) + servicesMinor;
    const created = await createOrderA(server, own.key, offer, {
      body: { services: [{ id: bag.id, quantity: 2 }, { id: seat.id, quantity: 1 }], payments: [{ type: "balance", currency: offer.total_currency, amount: (total / 100).toFixed(2) }] },
    });
    expect(created.status, JSON.stringify(created.body).slice(0, 500)).toBe(201);
    const order = created.body.data;
    expect(order.settlement).toBe("supplier");
    expect(toMinor(order.total_amount, order.total_currency)).toBe(total);
    expect(order.services).toEqual([
      expect.objectContaining({ id: bag.id, type: "baggage", quantity: 2 }),
      expect.objectContaining({ id: seat.id, type: "seat", quantity: 1, designator: "11B" }),
    ]);
    // Duffel holds no services: nothing is booked there yet.
    expect(duffelOrdersOf(fake, order.id)).toEqual([]);
    const before = (await walletBalance(server, own.key)).minor;

    expect((await ticketOrder(server, own.key, order.id)).status).toBe(200);
    await waitForStatus(server, own.key, order.id, ["TICKETED"]);
    const [booked, ...more] = duffelOrdersOf(fake, order.id);
    expect(more).toEqual([]);
    expect(booked).toMatchObject({ type: "instant", paid: true, offerId: duffelOfferId });
    expect(booked!.body.services).toEqual([{ id: bag.id, quantity: 2 }, { id: seat.id, quantity: 1 }]);
    // The fake prices a bag at 30.00 and an 11th-row seat at 25.00; the order's total (what was paid, exactly) is the fare and all of them.
    expect(booked!.services.map((service) => [service.type, service.quantity, service.total_amount])).toEqual([["baggage", 2, "60.00"], ["seat", 1, "25.00"]]);
    expect((booked!.body.payments as Array<{ amount: string }>)[0]!.amount).toBe(booked!.totalAmount);
    expect(duffelOrdersOf(fake, order.id)).toHaveLength(1);
    // Duffel took the fare and the services from the tenant's Duffel balance: the wallet moved by nothing.
    expect(await expectLedgerOf(server, own.key, order.id, ["ticketing_debit"])).toBe(before);
  });

  /** A platform-account tenant's order of a Duffel offer booked with its first bag (the wallet credited to pay it): the order, the bag, and the total with it. */
  async function platformOrderWithBag(): Promise<{ order: any; bag: any; total: number }> {
    await credit(server, platform.tenantId, "5000.00");
    const offer = await duffelOffer(server, platform.key, "VS");
    const [bag] = await bagsOf(platform.key, offer);
    const total = toMinor(offer.total_amount, offer.total_currency) + toMinor(bag.total_amount, bag.total_currency);
    const created = await createOrderA(server, platform.key, offer, { body: { services: [{ id: bag.id, quantity: 1 }], payments: [{ type: "balance", currency: offer.total_currency, amount: (total / 100).toFixed(2) }] } });
    expect(created.status, JSON.stringify(created.body).slice(0, 500)).toBe(201);
    return { order: created.body.data, bag, total };
  }

  it("through the owner's platform account, the wallet pays the fare and the services' price at ticketing, once, however many ticketing requests race", async () => {
    const { order, bag, total } = await platformOrderWithBag();
    expect(order.settlement).toBe("wallet");
    const before = (await walletBalance(server, platform.key)).minor;
    // Six ticketing requests racing, each with its own Idempotency-Key: one ticketing, one Duffel order, one debit.
    const answers = await Promise.all(Array.from({ length: 6 }, () => ticketOrder(server, platform.key, order.id)));
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) expect([200, 409], JSON.stringify(answer.body)).toContain(answer.status);
    await waitForStatus(server, platform.key, order.id, ["TICKETED"]);
    const [booked, ...more] = duffelOrdersOf(fake, order.id);
    expect(more).toEqual([]);
    expect(booked).toMatchObject({ type: "instant", paid: true });
    expect(fake.requests.filter((request) => request.method === "POST" && request.path === "/air/orders" && JSON.stringify(request.body).includes(order.id))).toHaveLength(1);
    expect(booked!.body.services).toEqual([{ id: bag.id, quantity: 1 }]);
    expect(await expectLedgerOf(server, platform.key, order.id, ["ticketing_debit"])).toBe(before - total);
  });

  it("a service Duffel prices otherwise at ticketing is not paid at its new price: the ticketing fails as airline_rejected, nothing is booked at Duffel, and the wallet gets its debit back", async () => {
    const { order, bag, total } = await platformOrderWithBag();
    const before = (await walletBalance(server, platform.key)).minor;
    fake.changeServicePrice(bag.id, "99.00");
    expect((await ticketOrder(server, platform.key, order.id)).status).toBeLessThan(500);
    const failed = await waitForStatus(server, platform.key, order.id, ["FAILED"]);
    expect(failed.body.data.failure_reason).toBe("airline_rejected");
    expect(duffelOrdersOf(fake, order.id)).toEqual([]);
    expect((await walletBalance(server, platform.key)).minor).toBe(before);
  });

  it("refuses a service Duffel does not offer with 422 naming it, and books nothing: another offer's bag or seat, an unknown id, a bag beyond its maximum", async () => {
    const offer = await duffelOffer(server, own.key, "AA");
    const [bag] = await bagsOf(own.key, offer);
    const other = await duffelOffer(server, own.key, "VS");
    const [otherBag] = await bagsOf(own.key, other);
    const otherSeat = seatsOf((await seatMapsOf(own.key, other))[0]).find((candidate) => candidate.designator === "10B").available_services[0];
    const ordersBefore = { ours: await server.db.prisma.order.count({ where: { tenantId: own.tenantId } }), duffel: fake.orders.size };
    for (const id of [otherBag.id, otherSeat.id, "ase_00009UhD4ongolulWd9123"]) {
      expectError(await createOrderA(server, own.key, offer, { body: { services: [{ id, quantity: 1 }] } }), 422, "invalid_field_value", "services[0].id");
    }
    expectError(await createOrderA(server, own.key, offer, { body: { services: [{ id: bag.id, quantity: 3 }] } }), 400, "validation_failed", "services[0].quantity");
    expect({ ours: await server.db.prisma.order.count({ where: { tenantId: own.tenantId } }), duffel: fake.orders.size }).toEqual(ordersBefore);
  });

  it("a booked Duffel order has no seat maps and is sold no seat; a hold takes no bags (409, nothing asked of Duffel), a ticketed order only Duffel's bags", async () => {
    const offer = await duffelOffer(server, own.key, "AA");
    const [bag] = await bagsOf(own.key, offer);
    const seat = seatsOf((await seatMapsOf(own.key, offer))[0]).find((candidate) => candidate.designator === "11B").available_services[0];
    const created = await createOrderA(server, own.key, offer);
    expect(created.status).toBe(201);
    const order = created.body.data;
    const addition = async (id: string, status: string) => {
      const read = (await getOrder(server, own.key, order.id)).body.data;
      const answer = await call(server, "POST", `/v1/air/orders/${order.id}/services`, { key: own.key, headers: { "idempotency-key": `extras-${order.id}-${status}-${id}` }, body: { add_services: [{ id, quantity: 1 }] } });
      const after = (await getOrder(server, own.key, order.id)).body.data;
      expect({ total: after.total_amount, services: after.services }).toEqual({ total: read.total_amount, services: read.services });
      return answer;
    };
    const held = (await getOrder(server, own.key, order.id)).body.data;
    expect(held.available_actions).not.toContain("add_services");
    expect(held.available_actions).not.toContain("select_seats");
    expectError(await call(server, "GET", `/v1/air/seat_maps?order_id=${order.id}`, { key: own.key }), 422, "unsupported_by_supplier");
    expect((await call(server, "GET", `/v1/air/orders/${order.id}/available_services`, { key: own.key })).body.data).toEqual([]);
    expectError(await addition(bag.id, "held"), 409, "order_state_conflict");
    expect(fake.requests.filter((request) => request.path.includes("/services") || request.path.includes("/available_services"))).toEqual([]);

    expect((await ticketOrder(server, own.key, order.id)).status).toBe(200);
    await waitForStatus(server, own.key, order.id, ["TICKETED"]);
    const ticketed = (await getOrder(server, own.key, order.id)).body.data;
    expect(ticketed.available_actions).toContain("add_services");
    expect(ticketed.available_actions).not.toContain("select_seats");
    expectError(await call(server, "GET", `/v1/air/seat_maps?order_id=${order.id}`, { key: own.key }), 422, "unsupported_by_supplier");
    // Duffel sells seats only with the booking: a seat of the offer's maps is no service of the booked order.
    expectError(await addition(seat.id, "ticketed"), 422, "invalid_field_value", "add_services[0].id");
    expect(fake.requests.filter((request) => request.method === "POST" && request.path.endsWith("/services"))).toEqual([]);
  });
});
