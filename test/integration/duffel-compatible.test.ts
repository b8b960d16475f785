import { createHmac, timingSafeEqual } from "node:crypto";
import { Duffel, DuffelError } from "@duffel/api";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { daysAhead } from "../helpers/offers";
import { signedMinor } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { startReceiver, type ReceivedHook } from "../helpers/webhook-receiver";

type DuffelErrorThrown = InstanceType<typeof DuffelError>;
type SearchPassengers = Parameters<Duffel["offerRequests"]["create"]>[0]["passengers"];
/** Duffel's API calls a hold `hold`; the client's typings know only `pay_later` (both are accepted). */
const HOLD = "hold" as "pay_later";
/** The client passes any list parameter through, `limit` among them, though its typings omit it. */
const pageOf = <T>(limit: number, rest: object = {}) => ({ ...rest, limit }) as unknown as T;

/**
 * The Duffel-compatible surface (docs/duffel-compatible.md), driven only by Duffel's official
 * client pointed at /duffel/ with an Aerogate tenant key: the booking journeys, lists the
 * client walks, safe retries without Idempotency-Key, and errors in Duffel's shape.
 */
describe("the Duffel-compatible surface, through @duffel/api", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  let duffel: Duffel;
  beforeAll(async () => {
    // Receivers listen on 127.0.0.1.
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } });
    tenant = await createTenant(server, { name: "Switched From Duffel" });
    // The one line a Duffel integration changes.
    duffel = new Duffel({ token: tenant.key, basePath: `${server.url}/duffel/` });
  });
  afterAll(() => server.close());

  let searchDay = 25 + (process.pid % 30);
  /** A search on a date no other test of this suite booked: its offers, as the client reads them. */
  const search = async (passengers: SearchPassengers = [{ type: "adult" }]) => {
    searchDay += 1;
    const request = await duffel.offerRequests.create({
      slices: [{ origin: "LHR", destination: "JFK", departure_date: daysAhead(searchDay), departure_time: null, arrival_time: null }],
      passengers,
      cabin_class: "economy",
      return_offers: true,
    });
    expect(request.data.offers.length).toBeGreaterThan(0);
    return request.data;
  };
  const passengerFor = (id: string) => ({
    id,
    title: "ms" as const,
    given_name: "Ada",
    family_name: "Lovelace",
    born_on: "1985-04-12",
    gender: "f" as const,
    email: `${id}@travel.example`,
    phone_number: "+442080160508",
    identity_documents: [{ type: "passport" as const, unique_identifier: "P12345678", issuing_country_code: "GB", expires_on: "2036-01-01" }],
  });
  const passengersOf = (offer: { passengers: Array<{ id: string }> }) => offer.passengers.map((passenger) => passengerFor(passenger.id));
  const balanceMinor = async () => {
    const wallet = await call(server, "GET", "/v1/wallet", { key: tenant.key });
    expect(wallet.status).toBe(200);
    return signedMinor(wallet.body.data.balance, wallet.body.data.currency);
  };
  const orderCount = async () => {
    const orders = await call(server, "GET", "/v1/air/orders?limit=100", { key: tenant.key });
    return orders.body.data.pagination.total as number;
  };
  /** The DuffelError a call throws (failing the test if it does not throw one). */
  const duffelError = async (work: () => Promise<unknown>): Promise<DuffelErrorThrown> => {
    const error = await work().then(
      () => undefined,
      (thrown: unknown) => thrown,
    );
    expect(error).toBeInstanceOf(DuffelError);
    return error as DuffelErrorThrown;
  };
  const expectDuffelShape = (error: DuffelErrorThrown, status: number, code: string) => {
    expect(error.meta).toMatchObject({ status, request_id: expect.any(String) });
    expect(error.errors).toHaveLength(1);
    expect(error.errors[0]).toMatchObject({ code, type: expect.any(String), title: expect.any(String), message: expect.any(String), documentation_url: expect.stringContaining(code) });
  };

  it("search → offers sorted by total → offer with services → seat map → instant order paid from the balance → cancellation quote → confirm → the wallet credited", async () => {
    const request = await search();
    const totals = request.offers.map((offer) => Number(offer.total_amount));
    expect(totals).toEqual([...totals].sort((a, b) => a - b));
    expect(request.id).toMatch(/^orq_/);

    const chosen = request.offers[0]!;
    const offer = (await duffel.offers.get(chosen.id, { return_available_services: true })).data;
    expect(offer).toMatchObject({ id: chosen.id, total_amount: chosen.total_amount, payment_requirements: { requires_instant_payment: expect.any(Boolean) } });
    expect(Array.isArray(offer.available_services)).toBe(true);
    const maps = (await duffel.seatMaps.get({ offer_id: offer.id })).data;
    expect(Array.isArray(maps)).toBe(true);

    const before = await balanceMinor();
    const created = await duffel.orders.create({
      type: "instant",
      selected_offers: [offer.id],
      passengers: passengersOf(offer),
      payments: [{ type: "balance", currency: offer.total_currency, amount: offer.total_amount }],
    });
    const order = created.data;
    expect(order).toMatchObject({ id: expect.stringMatching(/^ord_/), total_amount: offer.total_amount });
    expect(order.passengers[0]).toMatchObject({ given_name: "Ada", family_name: "Lovelace" });
    expect(await balanceMinor()).toBe(before - signedMinor(offer.total_amount, offer.total_currency));

    const ticketed = await eventually(async () => {
      const read = (await duffel.orders.get(order.id)).data as unknown as { ticketing_status: string; booking_reference: string };
      return read.ticketing_status === "ticketed" ? read : undefined;
    }, () => `order ${order.id} not ticketed`);
    expect(ticketed.booking_reference).not.toBe("");
    // The same order, read through /v1 and GraphQL.
    expect((await call(server, "GET", `/v1/air/orders/${order.id}`, { key: tenant.key })).status).toBe(200);
    const read = await graphql(server, "query ($id: ID!) { order(id: $id) { id } }", { id: order.id }, { key: tenant.key });
    expect(read.body.data.order).toEqual({ id: order.id });

    const quote = (await duffel.orderCancellations.create({ order_id: order.id })).data;
    expect(quote).toMatchObject({ id: expect.stringMatching(/^ore_/), order_id: order.id });
    expect((await duffel.orderCancellations.get(quote.id)).data.id).toBe(quote.id);
    const beforeRefund = await balanceMinor();
    const confirmed = (await duffel.orderCancellations.confirm(quote.id)).data;
    expect(confirmed.confirmed_at).not.toBeNull();
    // A repeated confirm answers it again.
    expect((await duffel.orderCancellations.confirm(quote.id)).data.id).toBe(quote.id);
    const refund = signedMinor(quote.refund_amount ?? "0", quote.refund_currency ?? offer.total_currency);
    await eventually(async () => ((await balanceMinor()) === beforeRefund + refund ? true : undefined), () => `the wallet was not credited ${refund}`);
  });

  it("a hold, then payments.create: debits the total once; a repeated payment is refused and debits nothing", async () => {
    const offer = (await search()).offers[0]!;
    const hold = (await duffel.orders.create({ type: HOLD, selected_offers: [offer.id], passengers: passengersOf(offer) })).data;
    expect(hold.payment_status.awaiting_payment).toBe(true);
    const before = await balanceMinor();
    const payment = { order_id: hold.id, payment: { type: "balance" as const, currency: hold.total_currency, amount: hold.total_amount } };
    const paid = (await duffel.payments.create(payment)).data;
    expect(paid).toMatchObject({ amount: hold.total_amount, currency: hold.total_currency });
    const afterFirst = await balanceMinor();
    expect(afterFirst).toBe(before - signedMinor(hold.total_amount, hold.total_currency));

    const repeat = await duffelError(() => duffel.payments.create(payment));
    expect(repeat.meta.status).toBeGreaterThanOrEqual(400);
    expect(repeat.meta.status).toBeLessThan(500);
    expect(await balanceMinor()).toBe(afterFirst);
  });

  it("payments.create of one hold sent 10 times at once debits the total once", async () => {
    const offer = (await search()).offers[0]!;
    const hold = (await duffel.orders.create({ type: HOLD, selected_offers: [offer.id], passengers: passengersOf(offer) })).data;
    const before = await balanceMinor();
    const payment = { order_id: hold.id, payment: { type: "balance" as const, currency: hold.total_currency, amount: hold.total_amount } };
    const outcomes = await Promise.allSettled(Array.from({ length: 10 }, () => duffel.payments.create(payment)));
    expect(outcomes.filter((outcome) => outcome.status === "fulfilled")).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === "rejected") expect((outcome.reason as DuffelErrorThrown).meta.status).toBeLessThan(500);
    }
    expect(await balanceMinor()).toBe(before - signedMinor(hold.total_amount, hold.total_currency));
  });

  it("orders.update replaces the order's metadata in any state; the order reads so on /v1; bad metadata changes nothing", async () => {
    const offer = (await search()).offers[0]!;
    const hold = (await duffel.orders.create({ type: HOLD, selected_offers: [offer.id], passengers: passengersOf(offer), metadata: { crm: "first" } })).data;
    const updated = (await duffel.orders.update(hold.id, { metadata: { crm: "C-42", channel: "app" } })).data;
    expect(updated).toMatchObject({ id: hold.id, metadata: { crm: "C-42", channel: "app" } });
    const read = await call(server, "GET", `/v1/air/orders/${hold.id}`, { key: tenant.key });
    expect(read.body.data.metadata).toEqual({ crm: "C-42", channel: "app" });
    expect((await duffel.orders.get(hold.id)).data.metadata).toEqual({ crm: "C-42", channel: "app" });

    const refused = await duffelError(() => duffel.orders.update(hold.id, { metadata: { crm: "x".repeat(501) } }));
    expectDuffelShape(refused, 400, "validation_failed");
    expect((await duffel.orders.get(hold.id)).data.metadata).toEqual({ crm: "C-42", channel: "app" });
    expectDuffelShape(await duffelError(() => duffel.orders.update("ord_0000000000000000000000", { metadata: {} })), 404, "not_found");
  });

  it("the client's pay_later spelling of a hold books one too", async () => {
    const offer = (await search()).offers[0]!;
    const hold = (await duffel.orders.create({ type: "pay_later", selected_offers: [offer.id], passengers: passengersOf(offer) })).data;
    expect(hold.payment_status.awaiting_payment).toBe(true);
  });

  it("passengers given by age search as their type", async () => {
    const request = await search([{ age: 30 }, { age: 8 }]);
    expect(request.offers[0]!.passengers.map((passenger) => passenger.type).sort()).toEqual(["adult", "child"]);
  });

  it("20 concurrent orders.create of one offer, without Idempotency-Key, make exactly one order", async () => {
    const offer = (await search()).offers[0]!;
    const countBefore = await orderCount();
    const body = { type: HOLD, selected_offers: [offer.id], passengers: passengersOf(offer) };
    const outcomes = await Promise.allSettled(Array.from({ length: 20 }, () => duffel.orders.create(body)));
    const made = outcomes.filter((outcome) => outcome.status === "fulfilled");
    expect(made).toHaveLength(1);
    for (const outcome of outcomes) {
      if (outcome.status === "rejected") {
        expect(outcome.reason).toBeInstanceOf(DuffelError);
        expect((outcome.reason as DuffelErrorThrown).meta.status).toBeLessThan(500);
      }
    }
    expect(await orderCount()).toBe(countBefore + 1);
  });

  it("listWithGenerator walks orders and offers across pages, without repeats or gaps", async () => {
    const request = await search();
    const offerIds: string[] = [];
    for await (const offer of duffel.offers.listWithGenerator(pageOf(2, { offer_request_id: request.id }))) offerIds.push(offer.data.id);
    expect(offerIds.sort()).toEqual(request.offers.map((offer) => offer.id).sort());

    const firstPage = await duffel.orders.list(pageOf(2));
    expect(firstPage.meta).toMatchObject({ limit: 2 });
    const orderIds: string[] = [];
    for await (const order of duffel.orders.listWithGenerator(pageOf(2))) orderIds.push(order.data.id);
    expect(new Set(orderIds).size).toBe(orderIds.length);
    expect(orderIds.length).toBe(await orderCount());
  });

  it("offers.list sorts by total_amount or total_duration, either way, across the pages listWithGenerator walks", async () => {
    const request = await search();
    const minutes = (duration: string) => {
      const [, days, hours, mins] = /^P(?:(\d+)D)?T?(?:(\d+)H)?(?:(\d+)M)?$/.exec(duration) ?? [];
      return Number(days ?? 0) * 1440 + Number(hours ?? 0) * 60 + Number(mins ?? 0);
    };
    type Listed = { total_amount: string; slices: Array<{ duration: string | null }> };
    const totalOf = (offer: Listed) => Number(offer.total_amount);
    const durationOf = (offer: Listed) => offer.slices.reduce((sum, slice) => sum + minutes(slice.duration ?? "PT0M"), 0);
    const walk = async (sort: string) => {
      const offers: Listed[] = [];
      for await (const offer of duffel.offers.listWithGenerator(pageOf(2, { offer_request_id: request.id, sort }))) offers.push(offer.data);
      expect(offers).toHaveLength(request.offers.length);
      return offers;
    };
    const ascending = (values: number[]) => expect(values).toEqual([...values].sort((a, b) => a - b));
    const byTotal = (await walk("total_amount")).map(totalOf);
    expect(new Set(byTotal).size).toBeGreaterThan(1);
    ascending(byTotal);
    ascending((await walk("-total_amount")).map(totalOf).reverse());
    ascending((await walk("total_duration")).map(durationOf));
    ascending((await walk("-total_duration")).map(durationOf).reverse());
    const direct = (await duffel.offers.list({ offer_request_id: request.id, sort: "total_amount", max_connections: 0 })).data;
    for (const offer of direct) for (const slice of offer.slices) expect(slice.segments).toHaveLength(1);

    expectDuffelShape(await duffelError(() => duffel.offers.list({ offer_request_id: request.id, sort: "price" as "total_amount" })), 400, "validation_failed");
  });

  /** An instant order paid from the balance, once it is ticketed, as the client reads it. */
  const ticketedOrder = async () => {
    const offer = (await search()).offers[0]!;
    const payments = [{ type: "balance" as const, currency: offer.total_currency, amount: offer.total_amount }];
    const order = (await duffel.orders.create({ type: "instant", selected_offers: [offer.id], passengers: passengersOf(offer), payments })).data;
    return eventually(async () => {
      const read = (await duffel.orders.get(order.id)).data;
      return (read as unknown as { ticketing_status: string }).ticketing_status === "ticketed" ? read : undefined;
    }, () => `order ${order.id} not ticketed`);
  };
  const laterDate = (date: string, days: number) => new Date(Date.parse(`${date}T00:00:00Z`) + days * 86_400_000).toISOString().slice(0, 10);

  it("an order change: request → offers → change → confirm paid from the balance; the order flies the new slice", async () => {
    const order = await ticketedOrder();
    const slice = order.slices[0]! as unknown as { id: string; departure_date: string; origin: { iata_code: string }; destination: { iata_code: string } };
    let request: Awaited<ReturnType<Duffel["orderChangeRequests"]["create"]>>["data"] | undefined;
    for (let days = 1; days <= 10 && request === undefined; days++) {
      const made = await duffel.orderChangeRequests.create({
        order_id: order.id,
        slices: { remove: [{ slice_id: slice.id }], add: [{ origin: slice.origin.iata_code, destination: slice.destination.iata_code, departure_date: laterDate(slice.departure_date, days), cabin_class: "economy" }] },
      });
      if (made.data.order_change_offers.length > 0) request = made.data;
    }
    expect(request, "no change offers on any of the 10 days after").toBeDefined();
    expect((await duffel.orderChangeRequests.get(request!.id)).data.id).toBe(request!.id);
    const offers = (await duffel.orderChangeOffers.list(pageOf(50, { order_change_request_id: request!.id }))).data;
    expect(offers.map((offer) => offer.id)).toEqual(request!.order_change_offers.map((offer) => offer.id));
    const chosen = (await duffel.orderChangeOffers.get(offers[0]!.id)).data;

    const change = (await duffel.orderChanges.create({ selected_order_change_offer: chosen.id })).data;
    expect((await duffel.orderChanges.get(change.id)).data.id).toBe(change.id);
    const before = await balanceMinor();
    const [amount, currency] = [chosen.change_total_amount ?? "0", chosen.change_total_currency ?? order.total_currency];
    const cost = signedMinor(amount, currency);
    const payment = cost > 0 ? { payment: { type: "balance" as const, amount, currency } } : {};
    const confirmed = (await duffel.orderChanges.confirm(change.id, payment)).data as unknown as { confirmed_at: string | null };
    expect(confirmed.confirmed_at).not.toBeNull();
    expect(await balanceMinor()).toBe(before - cost);
    expect((await duffel.orders.get(order.id)).data.slices.map((flown) => flown.id)).not.toContain(slice.id);
  });

  it("an airline-initiated change: listed for its order, then accepted", async () => {
    const order = await ticketedOrder();
    // The airline's schedule change, made with the sandbox's own control (Duffel's sandbox has no such call).
    const simulated = await call(server, "POST", `/v1/sandbox/orders/${order.id}/airline_initiated_change`, { key: tenant.key, body: { kind: "retime" } });
    expect(simulated.status, JSON.stringify(simulated.body)).toBe(201);
    const listed = (await duffel.airlineInitiatedChanges.list(order.id)).data;
    expect(listed.map((change) => change.id)).toContain(simulated.body.data.id);
    expect(listed.find((change) => change.id === simulated.body.data.id)).toMatchObject({ order_id: order.id, action_taken: null, available_actions: expect.arrayContaining(["accept"]) });
    const accepted = (await duffel.airlineInitiatedChanges.accept(simulated.body.data.id)).data;
    expect(accepted).toMatchObject({ id: simulated.body.data.id, action_taken: "accepted" });
    expectDuffelShape(await duffelError(() => duffel.airlineInitiatedChanges.list("ord_0000000000000000000000")), 404, "not_found");
  });

  it("airlineInitiatedChanges.update records an answer given outside the API: once, a bad value changes nothing, and a quote priced while it was open is refused", async () => {
    const order = await ticketedOrder();
    const simulated = await call(server, "POST", `/v1/sandbox/orders/${order.id}/airline_initiated_change`, { key: tenant.key, body: { kind: "retime" } });
    expect(simulated.status, JSON.stringify(simulated.body)).toBe(201);
    const changeId = simulated.body.data.id as string;
    // Quoted while the change is open: a full refund.
    const quote = (await duffel.orderCancellations.create({ order_id: order.id })).data;

    const refused = await duffelError(() => duffel.airlineInitiatedChanges.update(changeId, "ignored" as "accepted"));
    expectDuffelShape(refused, 400, "validation_failed");
    expect(refused.errors[0]!.message).toContain("action_taken");
    expect((await duffel.airlineInitiatedChanges.list(order.id)).data.find((change) => change.id === changeId)).toMatchObject({ action_taken: null, action_taken_at: null });

    const updated = (await duffel.airlineInitiatedChanges.update(changeId, "cancelled")).data;
    expect(updated).toMatchObject({ id: changeId, order_id: order.id, action_taken: "cancelled", action_taken_at: expect.any(String), available_actions: [] });
    expect((await duffel.airlineInitiatedChanges.list(order.id)).data.find((change) => change.id === changeId)).toMatchObject({ action_taken: "cancelled" });
    // A repeat answers the same; another answer, or an acceptance, is refused.
    expect((await duffel.airlineInitiatedChanges.update(changeId, "cancelled")).data).toMatchObject({ action_taken: "cancelled", action_taken_at: updated.action_taken_at });
    expectDuffelShape(await duffelError(() => duffel.airlineInitiatedChanges.update(changeId, "changed")), 409, "order_state_conflict");
    expectDuffelShape(await duffelError(() => duffel.airlineInitiatedChanges.accept(changeId)), 409, "order_state_conflict");
    // The full refund priced while the change was open is no longer what is owed.
    const before = await balanceMinor();
    expectDuffelShape(await duffelError(() => duffel.orderCancellations.confirm(quote.id)), 409, "order_state_conflict");
    expect(await balanceMinor()).toBe(before);
    expectDuffelShape(await duffelError(() => duffel.airlineInitiatedChanges.update("aic_0000000000000000000000", "accepted")), 404, "not_found");
  });

  describe("webhooks", () => {
    /** Verifies a delivery as Duffel's docs tell a receiver to: HMAC-SHA256 of "<t>.<raw body>", keyed by the secret, hex. */
    const verifiedDuffelEvent = (hook: ReceivedHook, secret: string) => {
      const header = String(hook.headers["x-duffel-signature"]);
      const parts = new Map(header.split(",").map((part) => part.split("=", 2) as [string, string]));
      const timestamp = parts.get("t")!;
      expect(timestamp).toMatch(/^\d+$/);
      const expected = createHmac("sha256", secret).update(`${timestamp}.${hook.raw.toString("utf8")}`).digest();
      expect(timingSafeEqual(Buffer.from(parts.get("v1")!, "hex"), expected)).toBe(true);
      return JSON.parse(hook.raw.toString("utf8"));
    };
    const duffelEvents = (hooks: ReceivedHook[], type: string, objectId?: string) =>
      hooks.filter((hook) => hook.json?.type === type && (objectId === undefined || hook.json?.data?.object?.id === objectId));

    it("an endpoint made with webhooks.create receives the order's events in Duffel's envelope, signed as Duffel signs them; the /v1 endpoints get theirs", async () => {
      const duffelReceiver = await startReceiver();
      const v1Receiver = await startReceiver();
      try {
        const webhook = (await duffel.webhooks.create({ url: duffelReceiver.url, events: ["order.created", "order.updated"] })).data;
        expect(webhook).toMatchObject({ id: expect.any(String), url: duffelReceiver.url, events: ["order.created", "order.updated"], active: true, live_mode: false, secret: expect.any(String) });
        const v1Endpoint = await call(server, "POST", "/v1/webhook_endpoints", { key: tenant.key, body: { url: v1Receiver.url, enabled_events: ["order.created"] } });
        expect(v1Endpoint.status).toBe(201);
        // Each surface lists its own endpoints.
        expect((await duffel.webhooks.list({})).data.map((listed) => listed.id)).toEqual([webhook.id]);
        const v1Listed = await call(server, "GET", "/v1/webhook_endpoints", { key: tenant.key });
        expect(v1Listed.body.data.items.map((listed: { id: string }) => listed.id)).not.toContain(webhook.id);

        const offer = (await search()).offers[0]!;
        const order = (
          await duffel.orders.create({ type: "instant", selected_offers: [offer.id], passengers: passengersOf(offer), payments: [{ type: "balance", currency: offer.total_currency, amount: offer.total_amount }] })
        ).data;

        const created = await eventually(async () => duffelEvents(duffelReceiver.received, "order.created", order.id)[0], () => `no order.created for ${order.id} at the Duffel endpoint`);
        const event = verifiedDuffelEvent(created, webhook.secret);
        expect(event).toMatchObject({ id: expect.any(String), type: "order.created", api_version: "v2", live_mode: false, idempotency_key: expect.any(String), created_at: expect.any(String), data: { object: { id: order.id } } });
        // The ticketing that follows is Duffel's order.updated.
        const updated = await eventually(async () => duffelEvents(duffelReceiver.received, "order.updated", order.id)[0], () => `no order.updated for ${order.id} at the Duffel endpoint`);
        expect(verifiedDuffelEvent(updated, webhook.secret).data.object.id).toBe(order.id);

        // The same booking reaches the /v1 endpoint in its own shape and signature.
        const [standard] = await v1Receiver.waitFor(order.id, "order.created");
        expect(standard!.headers["webhook-signature"]).toMatch(/^v1,/);
        expect(standard!.headers["x-duffel-signature"]).toBeUndefined();

        await duffel.webhooks.ping(webhook.id);
        const ping = await eventually(async () => duffelEvents(duffelReceiver.received, "ping.triggered")[0], () => "no ping.triggered at the Duffel endpoint");
        expect(verifiedDuffelEvent(ping, webhook.secret).type).toBe("ping.triggered");
      } finally {
        await Promise.all([duffelReceiver.close(), v1Receiver.close()]);
      }
    });

    it("an airline's schedule change reaches an endpoint subscribed to order.airline_initiated_change_detected, and nothing it did not name", async () => {
      const receiver = await startReceiver();
      try {
        const webhook = (await duffel.webhooks.create({ url: receiver.url, events: ["order.airline_initiated_change_detected"] })).data;
        const order = await ticketedOrder();
        const simulated = await call(server, "POST", `/v1/sandbox/orders/${order.id}/airline_initiated_change`, { key: tenant.key, body: { kind: "retime" } });
        expect(simulated.status, JSON.stringify(simulated.body)).toBe(201);
        const detected = await eventually(async () => duffelEvents(receiver.received, "order.airline_initiated_change_detected", order.id)[0], () => `no order.airline_initiated_change_detected for ${order.id}`);
        expect(verifiedDuffelEvent(detected, webhook.secret)).toMatchObject({ type: "order.airline_initiated_change_detected", data: { object: { id: order.id } } });
        expect(receiver.received.map((hook) => hook.json?.type)).not.toContain("order.created");
        await duffel.webhooks.delete(webhook.id);
      } finally {
        await receiver.close();
      }
    });

    it("a cancellation quote and its confirmation reach an endpoint as order_cancellation.created and .confirmed, the cancellation as the object; /v1 endpoints get them in their shape", async () => {
      const duffelReceiver = await startReceiver();
      const v1Receiver = await startReceiver();
      try {
        const webhook = (await duffel.webhooks.create({ url: duffelReceiver.url, events: ["order_cancellation.created", "order_cancellation.confirmed"] })).data;
        expect(webhook.events).toEqual(["order_cancellation.created", "order_cancellation.confirmed"]);
        const v1Endpoint = await call(server, "POST", "/v1/webhook_endpoints", { key: tenant.key, body: { url: v1Receiver.url, enabled_events: ["order_cancellation.created", "order_cancellation.confirmed"] } });
        expect(v1Endpoint.status, JSON.stringify(v1Endpoint.body)).toBe(201);
        const offer = (await search()).offers[0]!;
        const order = (await duffel.orders.create({ type: "pay_later", selected_offers: [offer.id], passengers: passengersOf(offer) })).data;
        const quote = (await duffel.orderCancellations.create({ order_id: order.id })).data;
        const quoted = await eventually(async () => duffelEvents(duffelReceiver.received, "order_cancellation.created", quote.id)[0], () => `no order_cancellation.created for ${quote.id}`);
        expect(verifiedDuffelEvent(quoted, webhook.secret)).toMatchObject({ type: "order_cancellation.created", data: { object: { id: quote.id, order_id: order.id, confirmed_at: null } } });

        await duffel.orderCancellations.confirm(quote.id);
        const confirmed = await eventually(async () => duffelEvents(duffelReceiver.received, "order_cancellation.confirmed", quote.id)[0], () => `no order_cancellation.confirmed for ${quote.id}`);
        expect(verifiedDuffelEvent(confirmed, webhook.secret)).toMatchObject({ type: "order_cancellation.confirmed", data: { object: { id: quote.id, order_id: order.id, confirmed_at: expect.any(String) } } });

        // /v1: the order as the event left it, with the quote.
        const [v1Quoted] = await v1Receiver.waitFor(order.id, "order_cancellation.created");
        expect(v1Quoted!.json).toMatchObject({ event: "order_cancellation.created", data: { id: order.id, order_cancellation: { id: quote.id, confirmed_at: null } } });
        const [v1Confirmed] = await v1Receiver.waitFor(order.id, "order_cancellation.confirmed");
        expect(v1Confirmed!.json).toMatchObject({ event: "order_cancellation.confirmed", data: { id: order.id, status: "cancelled", order_cancellation: { id: quote.id, confirmed_at: expect.any(String) } } });
        // Only the types named: the order's own change (order.updated) is not sent here.
        expect(duffelReceiver.received.map((hook) => hook.json?.type)).not.toContain("order.updated");
        await duffel.webhooks.delete(webhook.id);
      } finally {
        await Promise.all([duffelReceiver.close(), v1Receiver.close()]);
      }
    });

    it("webhooks.update and webhooks.delete change and remove the endpoint; unknown event types are Duffel's 400", async () => {
      const webhook = (await duffel.webhooks.create({ url: "http://127.0.0.1:9/duffel-hooks", events: ["order.created"] })).data;
      const updated = (await duffel.webhooks.update(webhook.id, { active: false, events: ["order.updated", "order.airline_initiated_change_detected"], url: "http://127.0.0.1:9/moved" })).data;
      expect(updated).toMatchObject({ id: webhook.id, active: false, events: ["order.updated", "order.airline_initiated_change_detected"], url: "http://127.0.0.1:9/moved" });
      expect(updated.secret).toBeUndefined();

      const deleted = (await duffel.webhooks.delete(webhook.id)).data;
      expect(deleted.id).toBe(webhook.id);
      expect((await duffel.webhooks.list({})).data.map((listed) => listed.id)).not.toContain(webhook.id);
      expectDuffelShape(await duffelError(() => duffel.webhooks.delete(webhook.id)), 404, "not_found");

      const refused = await duffelError(() => duffel.webhooks.create({ url: "http://127.0.0.1:9/x", events: ["stays.booking.created"] }));
      expectDuffelShape(refused, 400, "validation_failed");
      expect(refused.errors[0]!.message).toContain("stays.booking.created");
      // A /v1 endpoint is not one of the Duffel surface's.
      const v1Endpoint = await call(server, "POST", "/v1/webhook_endpoints", { key: tenant.key, body: { url: "http://127.0.0.1:9/v1", enabled_events: ["*"] } });
      expectDuffelShape(await duffelError(() => duffel.webhooks.ping(v1Endpoint.body.data.id)), 404, "not_found");
    });
  });

  describe("errors", () => {
    it("bad input is Duffel's error shape with our codes, never a 500, and books nothing", async () => {
      const offer = (await search()).offers[0]!;
      const countBefore = await orderCount();
      const balanceBefore = await balanceMinor();
      const badPassenger = { ...passengerFor(offer.passengers[0]!.id), phone_number: "not a number" };
      const refused = await duffelError(() => duffel.orders.create({ type: HOLD, selected_offers: [offer.id], passengers: [badPassenger] }));
      expectDuffelShape(refused, 400, "validation_failed");
      expect(refused.errors[0]!.type).toBe("validation_error");
      expect(refused.errors[0]!.message).toContain("phone_number");

      const short = await duffelError(() =>
        duffel.orders.create({ type: "instant", selected_offers: [offer.id], passengers: passengersOf(offer), payments: [{ type: "balance", currency: offer.total_currency, amount: "0.01" }] }),
      );
      expectDuffelShape(short, 422, "payment_amount_mismatch");

      const unknownOffer = await duffelError(() => duffel.orders.create({ type: HOLD, selected_offers: ["off_0000000000000000000000"], passengers: passengersOf(offer) }));
      expectDuffelShape(unknownOffer, 404, "not_found");

      const badSearch = await duffelError(() => duffel.offerRequests.create({ slices: [], passengers: [{ type: "adult" }], cabin_class: "economy", return_offers: true }));
      expectDuffelShape(badSearch, 400, "invalid_search_params");

      expect(await orderCount()).toBe(countBefore);
      expect(await balanceMinor()).toBe(balanceBefore);
    });

    it("a missing record is 404 not_found; a wrong key is 401 unauthorized", async () => {
      expectDuffelShape(await duffelError(() => duffel.orders.get("ord_0000000000000000000000")), 404, "not_found");
      const stranger = new Duffel({ token: "not-a-key", basePath: `${server.url}/duffel/` });
      const refused = await duffelError(() => stranger.orders.list());
      expectDuffelShape(refused, 401, "unauthorized");
      expect(refused.errors[0]!.type).toBe("authentication_error");
    });

    it("Duffel products with no Aerogate counterpart answer Duffel's 404, saying so", async () => {
      const refused = await duffelError(() => duffel.stays.bookings.list());
      expectDuffelShape(refused, 404, "route_not_found");
      expect(refused.errors[0]!.message).toContain("Duffel-compatible");
    });

    it("another Duffel-Version is 400", async () => {
      const other = new Duffel({ token: tenant.key, basePath: `${server.url}/duffel/`, apiVersion: "v1" });
      expectDuffelShape(await duffelError(() => other.orders.list()), 400, "validation_failed");
    });
  });
});
