import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type ApiResponse, type TenantFixture } from "../helpers/client";
import { expectGraphQLError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { daysAhead } from "../helpers/offers";
import { eventually } from "../helpers/eventually";
import { freshFlights, newKey } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Orders and the wallet over GraphQL (POST /graphql with a tenant key): createOrder and its
 * idempotency, validation errors naming GraphQL input fields, ticketing to TICKETED with
 * e-tickets and the wallet debit, cancel and passenger updates along the state machine, the
 * orders connection, tenant isolation, the owner-only creditWallet, and DataLoader batching
 * (the SQL statements for a page of orders do not grow with the page).
 */

const ORDER_FIELDS = `
  id status bookingReference totalAmount totalCurrency failureReason refundInProgress createdAt updatedAt
  offer { id totalAmount totalCurrency }
  passengers { id type title givenName familyName bornOn gender email phoneNumber identityDocuments { type number issuingCountryCode expiresOn } }
  documents { id type uniqueIdentifier passengerId url issuedAt }`;

const SEARCH = `mutation Search($input: SearchFlightsInput!) {
  searchFlights(input: $input) {
    offerRequestId passengers { id type }
    offers { id totalAmount totalCurrency passengers { id type } slices { segments { marketingCarrier { iataCode } marketingCarrierFlightNumber departingAt } } }
  }
}`;
const CREATE = `mutation Create($input: CreateOrderInput!, $key: String!) { createOrder(input: $input, idempotencyKey: $key) { ${ORDER_FIELDS} } }`;
const TICKET = `mutation Ticket($id: ID!, $key: String!) { ticketOrder(orderId: $id, idempotencyKey: $key) { ${ORDER_FIELDS} } }`;
const CANCEL = `mutation Cancel($id: ID!, $key: String) { cancelOrder(orderId: $id, idempotencyKey: $key) { id status updatedAt } }`;
const UPDATE = `mutation Update($id: ID!, $passengers: [PassengerUpdateInput!]!) { updateOrderPassengers(orderId: $id, passengers: $passengers) { id status passengers { id givenName familyName bornOn } } }`;
const ORDER = `query Order($id: ID!) { order(id: $id) { ${ORDER_FIELDS} } }`;
const ORDERS = `query Orders($first: Int, $after: String, $status: OrderStatus) {
  orders(first: $first, after: $after, status: $status) { totalCount pageInfo { hasNextPage endCursor } edges { cursor node { id } } nodes { id status createdAt } }
}`;
const WALLET = `{ wallet { balance currency transactions(first: 100) { totalCount nodes { id type amount currency balanceAfter orderId } } } }`;
const CREDIT = `mutation Credit($tenantId: ID!, $amount: DecimalAmount!, $currency: CurrencyCode!, $reference: String, $key: String) {
  creditWallet(tenantId: $tenantId, amount: $amount, currency: $currency, reference: $reference, idempotencyKey: $key) {
    transaction { id type amount currency balanceAfter reference } wallet { balance currency }
  }
}`;

/** Birth dates that fit each passenger type for travel about a month from now. */
const BORN_ON = { ADULT: "1985-04-12", CHILD: `${new Date().getUTCFullYear() - 7}-06-01` } as const;

type Offer = {
  id: string;
  totalAmount: string;
  totalCurrency: string;
  passengers: Array<{ id: string; type: "ADULT" | "CHILD" }>;
  slices: Array<{ segments: Array<{ marketingCarrier: { iataCode: string }; marketingCarrierFlightNumber: string; departingAt: string }> }>;
};

/** The flights an offer flies, as freshFlights compares them. */
const flightsOf = (offer: Offer) =>
  offer.slices.flatMap((slice) => slice.segments.map((segment) => ({ carrier: segment.marketingCarrier.iataCode, number: segment.marketingCarrierFlightNumber, departingAt: segment.departingAt })));

/** A valid GraphQL passenger for the offer's passenger `id`, with a passport. */
function passengerInput(id: string, type: keyof typeof BORN_ON, overrides: Record<string, unknown> = {}) {
  return {
    id,
    title: "MS",
    givenName: "Ada",
    familyName: "Lovelace",
    bornOn: BORN_ON[type],
    gender: "F",
    email: `${id}@travel.example`,
    phoneNumber: "+442080160508",
    identityDocuments: [{ type: "PASSPORT", number: `P${id.toUpperCase()}12345`, issuingCountryCode: "GB", expiresOn: "2036-01-01" }],
    ...overrides,
  };
}

/** The createOrder input booking every passenger of `offer`, paying its total. */
function orderInput(offer: Offer, overrides: { passengers?: unknown[]; payment?: unknown } = {}) {
  return {
    offerId: offer.id,
    passengers: overrides.passengers ?? offer.passengers.map((passenger) => passengerInput(passenger.id, passenger.type)),
    payment: overrides.payment === undefined ? { type: "BALANCE", currency: offer.totalCurrency, amount: offer.totalAmount } : overrides.payment,
  };
}

/** The first error, for failure messages. */
const errorsOf = (response: ApiResponse) => JSON.stringify(response.body?.errors ?? response.body).slice(0, 600);

describe("GraphQL orders and wallet", () => {
  let server: TestServer;
  let alice: TenantFixture;
  let bob: TenantFixture;
  /** Unbooked offers per tenant key (each offer can be booked once), refilled by searching another date. */
  const pools = new Map<string, { offers: Offer[]; day: number }>();

  beforeAll(async () => {
    // Tickets are issued at once; usage counters and the job queue's idle poll stay out of the query counts.
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0", USAGE_FLUSH_MS: "3600000", JOB_POLL_MS: "3600000" } });
    alice = await createTenant(server, { name: "Alice Travel" });
    bob = await createTenant(server, { name: "Bob Tours" });
  });
  afterAll(() => server.close());

  async function gql(key: string, query: string, variables: Record<string, unknown> = {}) {
    const response = await graphql(server, query, variables, { key });
    expect(response.status, errorsOf(response)).toBe(200);
    expect(response.body.errors, errorsOf(response)).toBeUndefined();
    return response.body.data;
  }

  /** Searches LHR → JFK (an adult "lead" and a child "kid") `day` days ahead. */
  async function searchFlights(key: string, day: number) {
    return (await gql(key, SEARCH, {
      input: { slices: [{ origin: "LHR", destination: "JFK", departureDate: daysAhead(day) }], passengers: [{ type: "ADULT", id: "lead" }, { type: "CHILD", id: "kid" }] },
    })).searchFlights as { offerRequestId: string; passengers: Array<{ id: string; type: string }>; offers: Offer[] };
  }

  /** An offer of the tenant on a flight no other order of the suite flies. */
  async function freshOffer(key: string): Promise<Offer> {
    let pool = pools.get(key);
    if (!pool) pools.set(key, (pool = { offers: [], day: 30 }));
    while (pool.offers.length === 0) {
      pool.offers = freshFlights((await searchFlights(key, pool.day)).offers, flightsOf);
      pool.day += 1;
    }
    return pool.offers.shift()!;
  }

  async function createOrder(key: string, offer?: Offer, idempotencyKey = newKey("gql-order")) {
    const booked = offer ?? (await freshOffer(key));
    const data = await gql(key, CREATE, { input: orderInput(booked), key: idempotencyKey });
    return { order: data.createOrder, offer: booked };
  }

  async function totalOrders(key: string, status?: string): Promise<number> {
    return (await gql(key, ORDERS, { first: 1, status })).orders.totalCount;
  }

  async function wallet(key: string) {
    return (await gql(key, WALLET)).wallet as { balance: string; currency: string; transactions: { totalCount: number; nodes: any[] } };
  }

  /** Polls order(id:) until it is `status`, failing after the deadline. */
  async function waitForOrderStatus(key: string, id: string, status: string, deadlineMs = 15_000) {
    let order: any;
    return eventually(
      async () => {
        order = (await gql(key, ORDER, { id })).order;
        return order.status === status ? order : undefined;
      },
      () => `order ${id} still ${order?.status} (waiting for ${status})`,
      deadlineMs,
    );
  }

  describe("Mutation.createOrder", () => {
    it("books a searched offer: a PENDING order with a booking reference, the offer's total, the offer and the passengers as sent", async () => {
      const search = await searchFlights(alice.key, 29);
      expect(search.passengers).toEqual([{ id: "lead", type: "ADULT" }, { id: "kid", type: "CHILD" }]);
      const [offer] = freshFlights(search.offers, flightsOf) as [Offer];
      const data = await gql(alice.key, CREATE, { input: orderInput(offer), key: newKey("gql-order") });
      const order = data.createOrder;
      expect(order).toMatchObject({
        id: expect.stringMatching(/^ord_/),
        status: "PENDING",
        bookingReference: expect.stringMatching(/^[A-HJ-NP-Z2-9]{6}$/),
        totalAmount: offer.totalAmount,
        totalCurrency: offer.totalCurrency,
        offer: { id: offer.id, totalAmount: offer.totalAmount, totalCurrency: offer.totalCurrency },
        documents: [],
        failureReason: null,
        refundInProgress: false,
      });
      expect(order.passengers).toEqual([
        {
          id: "lead",
          type: "ADULT",
          title: "MS",
          givenName: "Ada",
          familyName: "Lovelace",
          bornOn: BORN_ON.ADULT,
          gender: "F",
          email: "lead@travel.example",
          phoneNumber: "+442080160508",
          identityDocuments: [{ type: "PASSPORT", number: "PLEAD12345", issuingCountryCode: "GB", expiresOn: "2036-01-01" }],
        },
        {
          id: "kid",
          type: "CHILD",
          title: "MS",
          givenName: "Ada",
          familyName: "Lovelace",
          bornOn: BORN_ON.CHILD,
          gender: "F",
          email: "kid@travel.example",
          phoneNumber: "+442080160508",
          identityDocuments: [{ type: "PASSPORT", number: "PKID12345", issuingCountryCode: "GB", expiresOn: "2036-01-01" }],
        },
      ]);
      // The order reads back the same, and nothing is charged before ticketing.
      const read = (await gql(alice.key, ORDER, { id: order.id })).order;
      expect(read).toEqual(order);
      const ledger = await wallet(alice.key);
      expect(ledger.transactions.nodes.filter((entry) => entry.orderId === order.id)).toEqual([]);
    });

    it("books without a payment too (it is optional)", async () => {
      const offer = await freshOffer(alice.key);
      const input = { offerId: offer.id, passengers: offer.passengers.map((p) => passengerInput(p.id, p.type)) };
      const data = await gql(alice.key, CREATE, { input, key: newKey("gql-order") });
      expect(data.createOrder).toMatchObject({ status: "PENDING", totalAmount: offer.totalAmount, offer: { id: offer.id } });
    });

    it("is idempotent: the same key and input return the same order and book nothing more; another input under the key is refused", async () => {
      const offer = await freshOffer(alice.key);
      const key = newKey("gql-idem");
      const before = await totalOrders(alice.key);
      const first = (await gql(alice.key, CREATE, { input: orderInput(offer), key })).createOrder;
      expect(await totalOrders(alice.key)).toBe(before + 1);

      const again = (await gql(alice.key, CREATE, { input: orderInput(offer), key })).createOrder;
      expect(again).toEqual(first);
      expect(await totalOrders(alice.key)).toBe(before + 1);

      const otherInput = orderInput(offer, { passengers: offer.passengers.map((p) => passengerInput(p.id, p.type, { givenName: "Grace" })) });
      const reused = await graphql(server, CREATE, { input: otherInput, key }, { key: alice.key });
      expectGraphQLError(reused, "idempotency_key_reused", { statusCode: 422, field: "idempotencyKey" });
      // The argument it names, not REST's header.
      expect(reused.body.errors![0]!.message).toBe("This idempotencyKey was used for a different request.");
      expect(reused.body.data).toBeNull();
      expect(await totalOrders(alice.key)).toBe(before + 1);
    });

    it("two concurrent requests under one key book one order: each gets it or idempotency_request_in_progress", async () => {
      const offer = await freshOffer(alice.key);
      const key = newKey("gql-race");
      const before = await totalOrders(alice.key);
      const responses = await Promise.all([0, 1, 2].map(() => graphql(server, CREATE, { input: orderInput(offer), key }, { key: alice.key })));
      const ids = new Set<string>();
      for (const response of responses) {
        if (response.body.errors) {
          expectGraphQLError(response, "idempotency_request_in_progress", { statusCode: 409 });
          expect(response.body.errors[0]!.message).toBe("A request with this idempotencyKey is still being processed.");
        }
        else ids.add(response.body.data.createOrder.id);
      }
      expect(ids.size, JSON.stringify(responses.map((r) => r.body))).toBe(1);
      expect(await totalOrders(alice.key)).toBe(before + 1);
      // Once settled, a retry gets the order.
      const retry = (await gql(alice.key, CREATE, { input: orderInput(offer), key })).createOrder;
      expect(ids.has(retry.id)).toBe(true);
    });

    it("the key is scoped to the tenant: Bob may use Alice's key for his own order", async () => {
      const key = newKey("gql-shared");
      const aliceOrder = (await createOrder(alice.key, undefined, key)).order;
      const bobOrder = (await createOrder(bob.key, undefined, key)).order;
      expect(bobOrder.id).not.toBe(aliceOrder.id);
      expect((await gql(bob.key, ORDER, { id: bobOrder.id })).order.id).toBe(bobOrder.id);
    });

    it("needs an idempotencyKey: omitted is a GraphQL validation error, empty is idempotency_key_required", async () => {
      const offer = await freshOffer(alice.key);
      const before = await totalOrders(alice.key);
      const omitted = await graphql(server, `mutation($input: CreateOrderInput!) { createOrder(input: $input) { id } }`, { input: orderInput(offer) }, { key: alice.key });
      expectGraphQLError(omitted, "validation_failed", { httpStatus: 400, statusCode: 400 });
      expect(omitted.body.errors![0]!.message).toMatch(/idempotencyKey/);

      const nullKey = await graphql(server, CREATE, { input: orderInput(offer), key: null }, { key: alice.key });
      expectGraphQLError(nullKey, "validation_failed", { httpStatus: 400, statusCode: 400 });

      const empty = await graphql(server, CREATE, { input: orderInput(offer), key: "" }, { key: alice.key });
      expectGraphQLError(empty, "idempotency_key_required", { statusCode: 400, field: "idempotencyKey" });
      expect(empty.body.errors![0]!.message).toBe("This mutation needs an idempotencyKey argument.");

      const badKey = await graphql(server, CREATE, { input: orderInput(offer), key: " leading-space" }, { key: alice.key });
      expectGraphQLError(badKey, "validation_failed", { statusCode: 400, field: "idempotencyKey" });
      expect(await totalOrders(alice.key)).toBe(before);
    });

    describe("refusals name the GraphQL input field", () => {
      const future = daysAhead(400);
      it.each<[string, (offer: Offer) => Record<string, unknown>, string, string]>([
        ["a birth date in the future", (o) => orderInput(o, { passengers: [passengerInput("lead", "ADULT", { bornOn: future }), passengerInput("kid", "CHILD")] }), "validation_failed", "passengers[0].bornOn"],
        ["an adult under 12", (o) => orderInput(o, { passengers: [passengerInput("lead", "ADULT", { bornOn: BORN_ON.CHILD }), passengerInput("kid", "CHILD")] }), "validation_failed", "passengers[0].bornOn"],
        ["a phone number not in E.164", (o) => orderInput(o, { passengers: [passengerInput("lead", "ADULT", { phoneNumber: "020 8016 0508" }), passengerInput("kid", "CHILD")] }), "validation_failed", "passengers[0].phoneNumber"],
        ["a given name in digits", (o) => orderInput(o, { passengers: [passengerInput("lead", "ADULT"), passengerInput("kid", "CHILD", { givenName: "R2D2" })] }), "validation_failed", "passengers[1].givenName"],
        ["an unknown issuing country", (o) => orderInput(o, { passengers: [passengerInput("lead", "ADULT", { identityDocuments: [{ type: "PASSPORT", number: "P1234567", issuingCountryCode: "XX", expiresOn: "2036-01-01" }] }), passengerInput("kid", "CHILD")] }), "validation_failed", "passengers[0].identityDocuments[0].issuingCountryCode"],
        ["a passport expiring before the flight", (o) => orderInput(o, { passengers: [passengerInput("lead", "ADULT", { identityDocuments: [{ type: "PASSPORT", number: "P1234567", issuingCountryCode: "GB", expiresOn: daysAhead(2) }] }), passengerInput("kid", "CHILD")] }), "validation_failed", "passengers[0].identityDocuments[0].expiresOn"],
        ["no passport on an international itinerary", (o) => orderInput(o, { passengers: [passengerInput("lead", "ADULT", { identityDocuments: [] }), passengerInput("kid", "CHILD")] }), "validation_failed", "passengers[0].identityDocuments"],
        ["a passenger of the offer left out", (o) => orderInput(o, { passengers: [passengerInput("lead", "ADULT")] }), "validation_failed", "passengers"],
        ["a passenger the offer does not have", (o) => orderInput(o, { passengers: [passengerInput("lead", "ADULT"), passengerInput("stranger", "ADULT")] }), "validation_failed", "passengers[1].id"],
        ["a type other than the offer's", (o) => orderInput(o, { passengers: [passengerInput("lead", "ADULT", { type: "CHILD" }), passengerInput("kid", "CHILD")] }), "validation_failed", "passengers[0].type"],
        ["a passenger given twice", (o) => orderInput(o, { passengers: [passengerInput("lead", "ADULT"), passengerInput("kid", "CHILD"), passengerInput("lead", "ADULT")] }), "validation_failed", "passengers[2].id"],
        ["a service the offer does not have", (o) => ({ ...orderInput(o), services: [{ id: "ase_unknown", quantity: 1 }] }), "invalid_field_value", "services[0].id"],
        ["an unknown offer id", (o) => ({ ...orderInput(o), offerId: "off_neverexisted" }), "not_found", "offerId"],
        ["a payment one cent short", (o) => orderInput(o, { payment: { type: "BALANCE", currency: o.totalCurrency, amount: ((toMinor(o.totalAmount, o.totalCurrency) - 1) / 100).toFixed(2) } }), "payment_amount_mismatch", "payment.amount"],
        ["a payment in another currency", (o) => orderInput(o, { payment: { type: "BALANCE", currency: "EUR", amount: o.totalAmount } }), "payment_amount_mismatch", "payment.amount"],
      ])("refuses %s", async (_label, input, code, field) => {
        const offer = await freshOffer(alice.key);
        const before = await totalOrders(alice.key);
        const response = await graphql(server, CREATE, { input: input(offer), key: newKey("gql-bad") }, { key: alice.key });
        expectGraphQLError(response, code, { field });
        expect(response.body.data).toBeNull();
        expect(await totalOrders(alice.key)).toBe(before);
        // The offer is still bookable: a refusal holds nothing.
        expect((await createOrder(alice.key, offer)).order.status).toBe("PENDING");
      });

      it("refuses a payment amount that is not a decimal while reading the variables (DecimalAmount), naming it", async () => {
        const offer = await freshOffer(alice.key);
        const before = await totalOrders(alice.key);
        const input = orderInput(offer, { payment: { type: "BALANCE", currency: offer.totalCurrency, amount: offer.totalAmount.replace(".", ",") } });
        const response = await graphql(server, CREATE, { input, key: newKey("gql-bad") }, { key: alice.key });
        expectGraphQLError(response, "validation_failed", { httpStatus: 400, field: "input.payment.amount" });
        expect(await totalOrders(alice.key)).toBe(before);
      });
    });
  });

  describe("services and the wallet at booking", () => {
    const OFFER_SERVICES = `query($id: ID!) { offer(id: $id) { availableServices { id type totalAmount totalCurrency maximumQuantity passengerIds } } }`;

    it("books services with the offer: the total and the payment include them", async () => {
      const offer = await freshOffer(alice.key);
      const services = (await gql(alice.key, OFFER_SERVICES, { id: offer.id })).offer.availableServices;
      const bag = services.find((service: any) => service.type === "baggage" && service.passengerIds[0] === "lead");
      expect(bag).toMatchObject({ totalCurrency: offer.totalCurrency, maximumQuantity: 2 });
      const total = toMinor(offer.totalAmount, offer.totalCurrency) + 2 * toMinor(bag.totalAmount, bag.totalCurrency);
      const amount = (total / 100).toFixed(2);

      // Paying only the offer's total is short by the services.
      const short = await graphql(server, CREATE, { input: { ...orderInput(offer), services: [{ id: bag.id, quantity: 2 }] }, key: newKey("gql-order") }, { key: alice.key });
      expectGraphQLError(short, "payment_amount_mismatch", { statusCode: 422, field: "payment.amount" });
      const tooMany = await graphql(server, CREATE, { input: { ...orderInput(offer, { payment: { type: "BALANCE", currency: offer.totalCurrency, amount } }), services: [{ id: bag.id, quantity: 3 }] }, key: newKey("gql-order") }, { key: alice.key });
      expectGraphQLError(tooMany, "validation_failed", { field: "services[0].quantity" });

      const input = { ...orderInput(offer, { payment: { type: "BALANCE", currency: offer.totalCurrency, amount } }), services: [{ id: bag.id, quantity: 2 }] };
      const data = await gql(alice.key, `mutation($input: CreateOrderInput!, $key: String!) { createOrder(input: $input, idempotencyKey: $key) { totalAmount offer { totalAmount } services { id type quantity totalAmount totalCurrency passengerIds } } }`, { input, key: newKey("gql-order") });
      expect(data.createOrder).toEqual({
        totalAmount: amount,
        offer: { totalAmount: offer.totalAmount },
        services: [{ id: bag.id, type: "baggage", quantity: 2, totalAmount: ((2 * toMinor(bag.totalAmount, bag.totalCurrency)) / 100).toFixed(2), totalCurrency: offer.totalCurrency, passengerIds: ["lead"] }],
      });
    });

    it("a live tenant's wallet starts empty: createOrder is insufficient_balance until the owner credits it, and ticketing spends it", async () => {
      const live = await createTenant(server, { name: "Live Co", environment: "live" });
      const empty = await wallet(live.key);
      expect(toMinor(empty.balance, empty.currency)).toBe(0);
      const offer = await freshOffer(live.key);
      const refused = await graphql(server, CREATE, { input: orderInput(offer), key: newKey("gql-order") }, { key: live.key });
      expectGraphQLError(refused, "insufficient_balance", { statusCode: 402 });
      expect(await totalOrders(live.key)).toBe(0);

      await gql(server.ownerKey, CREDIT, { tenantId: live.tenantId, amount: offer.totalAmount, currency: empty.currency });
      const { order } = await createOrder(live.key, offer);
      await gql(live.key, TICKET, { id: order.id, key: newKey("gql-ticket") });
      expect(toMinor((await wallet(live.key)).balance, empty.currency)).toBe(0);
      const done = await waitForOrderStatus(live.key, order.id, "TICKETED");
      expect(done.documents).toHaveLength(2);
    });
  });

  describe("ticketing, cancelling and changing passengers", () => {
    it("ticketOrder debits exactly the total, answers PROCESSING, and the order becomes TICKETED with an e-ticket per passenger", async () => {
      const { order, offer } = await createOrder(alice.key);
      const total = toMinor(offer.totalAmount, offer.totalCurrency);
      const before = await wallet(alice.key);
      expect(before.currency).toBe(offer.totalCurrency);

      const ticketKey = newKey("gql-ticket");
      const ticketed = (await gql(alice.key, TICKET, { id: order.id, key: ticketKey })).ticketOrder;
      expect(ticketed).toMatchObject({ id: order.id, status: "PROCESSING", totalAmount: offer.totalAmount });

      const done = await waitForOrderStatus(alice.key, order.id, "TICKETED");
      expect(done.failureReason).toBeNull();
      expect(done.documents).toHaveLength(offer.passengers.length);
      expect(done.documents.map((document: any) => document.passengerId).sort()).toEqual(offer.passengers.map((p) => p.id).sort());
      for (const document of done.documents) {
        expect(document).toEqual({
          id: expect.any(String),
          type: "electronic_ticket",
          uniqueIdentifier: expect.stringMatching(/^\d{13}$/),
          passengerId: expect.any(String),
          url: `/v1/air/orders/${order.id}/documents/${document.id}`,
          issuedAt: expect.any(String),
        });
        // The url is where REST serves the document.
        const rest = await call(server, "GET", document.url, { key: alice.key });
        expect(rest.status, JSON.stringify(rest.body).slice(0, 300)).toBe(200);
        expect(JSON.stringify(rest.body)).toContain(document.uniqueIdentifier);
      }
      expect(new Set(done.documents.map((document: any) => document.uniqueIdentifier)).size).toBe(done.documents.length);

      const after = await wallet(alice.key);
      expect(toMinor(before.balance, before.currency) - toMinor(after.balance, after.currency)).toBe(total);
      const entries = after.transactions.nodes.filter((entry) => entry.orderId === order.id);
      expect(entries).toEqual([
        { id: expect.any(String), type: "TICKETING_DEBIT", amount: `-${offer.totalAmount}`, currency: offer.totalCurrency, balanceAfter: expect.any(String), orderId: order.id },
      ]);
      expect(after.transactions.nodes[0]).toEqual(entries[0]);
      expect(after.transactions.nodes[0].balanceAfter).toBe(after.balance);

      // Repeating the ticketOrder under its key returns the order as it is now, without a second debit.
      const repeat = (await gql(alice.key, TICKET, { id: order.id, key: ticketKey })).ticketOrder;
      expect(repeat).toMatchObject({ id: order.id, status: "TICKETED" });
      expect((await wallet(alice.key)).balance).toBe(after.balance);

      // A TICKETED order is final: no new ticketing, no cancel, no passenger change.
      for (const [document, variables] of [
        [TICKET, { id: order.id, key: newKey("gql-ticket") }],
        [CANCEL, { id: order.id }],
        [UPDATE, { id: order.id, passengers: [{ id: "lead", givenName: "Grace" }] }],
      ] as const) {
        const refused = await graphql(server, document, variables, { key: alice.key });
        expectGraphQLError(refused, "order_state_conflict", { statusCode: 409 });
        expect(refused.body.errors![0]!.message).toContain("TICKETED");
      }
      const final = (await gql(alice.key, ORDER, { id: order.id })).order;
      expect(final.status).toBe("TICKETED");
      expect(final.passengers[0].givenName).toBe("Ada");
    });

    it("ticketOrder needs its idempotencyKey too", async () => {
      const { order } = await createOrder(alice.key);
      const empty = await graphql(server, TICKET, { id: order.id, key: "" }, { key: alice.key });
      expectGraphQLError(empty, "idempotency_key_required", { statusCode: 400, field: "idempotencyKey" });
      const omitted = await graphql(server, `mutation($id: ID!) { ticketOrder(orderId: $id) { id } }`, { id: order.id }, { key: alice.key });
      expectGraphQLError(omitted, "validation_failed", { httpStatus: 400 });
      expect((await gql(alice.key, ORDER, { id: order.id })).order.status).toBe("PENDING");
    });

    it("cancelOrder moves a PENDING order to CANCELED; cancelling it again, or ticketing it, is order_state_conflict", async () => {
      const { order } = await createOrder(alice.key);
      const balance = (await wallet(alice.key)).balance;
      const cancelKey = newKey("gql-cancel");
      const canceled = (await gql(alice.key, CANCEL, { id: order.id, key: cancelKey })).cancelOrder;
      expect(canceled).toMatchObject({ id: order.id, status: "CANCELED" });
      // A retry under the same key is answered with the order, not a conflict.
      expect((await gql(alice.key, CANCEL, { id: order.id, key: cancelKey })).cancelOrder).toMatchObject({ id: order.id, status: "CANCELED" });
      expect((await gql(alice.key, ORDER, { id: order.id })).order.status).toBe("CANCELED");

      for (const [document, variables] of [
        [CANCEL, { id: order.id }],
        [TICKET, { id: order.id, key: newKey("gql-ticket") }],
        [UPDATE, { id: order.id, passengers: [{ id: "lead", givenName: "Grace" }] }],
      ] as const) {
        const refused = await graphql(server, document, variables, { key: alice.key });
        expectGraphQLError(refused, "order_state_conflict", { statusCode: 409 });
        expect(refused.body.errors![0]!.message).toContain("CANCELED");
        expect(refused.body.data).toBeNull();
      }
      expect((await wallet(alice.key)).balance).toBe(balance);
    });

    it("updateOrderPassengers changes only the fields given while PENDING, and checks them like booking", async () => {
      const { order } = await createOrder(alice.key);
      const updated = (await gql(alice.key, UPDATE, { id: order.id, passengers: [{ id: "lead", givenName: "Grace", familyName: "Hopper" }] })).updateOrderPassengers;
      expect(updated.status).toBe("PENDING");
      expect(updated.passengers).toEqual([
        { id: "lead", givenName: "Grace", familyName: "Hopper", bornOn: BORN_ON.ADULT },
        { id: "kid", givenName: "Ada", familyName: "Lovelace", bornOn: BORN_ON.CHILD },
      ]);
      const read = (await gql(alice.key, ORDER, { id: order.id })).order;
      expect(read.passengers.map((p: any) => [p.id, p.givenName, p.familyName, p.phoneNumber])).toEqual([
        ["lead", "Grace", "Hopper", "+442080160508"],
        ["kid", "Ada", "Lovelace", "+442080160508"],
      ]);

      const future = await graphql(server, UPDATE, { id: order.id, passengers: [{ id: "kid", bornOn: daysAhead(400) }] }, { key: alice.key });
      expectGraphQLError(future, "validation_failed", { statusCode: 400, field: "passengers[0].bornOn" });
      const phone = await graphql(server, UPDATE, { id: order.id, passengers: [{ id: "lead", phoneNumber: "12345" }] }, { key: alice.key });
      expectGraphQLError(phone, "validation_failed", { statusCode: 400, field: "passengers[0].phoneNumber" });
      const unknown = await graphql(server, UPDATE, { id: order.id, passengers: [{ id: "stranger", givenName: "Eve" }] }, { key: alice.key });
      expectGraphQLError(unknown, "validation_failed", { statusCode: 400, field: "passengers[0].id" });
      expect((await gql(alice.key, ORDER, { id: order.id })).order.passengers.map((p: any) => p.bornOn)).toEqual([BORN_ON.ADULT, BORN_ON.CHILD]);

      // Once ticketing began, no more changes.
      await gql(alice.key, TICKET, { id: order.id, key: newKey("gql-ticket") });
      const late = await graphql(server, UPDATE, { id: order.id, passengers: [{ id: "lead", givenName: "Ada" }] }, { key: alice.key });
      expectGraphQLError(late, "order_state_conflict", { statusCode: 409 });
      await waitForOrderStatus(alice.key, order.id, "TICKETED");
      expect((await gql(alice.key, ORDER, { id: order.id })).order.passengers[0].givenName).toBe("Grace");
    });
  });

  describe("Query.orders", () => {
    let listed: TenantFixture;
    const created: string[] = [];
    const canceled: string[] = [];
    beforeAll(async () => {
      listed = await createTenant(server, { name: "Listed" });
      for (let i = 0; i < 7; i++) created.push((await createOrder(listed.key)).order.id);
      for (const id of [created[1]!, created[4]!]) {
        await gql(listed.key, CANCEL, { id });
        canceled.push(id);
      }
    });

    it("counts the tenant's orders, newest first, and filters by status", async () => {
      const all = (await gql(listed.key, ORDERS, { first: 100 })).orders;
      expect(all.totalCount).toBe(created.length);
      expect(all.nodes.map((node: any) => node.id).sort()).toEqual([...created].sort());
      expect(all.edges.map((edge: any) => edge.node.id)).toEqual(all.nodes.map((node: any) => node.id));
      const times = all.nodes.map((node: any) => Date.parse(node.createdAt));
      expect(times).toEqual([...times].sort((a, b) => b - a));
      expect(all.pageInfo.hasNextPage).toBe(false);

      const cancelled = (await gql(listed.key, ORDERS, { first: 100, status: "CANCELED" })).orders;
      expect(cancelled.totalCount).toBe(canceled.length);
      expect(cancelled.nodes.map((node: any) => node.id).sort()).toEqual([...canceled].sort());
      for (const node of cancelled.nodes) expect(node.status).toBe("CANCELED");

      const pending = (await gql(listed.key, ORDERS, { first: 100, status: "PENDING" })).orders;
      expect(pending.totalCount).toBe(created.length - canceled.length);
      expect(pending.nodes.every((node: any) => node.status === "PENDING")).toBe(true);

      expect((await gql(listed.key, ORDERS, { first: 100, status: "TICKETED" })).orders).toMatchObject({ totalCount: 0, nodes: [] });
    });

    it("walks pages of 2 without repeats or gaps, in the order of the whole list", async () => {
      const all = (await gql(listed.key, ORDERS, { first: 100 })).orders.nodes.map((node: any) => node.id);
      const seen: string[] = [];
      let after: string | null = null;
      for (let page = 0; ; page++) {
        expect(page).toBeLessThan(10);
        const connection: any = (await gql(listed.key, ORDERS, { first: 2, after })).orders;
        expect(connection.totalCount).toBe(created.length);
        expect(connection.nodes.length).toBeLessThanOrEqual(2);
        seen.push(...connection.nodes.map((node: any) => node.id));
        if (!connection.pageInfo.hasNextPage) break;
        expect(connection.pageInfo.endCursor).toBe(connection.edges.at(-1).cursor);
        after = connection.pageInfo.endCursor;
      }
      expect(seen).toEqual(all);
      expect(new Set(seen).size).toBe(created.length);

      // The status filter pages too.
      const first = (await gql(listed.key, ORDERS, { first: 1, status: "CANCELED" })).orders;
      const second = (await gql(listed.key, ORDERS, { first: 1, status: "CANCELED", after: first.pageInfo.endCursor })).orders;
      expect(first.pageInfo.hasNextPage).toBe(true);
      expect(second.pageInfo.hasNextPage).toBe(false);
      expect([...first.nodes, ...second.nodes].map((node: any) => node.id).sort()).toEqual([...canceled].sort());
    });
  });

  describe("a refused page names its reason in the message", () => {
    it("wallet.transactions(last: 5) without before says last needs before, not a generic message", async () => {
      const response = await graphql(server, "{ wallet { transactions(last: 5) { totalCount } } }", {}, { key: alice.key });
      expectGraphQLError(response, "validation_failed", { field: "last" });
      expect(response.body.errors![0]!.message).toBe("last: needs before (a cursor to page backwards from)");
    });
  });

  describe("tenant isolation", () => {
    it("another tenant's order is null to order(id:), absent from orders, and not_found to every mutation", async () => {
      const { order } = await createOrder(alice.key);
      expect(await gql(bob.key, ORDER, { id: order.id })).toEqual({ order: null });
      expect(await gql(bob.key, ORDER, { id: "ord_neverexisted" })).toEqual({ order: null });
      const bobs = (await gql(bob.key, ORDERS, { first: 100 })).orders.nodes.map((node: any) => node.id);
      expect(bobs).not.toContain(order.id);

      for (const [document, variables] of [
        [TICKET, { id: order.id, key: newKey("gql-ticket") }],
        [CANCEL, { id: order.id }],
        [UPDATE, { id: order.id, passengers: [{ id: "lead", givenName: "Mallory" }] }],
      ] as const) {
        const refused = await graphql(server, document, variables, { key: bob.key });
        expectGraphQLError(refused, "not_found", { statusCode: 404 });
        expect(refused.body.data).toBeNull();
      }
      // Alice's order is untouched, and Bob's wallet was not debited.
      const read = (await gql(alice.key, ORDER, { id: order.id })).order;
      expect(read.status).toBe("PENDING");
      expect(read.passengers[0].givenName).toBe("Ada");
      expect((await wallet(bob.key)).transactions.nodes.some((entry) => entry.orderId === order.id)).toBe(false);
    });
  });

  describe("Mutation.creditWallet", () => {
    it("is owner-only: a tenant key is forbidden and the balance stays", async () => {
      const before = await wallet(alice.key);
      const refused = await graphql(server, CREDIT, { tenantId: alice.tenantId, amount: "100.00", currency: before.currency }, { key: alice.key });
      expectGraphQLError(refused, "forbidden", { statusCode: 403 });
      expect(refused.body.data).toBeNull();
      expect((await wallet(alice.key)).balance).toBe(before.balance);
    });

    it("the owner credits a tenant: the OWNER_CREDIT entry, the wallet after it, and the tenant sees the balance moved", async () => {
      const before = await wallet(bob.key);
      const key = newKey("gql-credit");
      const variables = { tenantId: bob.tenantId, amount: "250.50", currency: before.currency, reference: "top-up 42", key };
      const credit = (await gql(server.ownerKey, CREDIT, variables)).creditWallet;
      const expected = toMinor(before.balance, before.currency) + 25050;
      expect(credit).toEqual({
        transaction: { id: expect.any(String), type: "OWNER_CREDIT", amount: "250.50", currency: before.currency, balanceAfter: credit.wallet.balance, reference: "top-up 42" },
        wallet: { balance: credit.wallet.balance, currency: before.currency },
      });
      expect(toMinor(credit.wallet.balance, before.currency)).toBe(expected);
      const after = await wallet(bob.key);
      expect(after.balance).toBe(credit.wallet.balance);
      expect(after.transactions.nodes[0]).toMatchObject({ id: credit.transaction.id, type: "OWNER_CREDIT", amount: "250.50", orderId: null });
      expect(after.transactions.totalCount).toBe(before.transactions.totalCount + 1);

      // The same key and input: the same credit, once.
      const again = (await gql(server.ownerKey, CREDIT, variables)).creditWallet;
      expect(again.transaction.id).toBe(credit.transaction.id);
      expect((await wallet(bob.key)).balance).toBe(credit.wallet.balance);

      // Not in the wallet's currency, or not a positive amount: refused, nothing moves.
      expectGraphQLError(await graphql(server, CREDIT, { tenantId: bob.tenantId, amount: "10.00", currency: "EUR" }, { key: server.ownerKey }), "currency_mismatch", { field: "currency" });
      expectGraphQLError(await graphql(server, CREDIT, { tenantId: bob.tenantId, amount: "0", currency: before.currency }, { key: server.ownerKey }), "validation_failed", { field: "amount" });
      expectGraphQLError(await graphql(server, CREDIT, { tenantId: bob.tenantId, amount: "1.005", currency: before.currency }, { key: server.ownerKey }), "validation_failed", { field: "amount" });
      expect((await wallet(bob.key)).balance).toBe(credit.wallet.balance);
    });
  });

  describe("database queries per operation (DataLoader, no N+1)", () => {
    let counted: TenantFixture;
    beforeAll(async () => {
      counted = await createTenant(server, { name: "Counted" });
      const ids: string[] = [];
      for (let i = 0; i < 12; i++) ids.push((await createOrder(counted.key)).order.id);
      // Some of the newest orders ticketed, so documents exist on the pages counted.
      for (const id of ids.slice(-3)) await gql(counted.key, TICKET, { id, key: newKey("gql-ticket") });
      for (const id of ids.slice(-3)) await waitForOrderStatus(counted.key, id, "TICKETED");
    });

    /**
     * SQL statements the server sent while answering `document`, after a warm-up run; the smaller
     * of two runs, as in graphql-search.test.ts (an API-key cache entry expiring adds a query).
     */
    async function queriesFor(document: string) {
      const run = () =>
        server.recordQueries(async () => {
          const response = await graphql(server, document, {}, { key: counted.key });
          expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
          return response.body.data;
        });
      await run();
      const [first, second] = [await run(), await run()];
      return first.queries.length <= second.queries.length ? first : second;
    }

    it("a page of orders with passengers, documents and offer costs the same statements for 2 as for 10 orders", async () => {
      const listOf = (size: number) => `{ orders(first: ${size}) { nodes { id passengers { id } documents { id } offer { id } } } }`;
      const two = await queriesFor(listOf(2));
      const ten = await queriesFor(listOf(10));
      expect(two.result.orders.nodes).toHaveLength(2);
      expect(ten.result.orders.nodes).toHaveLength(10);
      for (const node of ten.result.orders.nodes) {
        expect(node.passengers.map((p: any) => p.id)).toEqual(["lead", "kid"]);
        expect(node.offer.id).toMatch(/^off_/);
      }
      expect(ten.result.orders.nodes.slice(0, 3).every((node: any) => node.documents.length === 2)).toBe(true);
      expect(ten.result.orders.nodes.slice(3).every((node: any) => node.documents.length === 0)).toBe(true);
      expect(ten.queries.length, ten.queries.join("\n")).toBe(two.queries.length);
      // A page, a count, and batched passengers and documents: nothing per order.
      expect(ten.queries.length, ten.queries.join("\n")).toBe(4);
    });

    it("several order(id:) fields in one operation are one batched query, within the caller's tenant", async () => {
      const ids = (await gql(counted.key, ORDERS, { first: 3 })).orders.nodes.map((node: any) => node.id);
      const document = `{ a: order(id: "${ids[0]}") { id } b: order(id: "${ids[1]}") { id } c: order(id: "${ids[2]}") { id } missing: order(id: "ord_neverexisted") { id } }`;
      const { result, queries } = await queriesFor(document);
      expect(result).toEqual({ a: { id: ids[0] }, b: { id: ids[1] }, c: { id: ids[2] }, missing: null });
      expect(queries, queries.join("\n")).toHaveLength(1);
      const asAlice = await graphql(server, document, {}, { key: alice.key });
      expect(asAlice.body).toEqual({ data: { a: null, b: null, c: null, missing: null } });
    });
  });
});
