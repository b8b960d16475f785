import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type ApiResponse, type TenantFixture } from "../helpers/client";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { changeOffer, createChange, paymentFor } from "../helpers/order-changes";
import { bookOffer, createOrderA, newKey, passengerFor, passengersOf, searchForBooking, signedMinor, ticketOrder, waitForStatus } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { credit, getWallet } from "../helpers/wallet";

/**
 * A 402 (and the B ticket path's TB_AUTH_101) says what the operation costs; it says what the
 * wallet holds only to a key that may read the wallet (`wallet: read`, or the owner). Each
 * operation that can find the wallet short is refused here twice, to a key without the wallet
 * and to one with it: booking (A, B and GraphQL), ticketing and paying, services added to a
 * ticketed order, and a change's confirmation, on REST and GraphQL.
 */

const BLIND = { search: "write", orders: "write" } as const;
const READER = { ...BLIND, wallet: "read" } as const;

describe("the wallet's balance in refusals for want of money", () => {
  let server: TestServer;
  let live: TenantFixture;
  const keys = { blind: "", reader: "" };
  /** What the wallet holds while the refusals are made, as the API writes it ("0.37"). */
  let balance: string;
  /** A TICKETED order (its fare allows changes), a PENDING one the wallet cannot pay, an offer it cannot book. */
  let ticketed: any;
  let unpaid: any;
  let unbooked: any;

  const issueKey = async (permissions: Record<string, string>): Promise<string> => {
    const issued = await call(server, "POST", `/v1/tenants/${live.tenantId}/keys`, { key: server.ownerKey, body: { label: "scoped", permissions } });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    return issued.body.data.apiKey;
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "50" } });
    live = await createTenant(server, { name: "Live Travel", environment: "live" });
    keys.blind = await issueKey(BLIND);
    keys.reader = await issueKey(READER);
    const offers = await searchForBooking(server, live.key);
    const minor = (offer: any) => toMinor(offer.total_amount, offer.total_currency);
    const changeable = offers.filter((offer) => offer.conditions.change_before_departure.allowed).sort((a, b) => minor(b) - minor(a));
    const first = changeable[0];
    const cheaper = offers.filter((offer) => offer.id !== first?.id && minor(offer) <= minor(first));
    if (!first || cheaper.length < 2) throw new Error("the search needs a changeable offer and two no dearer");
    // The wallet pays the first order's ticket and nothing else: the second order was booked while it could.
    await credit(server, live.tenantId, first.total_amount, first.total_currency);
    const booked = await bookOffer(server, live.key, first);
    unpaid = await bookOffer(server, live.key, cheaper[0]);
    unbooked = cheaper[1];
    expect((await ticketOrder(server, live.key, booked.id)).status).toBe(200);
    ticketed = (await waitForStatus(server, live.key, booked.id, ["TICKETED"])).body.data;
    await credit(server, live.tenantId, "0.37", first.total_currency);
    balance = (await getWallet(server, live.key)).balance;
    expect(balance).toBe("0.37");
  });
  afterAll(() => server.close());

  /** The reason shows the balance to a key that may read the wallet, and nothing of it to one that may not. */
  function expectBalance(reason: string | undefined, shown: boolean): void {
    const held = new RegExp(`\\b${balance.replace(".", "\\.")}\\b`);
    if (shown) {
      expect(reason).toMatch(held);
      expect(reason).toMatch(/wallet holds/);
    } else {
      expect(reason).not.toMatch(held);
      expect(reason).not.toMatch(/holds/);
      expect(reason).toMatch(/cannot cover/);
    }
  }

  /** A REST refusal: the status and code, then the balance in `reason` as the key may see it. */
  function expectRefusal(response: ApiResponse, shown: boolean, status = 402, code = "insufficient_balance"): void {
    expectError(response, status, code);
    expectBalance(response.body.reason, shown);
  }

  /** A GraphQL refusal: insufficient_balance, and the balance in `extensions.reason` as the key may see it. */
  function expectGraphQLRefusal(response: ApiResponse, shown: boolean): void {
    expectGraphQLError(response, "insufficient_balance", { statusCode: 402 });
    expectBalance(response.body.errors[0].extensions.reason, shown);
  }

  const cases = [
    ["without wallet: read", "blind", false],
    ["with wallet: read", "reader", true],
  ] as const;

  describe.each(cases)("a key %s", (_label, which, shown) => {
    const key = () => keys[which];

    it("booking: Variant A, Variant B and createOrder", async () => {
      expectRefusal(await createOrderA(server, key(), unbooked), shown);
      const variantB = await call(server, "POST", "/v1/air/orders", { key: key(), headers: { "idempotency-key": newKey("b") }, body: { offerId: unbooked.id, passengers: passengersOf(unbooked) } });
      expectRefusal(variantB, shown);
      const passengers = unbooked.passengers.map(({ id }: { id: string }) => {
        const rest = passengerFor(id);
        const [passport] = rest.identity_documents as Array<Record<string, string>>;
        const identityDocuments = [{ type: "PASSPORT", number: passport!.number, issuingCountryCode: passport!.issuing_country_code, expiresOn: passport!.expires_on }];
        return { id, givenName: rest.given_name, familyName: rest.family_name, bornOn: rest.born_on, gender: "F", email: rest.email, phoneNumber: rest.phone_number, identityDocuments };
      });
      const created = await graphql(
        server,
        "mutation ($input: CreateOrderInput!, $key: String!) { createOrder(input: $input, idempotencyKey: $key) { id } }",
        { input: { offerId: unbooked.id, passengers }, key: newKey("gql") },
        { key: key() },
      );
      expectGraphQLRefusal(created, shown);
    });

    it("ticketing and paying: the A ticket action (402), the B ticket path (400 TB_AUTH_101), POST /v1/air/payments, ticketOrder", async () => {
      expectRefusal(await ticketOrder(server, key(), unpaid.id), shown);
      const variantB = await call(server, "POST", `/v1/air/orders/${unpaid.id}/ticket`, { key: key(), headers: { "idempotency-key": newKey("b") } });
      expectRefusal(variantB, shown, 400, "TB_AUTH_101");
      const payment = await call(server, "POST", "/v1/air/payments", {
        key: key(),
        headers: { "idempotency-key": newKey("pay") },
        body: { order_id: unpaid.id, payment: { type: "balance", amount: unpaid.total_amount, currency: unpaid.total_currency } },
      });
      expectRefusal(payment, shown);
      const mutation = await graphql(server, "mutation ($id: ID!, $key: String!) { ticketOrder(orderId: $id, idempotencyKey: $key) { id } }", { id: unpaid.id, key: newKey("gql") }, { key: key() });
      expectGraphQLRefusal(mutation, shown);
    });

    it("services added to a ticketed order: POST …/services and addOrderServices", async () => {
      const available = await call(server, "GET", `/v1/air/orders/${ticketed.id}/available_services`, { key: key() });
      const bag = available.body.data.find((service: any) => service.type === "baggage" && toMinor(service.total_amount, service.total_currency) > 37);
      expect(bag, JSON.stringify(available.body)).toBeDefined();
      const payment = { type: "balance", amount: bag.total_amount, currency: bag.total_currency };
      const rest = await call(server, "POST", `/v1/air/orders/${ticketed.id}/services`, { key: key(), headers: { "idempotency-key": newKey("svc") }, body: { add_services: [{ id: bag.id }], payment } });
      expectRefusal(rest, shown);
      const mutation = await graphql(
        server,
        "mutation ($input: AddOrderServicesInput!, $key: String!) { addOrderServices(input: $input, idempotencyKey: $key) { id } }",
        { input: { orderId: ticketed.id, addServices: [{ id: bag.id }], payment: { ...payment, type: "BALANCE" } }, key: newKey("gql") },
        { key: key() },
      );
      expectGraphQLRefusal(mutation, shown);
    });

    it("a change's confirmation: POST …/actions/confirm and confirmOrderChange", async () => {
      // Up to business class: a change that costs more than the wallet holds, whatever the dates' fares.
      const { offer } = await changeOffer(server, live.key, ticketed, { cabinClass: "business", accept: (candidate) => signedMinor(candidate.change_total_amount, candidate.change_total_currency) > 37 });
      const change = (await createChange(server, live.key, offer.id)).body.data;
      const rest = await call(server, "POST", `/v1/air/order_changes/${change.id}/actions/confirm`, { key: key(), body: paymentFor(change) });
      expectRefusal(rest, shown);
      const { payment } = paymentFor(change) as { payment: Record<string, string> };
      const mutation = await graphql(
        server,
        "mutation ($id: ID!, $payment: PaymentInput) { confirmOrderChange(id: $id, payment: $payment) { id } }",
        { id: change.id, payment: { ...payment, type: "BALANCE" } },
        { key: key() },
      );
      expectGraphQLRefusal(mutation, shown);
    });
  });

  it("a refusal repeated for its Idempotency-Key shows no balance, whichever key of the tenant repeats it", async () => {
    // A repeat is the stored answer (its first request id included), with the reason anyone may read.
    const expectReplayed = (response: ApiResponse, status: number, code: string) => {
      expect({ status: response.status, replayed: response.headers.get("idempotent-replayed"), code: response.body.errors[0].code }).toEqual({ status, replayed: "true", code });
      expectBalance(response.body.reason, false);
    };
    const idempotencyKey = newKey("replayed");
    const book = (key: string) => createOrderA(server, key, unbooked, { idempotencyKey });
    expectRefusal(await book(keys.reader), true);
    for (const key of [keys.blind, keys.reader]) expectReplayed(await book(key), 402, "insufficient_balance");
    const ticketKey = newKey("replayed-ticket");
    const variantB = (key: string) => call(server, "POST", `/v1/air/orders/${unpaid.id}/ticket`, { key, headers: { "idempotency-key": ticketKey } });
    expectRefusal(await variantB(keys.reader), true, 400, "TB_AUTH_101");
    expectReplayed(await variantB(keys.blind), 400, "TB_AUTH_101");
    // GraphQL's idempotent mutations repeat a refusal the same way.
    const mutationKey = newKey("replayed-gql");
    const ticket = (key: string) => graphql(server, "mutation ($id: ID!, $key: String!) { ticketOrder(orderId: $id, idempotencyKey: $key) { id } }", { id: unpaid.id, key: mutationKey }, { key });
    expectGraphQLRefusal(await ticket(keys.reader), true);
    expectGraphQLRefusal(await ticket(keys.blind), false);
    expectGraphQLRefusal(await ticket(keys.reader), false);
  });

  it("the owner acting for the tenant is unrestricted: it sees the balance", async () => {
    expectRefusal(await ticketOrder(server, server.ownerKey, unpaid.id, { "service-tenant": live.tenantId }), true);
  });
});
