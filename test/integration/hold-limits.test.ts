import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type ApiResponse, type TenantFixture } from "../helpers/client";
import { secretsKey } from "../helpers/duffel";
import { startDuffelFake, type DuffelFake } from "../helpers/duffel-fake";
import { duffelOffer, duffelTenant } from "../helpers/duffel-gateway";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { createOrderA, flightsOfOffer, newKey, searchForBooking, ticketOrder, type SearchOptions } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { credit, untouchedWallet } from "../helpers/wallet";

/**
 * What a tenant may hold without paying (docs/rest-api.md#hold-limits): a booking holds the
 * airline's seats until its payment deadline and takes no money, so the wallet shows what unpaid
 * orders stand for (`reserved`, `available`) and bounds them (`hold_limits`: unpaid orders, and
 * unpaid seats on one flight). Live tenants default to 100 and 9, sandbox ones to none; the owner
 * sets them with PATCH /v1/tenants/:id/wallet. A booking past one is 422 `hold_limit_reached`
 * naming it, and concurrent bookings never pass one.
 */

const ORDERS_LIMIT = "hold_limits.max_unpaid_orders";
const SEATS_LIMIT = "hold_limits.max_unpaid_seats_per_flight";

describe("hold limits", () => {
  let server: TestServer;
  let fake: DuffelFake;
  beforeAll(async () => {
    fake = await startDuffelFake();
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0", SUPPLIER_SECRETS_KEY: secretsKey(), DUFFEL_API_URL: fake.url } });
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  /** A live tenant with money enough for every booking here. */
  async function liveTenant(): Promise<TenantFixture> {
    const tenant = await createTenant(server, { environment: "live" });
    await credit(server, tenant.tenantId, "500000.00");
    return tenant;
  }

  const wallet = async (tenant: TenantFixture) => (await call(server, "GET", "/v1/wallet", { key: tenant.key })).body.data;
  const setLimits = (tenantId: string, hold_limits: unknown, key = server.ownerKey) => call(server, "PATCH", `/v1/tenants/${tenantId}/wallet`, { key, body: { hold_limits } });
  const book = (tenant: TenantFixture, offer: any) => createOrderA(server, tenant.key, offer);
  const pendingCount = (tenant: TenantFixture) => server.db.prisma.order.count({ where: { tenantId: tenant.tenantId, status: "PENDING" } });

  /** `count` offers of one passenger, no two on the same flight, none on a flight booked before in this process. */
  async function separateOffers(tenant: TenantFixture, count: number): Promise<any[]> {
    const offers: any[] = [];
    while (offers.length < count) offers.push(...(await searchForBooking(server, tenant.key)));
    return offers.slice(0, count);
  }

  /** Offers of separate searches, one per party, all on one nonstop flight that has seats for 9 (each suite's own date). */
  async function offersOnOneFlight(tenant: TenantFixture, parties: Array<NonNullable<SearchOptions["passengers"]>>): Promise<any[]> {
    const nonstop = (offers: any[]) => offers.filter((offer) => flightsOfOffer(offer).length === 1);
    const name = (offer: any) => JSON.stringify(flightsOfOffer(offer)[0]);
    for (let attempt = 0; attempt < 10; attempt++) {
      const days = nextFlightDay++;
      const roomy = new Set(nonstop(await searchForBooking(server, tenant.key, { days, reuseFlights: true, passengers: Array(9).fill("adult") })).map(name));
      const searches: any[][] = [];
      for (const passengers of parties) searches.push(nonstop(await searchForBooking(server, tenant.key, { days, reuseFlights: true, passengers })));
      const flight = [...roomy].find((candidate) => searches.every((offers) => offers.some((offer) => name(offer) === candidate)));
      if (flight) return searches.map((offers) => offers.find((offer) => name(offer) === flight));
    }
    throw new Error("no nonstop flight every search offers");
  }
  /** Dates of the one-flight bookings: after those searchForBooking hands out (at most 330 days ahead), one per test. */
  let nextFlightDay = 331;

  /** Every seat the airline holds for the tenant belongs to one of its orders: a refused booking held none. */
  async function expectNoStrayHolds(tenant: TenantFixture): Promise<void> {
    const orders = new Set((await server.db.prisma.order.findMany({ where: { tenantId: tenant.tenantId }, select: { id: true } })).map((order) => order.id));
    const holds = await server.db.prisma.seatHold.findMany({ where: { tenantId: tenant.tenantId }, select: { holdId: true } });
    expect(holds.filter((hold) => !orders.has(hold.holdId))).toEqual([]);
    expect(await server.db.prisma.seatIntent.count({ where: { tenantId: tenant.tenantId } })).toBe(0);
  }

  describe("the wallet", () => {
    it("shows credit_limit, reserved, available and hold_limits: a sandbox tenant has no limits, and unpaid orders are reserved until paid or cancelled", async () => {
      const tenant = await createTenant(server);
      expect(await wallet(tenant)).toEqual(untouchedWallet(tenant.tenantId, "100000.00"));
      const [first, second] = await separateOffers(tenant, 2);
      const booked = [(await book(tenant, first)).body.data, (await book(tenant, second)).body.data];
      const totals = booked.map((order) => toMinor(order.total_amount, order.total_currency));
      const reserved = totals[0]! + totals[1]!;
      expect(await wallet(tenant)).toMatchObject({ balance: "100000.00", reserved: (reserved / 100).toFixed(2), available: ((10_000_000 - reserved) / 100).toFixed(2) });

      expect((await ticketOrder(server, tenant.key, booked[0].id)).status).toBe(200);
      expect((await call(server, "POST", `/v1/air/orders/${booked[1].id}/actions/cancel`, { key: tenant.key })).status).toBe(200);
      const after = await wallet(tenant);
      expect(after.reserved).toBe("0.00");
      expect(after.available).toBe(after.balance);

      const viaGraphQL = await graphql(server, "{ wallet { balance creditLimit reserved available holdLimits { maxUnpaidOrders maxUnpaidSeatsPerFlight } } }", {}, { key: tenant.key });
      expect(viaGraphQL.body.data.wallet).toEqual({ balance: after.balance, creditLimit: "0.00", reserved: "0.00", available: after.available, holdLimits: { maxUnpaidOrders: null, maxUnpaidSeatsPerFlight: null } });
    });

    it("shows available below zero when the unpaid orders total more than the balance", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      const [offer] = await searchForBooking(server, tenant.key);
      const total = toMinor(offer.total_amount, offer.total_currency);
      await credit(server, tenant.tenantId, (total / 100).toFixed(2));
      expect((await book(tenant, offer)).status).toBe(201);
      // Paying it would leave nothing; another hold of the same price would be short by its total.
      const [other] = await searchForBooking(server, tenant.key);
      const booked = await book(tenant, other);
      if (booked.status === 201) {
        const reserved = total + toMinor(booked.body.data.total_amount, booked.body.data.total_currency);
        expect(await wallet(tenant)).toMatchObject({ reserved: (reserved / 100).toFixed(2), available: ((total - reserved) / 100).toFixed(2) });
        expect((await wallet(tenant)).available.startsWith("-")).toBe(true);
      } else {
        // Dearer than what is left: a booking still needs the balance to cover it.
        expectError(booked, 402, "insufficient_balance");
      }
    });
  });

  describe("setting them (owner)", () => {
    it("gives a live tenant 100 unpaid orders and 9 unpaid seats per flight; the owner changes one, another, or removes one with null", async () => {
      const tenant = await liveTenant();
      expect((await wallet(tenant)).hold_limits).toEqual({ max_unpaid_orders: 100, max_unpaid_seats_per_flight: 9 });
      const patched = await setLimits(tenant.tenantId, { max_unpaid_orders: 5 });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body.data).toMatchObject({ tenant_id: tenant.tenantId, hold_limits: { max_unpaid_orders: 5, max_unpaid_seats_per_flight: 9 }, reserved: "0.00" });
      expect((await setLimits(tenant.tenantId, { max_unpaid_seats_per_flight: null })).body.data.hold_limits).toEqual({ max_unpaid_orders: 5, max_unpaid_seats_per_flight: null });
      expect((await wallet(tenant)).hold_limits).toEqual({ max_unpaid_orders: 5, max_unpaid_seats_per_flight: null });

      const mutation = "mutation ($id: ID!, $input: UpdateTenantWalletInput!) { updateTenantWallet(tenantId: $id, input: $input) { holdLimits { maxUnpaidOrders maxUnpaidSeatsPerFlight } } }";
      const viaGraphQL = await graphql(server, mutation, { id: tenant.tenantId, input: { holdLimits: { maxUnpaidOrders: null, maxUnpaidSeatsPerFlight: 0 } } }, { key: server.ownerKey });
      expect(viaGraphQL.body.data.updateTenantWallet.holdLimits).toEqual({ maxUnpaidOrders: null, maxUnpaidSeatsPerFlight: 0 });
      const refusedInGraphQL = await graphql(server, mutation, { id: tenant.tenantId, input: { holdLimits: { maxUnpaidOrders: -1 } } }, { key: server.ownerKey });
      expectGraphQLError(refusedInGraphQL, "invalid_field_value", { field: "holdLimits.maxUnpaidOrders" });
    });

    it.each([
      [{ hold_limits: { max_unpaid_orders: -1 } }, ORDERS_LIMIT],
      [{ hold_limits: { max_unpaid_orders: 1.5 } }, ORDERS_LIMIT],
      [{ hold_limits: { max_unpaid_orders: "3" } }, ORDERS_LIMIT],
      [{ hold_limits: { max_unpaid_seats_per_flight: 5_000_000_000 } }, SEATS_LIMIT],
      [{ hold_limits: { max_unpaid_seats_per_flight: true } }, SEATS_LIMIT],
      [{ hold_limits: { max_unpaid_hours: 3 } }, "hold_limits.max_unpaid_hours"],
      [{ hold_limits: {} }, "hold_limits"],
      [{ hold_limits: null }, "hold_limits"],
      [{ overdraft: "100.00" }, "overdraft"],
      [{}, undefined],
    ])("refuses %j with 422 invalid_field_value naming the field, changing nothing", async (body, field) => {
      const tenant = await liveTenant();
      const response = await call(server, "PATCH", `/v1/tenants/${tenant.tenantId}/wallet`, { key: server.ownerKey, body });
      expectError(response, 422, "invalid_field_value", field);
      expect((await wallet(tenant)).hold_limits).toEqual({ max_unpaid_orders: 100, max_unpaid_seats_per_flight: 9 });
    });

    it("is the owner's: a tenant key is 403, an unknown tenant 404", async () => {
      const tenant = await liveTenant();
      expectError(await setLimits(tenant.tenantId, { max_unpaid_orders: 1000 }, tenant.key), 403, "forbidden");
      expectError(await setLimits("ten_00000000000000000000000000", { max_unpaid_orders: 1 }), 404, "tenant_not_found");
      expect((await wallet(tenant)).hold_limits.max_unpaid_orders).toBe(100);
    });
  });

  describe("booking", () => {
    it("refuses an order past max_unpaid_orders with 422 hold_limit_reached naming it, holding no seat; paying one makes room", async () => {
      const tenant = await liveTenant();
      await setLimits(tenant.tenantId, { max_unpaid_orders: 2 });
      const [a, b, c, d] = await separateOffers(tenant, 4);
      const first = (await book(tenant, a)).body.data;
      expect((await book(tenant, b)).status).toBe(201);
      const refused = await book(tenant, c);
      expectError(refused, 422, "hold_limit_reached", ORDERS_LIMIT);
      expect(refused.body.message).toMatch(/holds 2 unpaid orders, and the limit is 2/);
      expect(await pendingCount(tenant)).toBe(2);
      await expectNoStrayHolds(tenant);

      expect((await ticketOrder(server, tenant.key, first.id)).status).toBe(200);
      expect((await book(tenant, d)).status).toBe(201);
    });

    it("counts seats of passengers who occupy one, per flight: lap infants hold none, another flight has its own count", async () => {
      const tenant = await liveTenant();
      await setLimits(tenant.tenantId, { max_unpaid_seats_per_flight: 3 });
      const [twoAndInfant, two, oneAndInfant] = await offersOnOneFlight(tenant, [["adult", "adult", "infant_without_seat"], ["adult", "adult"], ["adult", "infant_without_seat"]]);
      expect((await book(tenant, twoAndInfant)).status).toBe(201);
      const refused = await book(tenant, two);
      expectError(refused, 422, "hold_limit_reached", SEATS_LIMIT);
      expect(refused.body.message).toMatch(/hold 2 seats on one of its flights, and it needs 2 more; the limit is 3/);
      expect((await book(tenant, oneAndInfant)).status).toBe(201);
      const [elsewhere] = await searchForBooking(server, tenant.key, { passengers: ["adult", "adult", "adult"] });
      expect((await book(tenant, elsewhere)).status).toBe(201);
      await expectNoStrayHolds(tenant);
    });

    it("holds a live tenant to 9 unpaid seats on a flight by default, and a sandbox tenant to none", async () => {
      const live = await liveTenant();
      const [nine, again] = await offersOnOneFlight(live, [Array(9).fill("adult"), ["adult"]]);
      expect((await book(live, nine)).status).toBe(201);
      expectError(await book(live, again), 422, "hold_limit_reached", SEATS_LIMIT);

      const sandbox = await createTenant(server);
      const [sandboxNine, sandboxAgain] = await offersOnOneFlight(sandbox, [Array(9).fill("adult"), ["adult"]]);
      expect((await book(sandbox, sandboxNine)).status).toBe(201);
      expect((await book(sandbox, sandboxAgain)).status).toBe(201);
    });

    it("lowering a limit below what is held refuses new bookings only: held orders stay payable and cancellable", async () => {
      const tenant = await liveTenant();
      const offers = await separateOffers(tenant, 6);
      const held = [];
      for (const offer of offers.slice(0, 3)) held.push((await book(tenant, offer)).body.data);
      expect((await setLimits(tenant.tenantId, { max_unpaid_orders: 1 })).status).toBe(200);
      expect(await pendingCount(tenant)).toBe(3);
      expectError(await book(tenant, offers[3]), 422, "hold_limit_reached", ORDERS_LIMIT);
      expect((await ticketOrder(server, tenant.key, held[0].id)).status).toBe(200);
      expect((await call(server, "POST", `/v1/air/orders/${held[1].id}/actions/cancel`, { key: tenant.key })).status).toBe(200);
      expectError(await book(tenant, offers[4]), 422, "hold_limit_reached", ORDERS_LIMIT);
      expect((await call(server, "POST", `/v1/air/orders/${held[2].id}/actions/cancel`, { key: tenant.key })).status).toBe(200);
      expect((await book(tenant, offers[5])).status).toBe(201);
    });

    it("names the limit in GraphQL's createOrder as the wallet spells it", async () => {
      const tenant = await liveTenant();
      await setLimits(tenant.tenantId, { max_unpaid_orders: 0 });
      const [offer] = await searchForBooking(server, tenant.key);
      const input = {
        offerId: offer.id,
        passengers: offer.passengers.map((passenger: any) => ({
          id: passenger.id,
          title: "MS",
          givenName: "Ada",
          familyName: "Lovelace",
          bornOn: "1985-04-12",
          gender: "F",
          email: "ada@travel.example",
          phoneNumber: "+442080160508",
          identityDocuments: [{ type: "PASSPORT", number: `P${passenger.id}12345`, issuingCountryCode: "GB", expiresOn: "2036-01-01" }],
        })),
      };
      const response = await graphql(server, "mutation ($input: CreateOrderInput!, $key: String!) { createOrder(input: $input, idempotencyKey: $key) { id } }", { input, key: newKey("gql") }, { key: tenant.key });
      expectGraphQLError(response, "hold_limit_reached", { statusCode: 422, field: "holdLimits.maxUnpaidOrders" });
    });
  });

  describe("racing bookings never pass a limit", () => {
    const refusals = (responses: ApiResponse[]) => responses.filter((response) => response.status !== 201);

    it("8 bookings at once under max_unpaid_orders 3: exactly 3 are made, the others 422 hold_limit_reached, no seat held for them", async () => {
      const tenant = await liveTenant();
      await setLimits(tenant.tenantId, { max_unpaid_orders: 3 });
      const offers = await separateOffers(tenant, 8);
      const responses = await Promise.all(offers.map((offer) => book(tenant, offer)));
      expect(responses.filter((response) => response.status === 201)).toHaveLength(3);
      for (const refused of refusals(responses)) expectError(refused, 422, "hold_limit_reached", ORDERS_LIMIT);
      expect(await pendingCount(tenant)).toBe(3);
      await expectNoStrayHolds(tenant);
    });

    it("5 Duffel bookings at once, Duffel answering each call after 100 ms, under max_unpaid_orders 2: exactly 2 are made, the others' holds cancelled at Duffel", async () => {
      const tenant = await duffelTenant(server, fake);
      await setLimits(tenant.tenantId, { max_unpaid_orders: 2 });
      const offers = [];
      for (let search = 0; search < 5; search++) offers.push(await duffelOffer(server, tenant.key, "VS"));
      const before = new Set(fake.orders.keys());
      fake.delayMs = 100;
      try {
        const responses = await Promise.all(offers.map((offer) => book(tenant, offer)));
        expect(responses.filter((response) => response.status === 201), JSON.stringify(responses.map((response) => response.body.errors ?? response.status))).toHaveLength(2);
        for (const refused of refusals(responses)) expectError(refused, 422, "hold_limit_reached", ORDERS_LIMIT);
      } finally {
        fake.delayMs = 0;
      }
      expect(await pendingCount(tenant)).toBe(2);
      const heldAtDuffel = [...fake.orders.values()].filter((order) => !before.has(order.id) && !order.cancelled);
      expect(heldAtDuffel).toHaveLength(2);
    });

    it("5 one-seat bookings of one flight at once under max_unpaid_seats_per_flight 2: exactly 2 are made", async () => {
      const tenant = await liveTenant();
      await setLimits(tenant.tenantId, { max_unpaid_seats_per_flight: 2 });
      const offers = await offersOnOneFlight(tenant, Array.from({ length: 5 }, () => ["adult"]));
      const responses = await Promise.all(offers.map((offer) => book(tenant, offer)));
      expect(responses.filter((response) => response.status === 201), JSON.stringify(responses.map((response) => response.body.errors ?? response.status))).toHaveLength(2);
      for (const refused of refusals(responses)) expectError(refused, 422, "hold_limit_reached", SEATS_LIMIT);
      await expectNoStrayHolds(tenant);
    });
  });
});
