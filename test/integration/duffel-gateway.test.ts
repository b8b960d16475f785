import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { setClock } from "../../src/clock";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { connectDuffel, fakeToken, scopeOf } from "../helpers/duffel";
import type { DuffelFake } from "../helpers/duffel-fake";
import { duffelOffer, duffelOrdersOf, duffelTenant, expectLedgerOf, searchLondonBarcelona, WITH_DUFFEL, openDuffelSuite, closeDuffelSuite } from "../helpers/duffel-gateway";
import { expectError } from "../helpers/expect-error";
import { eventually } from "../helpers/eventually";
import { toMinor } from "../helpers/flight-checks";
import { bookOffer, createOrderA, getOrder, newKey, passengersOf, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import { daysAhead } from "../helpers/offers";
import type { TestServer } from "../helpers/test-server";

/**
 * Duffel as one of the gateway's suppliers (docs/duffel.md#duffel-in-the-gateway), against the
 * contract fake of Duffel's API: searched beside the simulated sources for a connected tenant that
 * lists it, its offers stored and read as any other, its orders booked, ticketed and cancelled at
 * Duffel through /v1/air/orders with the wallet moving once, and every action Duffel's orders do not
 * take refused as 422 `unsupported_by_supplier`.
 */

describe("Duffel in the gateway", { timeout: 60_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof duffelTenant>>;

  beforeAll(async () => {
    ({ fake, server, tenant } = await openDuffelSuite());
  });
  afterAll(() => closeDuffelSuite({ server, fake }));
  beforeEach(() => {
    fake.delayMs = 0;
  });
  afterEach(() => setClock(new Date()));

  /** POST /v1/air/payments of the order's total as the tenant read it. */
  const payTotal = (order: any) =>
    call(server, "POST", "/v1/air/payments", {
      key: tenant.key,
      headers: { "idempotency-key": newKey("pay") },
      body: { order_id: order.id, payment: { type: "balance", amount: order.total_amount, currency: order.total_currency } },
    });

  describe("search", () => {
    it("answers a search mixing Duffel with the two simulated sources with supplier_results for all three and offers from each", async () => {
      const search = await searchLondonBarcelona(server, tenant.key);
      expect(search.status, JSON.stringify(search.body).slice(0, 500)).toBe(200);
      const { supplier_results: results, offers } = search.body.data;
      expect(results.map((result: any) => [result.supplier, result.status])).toEqual(WITH_DUFFEL.map((id) => [id, "ok"]));
      for (const id of WITH_DUFFEL) expect(offers.some((offer: any) => offer.supplier.id === id), id).toBe(true);
      const duffel = offers.filter((offer: any) => offer.supplier.id === "duffel");
      expect(results.find((result: any) => result.supplier === "duffel").offer_count).toBe(duffel.length);
      expect(duffel).toHaveLength(3);
      expect(duffel[0]).toMatchObject({ supplier: { id: "duffel", name: "Duffel" }, comparison_key: expect.stringMatching(/^(BA|VS|AA)10\d@\d{4}-\d{2}-\d{2}:economy$/), passengers: [expect.objectContaining({ id: "p1" })] });
      // Ordered by total with the others' offers, as every search is.
      const totals = offers.map((offer: any) => toMinor(offer.total_amount, offer.total_currency));
      expect(totals).toEqual([...totals].sort((a, b) => a - b));
    });

    it("stores Duffel's offers like the others: readable by id in Variant A (with Duffel's payment requirements), in Variant B and in GraphQL", async () => {
      const instant = await duffelOffer(server, tenant.key, "BA");
      const read = await call(server, "GET", `/v1/air/offers/${instant.id}?return_available_services=true`, { key: tenant.key });
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ id: instant.id, supplier: { id: "duffel" }, total_amount: instant.total_amount, payment_requirements: { requires_instant_payment: true } });
      expect(read.body.data.available_services).toEqual([expect.objectContaining({ type: "baggage", passenger_ids: [instant.passengers[0].id] })]);
      const holdable = await duffelOffer(server, tenant.key, "VS");
      expect((await call(server, "GET", `/v1/air/offers/${holdable.id}`, { key: tenant.key })).body.data.payment_requirements.requires_instant_payment).toBe(false);
      const listed = await call(server, "GET", "/v1/air/offers?limit=50", { key: tenant.key });
      expect(listed.body.data.items.find((offer: any) => offer.id === holdable.id)).toMatchObject({ supplier: { id: "duffel", name: "Duffel" }, comparison_key: holdable.comparison_key });
      const graph = await graphql(server, `query ($id: ID!) { offer(id: $id) { id supplier { id } comparisonKey paymentRequirements { requiresInstantPayment } } }`, { id: instant.id }, { key: tenant.key });
      expect(graph.body.data.offer).toEqual({ id: instant.id, supplier: { id: "duffel" }, comparisonKey: instant.comparison_key, paymentRequirements: { requiresInstantPayment: true } });
    });

    it("asks Duffel only for a tenant that has a connection and lists duffel in its suppliers", async () => {
      const unconnected = await createTenant(server);
      expect((await call(server, "PATCH", "/v1/tenant", { key: unconnected.key, body: { suppliers: WITH_DUFFEL } })).status).toBe(200);
      const connectedOnly = await createTenant(server);
      await connectDuffel(server, connectedOnly, fakeToken(fake));
      const before = fake.requests.length;
      for (const other of [unconnected, connectedOnly]) {
        const search = await searchLondonBarcelona(server, other.key);
        expect(search.body.data.supplier_results.map((result: any) => result.supplier)).toEqual(["simulated", "simulated_lcc"]);
      }
      expect(fake.requests.length).toBe(before);
    });

    it("on a refused token (Duffel 401) shows the connection invalid and reports Duffel's supplier_results as error while the others answer", async () => {
      const revoked = await duffelTenant(server, fake);
      fake.revoke(revoked.token);
      // As many refusals as open a circuit of failures (SUPPLIER_BREAKER_FAILURES): they are not Duffel's.
      for (let i = 0; i < 4; i++) await searchLondonBarcelona(server, revoked.key);
      const search = await searchLondonBarcelona(server, revoked.key);
      expect(search.status).toBe(200);
      expect(search.body.data.supplier_results.map((result: any) => [result.supplier, result.status])).toEqual([
        ["simulated", "ok"],
        ["simulated_lcc", "ok"],
        ["duffel", "error"],
      ]);
      expect(search.body.data.offers.length).toBeGreaterThan(0);
      expect(search.body.data.offers.some((offer: any) => offer.supplier.id === "duffel")).toBe(false);
      const connections = await call(server, "GET", "/v1/supplier_connections", { key: revoked.key });
      expect(connections.body.data).toEqual([expect.objectContaining({ supplier: "duffel", status: "invalid" })]);
      // Another tenant's token is not this one's: Duffel's circuit did not count the refusal.
      expect(server.app.services.gateway.breakers.of("duffel", "sandbox").state).toBe("closed");
    });

    it("keeps the cheapest of a large Duffel answer (by total_amount), not the first in Duffel's order", async () => {
      fake.offersPerSearch = 229;
      try {
        const search = await searchLondonBarcelona(server, tenant.key);
        expect(search.status).toBe(200);
        expect(search.body.data.supplier_results.find((result: any) => result.supplier === "duffel")).toMatchObject({ status: "ok", offer_count: 50 });
        const keys = search.body.data.offers.filter((offer: any) => offer.supplier.id === "duffel").map((offer: any) => offer.comparison_key);
        // The three cheapest come last in Duffel's answer.
        for (const flight of ["BA100", "VS101", "AA102"]) expect(keys.some((key: string) => key.startsWith(`${flight}@`)), flight).toBe(true);
      } finally {
        fake.offersPerSearch = 3;
      }
    });

    it("asks Duffel for a child and an infant by age, an adult by type", async () => {
      const search = await searchLondonBarcelona(server, tenant.key, {
        passengers: [
          { type: "adult", id: "p1" },
          { type: "child", id: "p2", age: 7 },
          { type: "infant_without_seat", id: "p3", age: 1 },
        ],
      });
      expect(search.status, JSON.stringify(search.body).slice(0, 500)).toBe(200);
      expect(search.body.data.supplier_results.find((result: any) => result.supplier === "duffel")).toMatchObject({ status: "ok", offer_count: 3 });
      const asked = fake.requests.filter((request) => request.method === "POST" && request.path.startsWith("/air/offer_requests")).at(-1)!;
      expect((asked.body as any).data.passengers).toEqual([{ type: "adult" }, { age: 7 }, { age: 1 }]);
    });

    it("waits out a 429 until its reset within the search's deadline", async () => {
      fake.rateLimitNext(1, 600);
      const started = Date.now();
      const search = await searchLondonBarcelona(server, tenant.key, { supplier_timeout: 5 });
      expect(search.body.data.supplier_results.find((result: any) => result.supplier === "duffel")).toMatchObject({ status: "ok", offer_count: 3 });
      expect(Date.now() - started).toBeGreaterThanOrEqual(400);
    });

    it("reports Duffel's supplier_results as timeout when the 429 resets after the deadline, the others answering", async () => {
      fake.rateLimitNext(1, 10_000);
      const started = Date.now();
      const search = await searchLondonBarcelona(server, tenant.key, { supplier_timeout: 2 });
      expect(search.status).toBe(200);
      expect(search.body.data.supplier_results.find((result: any) => result.supplier === "duffel")).toMatchObject({ status: "timeout", offer_count: 0 });
      expect(Date.now() - started).toBeLessThan(2_500);
    });

    it("answers a batch offer request with a batch of Duffel's offers beside the simulated sources' (POST and GET /v1/air/batch_offer_requests)", async () => {
      const created = await call(server, "POST", "/v1/air/batch_offer_requests", {
        key: tenant.key,
        headers: { "idempotency-key": newKey("batch") },
        body: { slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(45) }], passengers: [{ type: "adult" }], cabin_class: "economy" },
      });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body.data).toMatchObject({ total_batches: 3 });
      const offers: any[] = [];
      const results: any[] = [];
      for (let remaining = created.body.data.remaining_batches; remaining > 0; ) {
        const read = await call(server, "GET", `/v1/air/batch_offer_requests/${created.body.data.id}`, { key: tenant.key });
        expect(read.status, JSON.stringify(read.body).slice(0, 300)).toBe(200);
        offers.push(...read.body.data.offers);
        results.push(...read.body.data.supplier_results);
        remaining = read.body.data.remaining_batches;
      }
      expect(new Set(results.map((result) => result.supplier))).toEqual(new Set(WITH_DUFFEL));
      expect(offers.filter((offer) => offer.supplier.id === "duffel")).toHaveLength(3);
    });

    it("lets a sandbox search force Duffel's outcome, as any supplier's (supplier_behaviour)", async () => {
      const before = fake.requests.length;
      const forced = await searchLondonBarcelona(server, tenant.key, { supplier_timeout: 2, supplier_behaviour: { duffel: "error" } });
      expect(forced.body.data.supplier_results.find((result: any) => result.supplier === "duffel")).toMatchObject({ status: "error", offer_count: 0 });
      expect(fake.requests.length).toBe(before);
    });
  });

  describe("orders", () => {
    it("books a holdable offer as a Duffel hold, tickets it by paying Duffel, and cancels it through Duffel's cancellations: Duffel settles the fare, the wallet's debit and refund (of a fee of zero) once each", async () => {
      const offer = await duffelOffer(server, tenant.key, "VS");
      const balanceBefore = (await walletBalance(server, tenant.key)).minor;
      const order = await bookOffer(server, tenant.key, offer);
      expect(order).toMatchObject({ supplier: { id: "duffel", name: "Duffel" }, booking_reference: expect.stringMatching(/^\w{6}$/), payment_status: { awaiting_payment: true } });
      expect(order.available_actions).toEqual(["cancel", "pay"]);
      const [held] = duffelOrdersOf(fake, order.id);
      expect(duffelOrdersOf(fake, order.id)).toHaveLength(1);
      expect(held).toMatchObject({ type: "hold", paid: false });
      expect(held!.body.passengers).toEqual([expect.objectContaining({ given_name: "Ada", family_name: "Lovelace", title: "ms", id: expect.stringMatching(/^pas_/) })]);
      // Ours is a day (ORDER_HOLD_SECONDS), never later than Duffel's own deadline for the hold (a day after the search).
      const duffelDeadline = (await server.db.prisma.duffelBooking.findUniqueOrThrow({ where: { id: order.id } })).paymentRequiredBy!;
      expect(Date.parse(order.payment_status.payment_required_by)).toBe(Date.parse(duffelDeadline));
      expect(await expectLedgerOf(server, tenant.key, order.id, [])).toBe(balanceBefore);

      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
      const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
      expect(held!.paid).toBe(true);
      expect(ticketed.documents).toEqual([expect.objectContaining({ type: "electronic_ticket", unique_identifier: "125000000000", passenger_id: "p1" })]);
      // Bags after booking are Duffel's to sell a ticketed order (duffel-services-after-booking.test.ts).
      expect(ticketed.available_actions).toEqual(["cancel", "change", "add_services"]);
      const total = toMinor(ticketed.total_amount, ticketed.total_currency);
      expect(ticketed.settlement).toBe("supplier");
      expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(balanceBefore);

      fake.quoteLifetimeMs = 5 * 60_000;
      const quote = await call(server, "POST", "/v1/air/order_cancellations", { key: tenant.key, body: { order_id: order.id } });
      fake.quoteLifetimeMs = 15 * 60_000;
      expect(quote.status, JSON.stringify(quote.body)).toBe(201);
      // Our quote lives no longer than Duffel's (5 minutes from Duffel's answer, a moment after ours), not our usual 15.
      expect(Date.parse(quote.body.data.expires_at) - Date.parse(quote.body.data.created_at)).toBeLessThan(6 * 60_000);
      // The fake refunds a paid order's whole total, in GBP: converted to the order's currency.
      const refund = toMinor(quote.body.data.refund_amount, quote.body.data.refund_currency);
      expect(quote.body.data.refund_currency).toBe(ticketed.total_currency);
      expect(Math.abs(refund - total)).toBeLessThanOrEqual(1);
      const confirm = () => call(server, "POST", `/v1/air/order_cancellations/${quote.body.data.id}/actions/confirm`, { key: tenant.key, headers: { "idempotency-key": newKey("confirm") } });
      expect((await confirm()).status).toBe(200);
      expect((await confirm()).status).toBe(200);
      await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
      expect(held!.cancelled).toBe(true);
      expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit", "refund_credit"])).toBe(balanceBefore);
    });

    it("runs on real time only: a tenant whose sandbox clock runs ahead gets 422 clock_advanced from Duffel, the simulated sources still answer, and a hold is still let go", async () => {
      const ahead = await duffelTenant(server, fake);
      const held = await bookOffer(server, ahead.key, await duffelOffer(server, ahead.key, "VS"));
      const [ticketed, unbooked] = [await duffelOffer(server, ahead.key, "AA"), await duffelOffer(server, ahead.key, "VS")];
      const paid = await bookOffer(server, ahead.key, ticketed);
      expect((await ticketOrder(server, ahead.key, paid.id)).status).toBe(200);
      await waitForStatus(server, ahead.key, paid.id, ["TICKETED"]);
      const advanced = await call(server, "POST", "/v1/sandbox/clock/advance", { key: ahead.key, body: { seconds: 3_600 } });
      expect(advanced.status, JSON.stringify(advanced.body)).toBe(200);

      const mixed = await searchLondonBarcelona(server, ahead.key);
      expect(mixed.status).toBe(200);
      expect(mixed.body.data.supplier_results.map((result: any) => result.supplier)).toEqual(["simulated", "simulated_lcc"]);
      expect(mixed.body.data.offers.some((offer: any) => offer.supplier.id === "duffel")).toBe(false);
      expect((await call(server, "PATCH", "/v1/tenant", { key: ahead.key, body: { suppliers: ["duffel"] } })).status).toBe(200);
      expectError(await searchLondonBarcelona(server, ahead.key), 422, "clock_advanced");

      const ordersAtDuffel = fake.orders.size;
      expectError(await createOrderA(server, ahead.key, unbooked), 422, "clock_advanced");
      expectError(await ticketOrder(server, ahead.key, held.id), 422, "clock_advanced");
      expectError(await call(server, "POST", "/v1/air/order_cancellations", { key: ahead.key, body: { order_id: paid.id } }), 422, "clock_advanced");
      expect(fake.orders.size).toBe(ordersAtDuffel);
      expect((await walletBalance(server, ahead.key)).minor).toBe(await expectLedgerOf(server, ahead.key, paid.id, ["ticketing_debit"]));
      // Letting a hold go asks nothing of Duffel's time: it is cancelled here and at Duffel.
      expect((await call(server, "POST", `/v1/air/orders/${held.id}/actions/cancel`, { key: ahead.key })).status).toBe(200);
      await eventually(async () => (duffelOrdersOf(fake, held.id).every((order) => order.cancelled) ? true : undefined), () => "the hold is not cancelled at Duffel");
      expect((await call(server, "POST", "/v1/sandbox/clock/reset", { key: ahead.key })).status).toBe(200);
      expect((await searchLondonBarcelona(server, ahead.key)).status).toBe(200);
    });

    it("books an offer that requires instant payment as a 15-minute hold of ours, and as Duffel's instant order when it is ticketed", async () => {
      const offer = await duffelOffer(server, tenant.key, "BA");
      const order = await bookOffer(server, tenant.key, offer);
      expect(duffelOrdersOf(fake, order.id)).toEqual([]);
      const deadline = Date.parse(order.payment_status.payment_required_by) - Date.parse(order.created_at);
      expect(deadline).toBe(15 * 60_000);
      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
      const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
      const [instant] = duffelOrdersOf(fake, order.id);
      expect(duffelOrdersOf(fake, order.id)).toHaveLength(1);
      expect(instant).toMatchObject({ type: "instant", paid: true });
      expect(ticketed.booking_reference).toBe(instant!.id.slice(-6).toUpperCase());
      expect(ticketed.documents).toHaveLength(1);
      await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"]);
    });

    it.each([
      ["price_changed", (offerId: string) => fake.changePrice(offerId, "999.00")],
      ["offer_no_longer_available", (offerId: string) => fake.withdraw(offerId)],
    ])("answers Duffel's %s at booking with the catalogue's 422, booking nothing and debiting nothing", async (code, change) => {
      for (const owner of ["VS", "BA"] as const) {
        const offer = await duffelOffer(server, tenant.key, owner);
        change(await duffelOfferIdOf(server, tenant, offer.id));
        const ordersBefore = fake.orders.size;
        const balanceBefore = (await walletBalance(server, tenant.key)).minor;
        const refused = await createOrderA(server, tenant.key, offer);
        expectError(refused, 422, code);
        expect(fake.orders.size).toBe(ordersBefore);
        expect((await walletBalance(server, tenant.key)).minor).toBe(balanceBefore);
        expect((await call(server, "GET", "/v1/air/orders?limit=100", { key: tenant.key })).body.data.items.some((order: any) => order.offer_id === offer.id)).toBe(false);
      }
    });

    it("keeps an order Duffel accepted (202) unbooked until Duffel confirms it; one Duffel then fails is never a booked order, and nothing moves", async () => {
      fake.acceptNextOrder({ readsPending: 2 });
      const confirmed = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "VS"));
      const [held] = duffelOrdersOf(fake, confirmed.id);
      expect(confirmed.booking_reference).toBe(held!.id.slice(-6).toUpperCase());
      expect(fake.requests.filter((request) => request.method === "GET" && request.path === `/air/orders/${held!.id}`).length).toBeGreaterThanOrEqual(3);

      fake.acceptNextOrder({ readsPending: 1, fails: true });
      const offer = await duffelOffer(server, tenant.key, "VS");
      const balanceBefore = (await walletBalance(server, tenant.key)).minor;
      expectError(await createOrderA(server, tenant.key, offer), 422, "offer_no_longer_available");
      expect((await call(server, "GET", "/v1/air/orders?limit=100", { key: tenant.key })).body.data.items.some((order: any) => order.offer_id === offer.id)).toBe(false);
      expect((await walletBalance(server, tenant.key)).minor).toBe(balanceBefore);
    });

    it("books a Duffel offer once: a second booking of it under another key is 422 offer_no_longer_available, and the hold Duffel made for it is cancelled", async () => {
      const offer = await duffelOffer(server, tenant.key, "VS");
      const first = await bookOffer(server, tenant.key, offer);
      const ordersBefore = fake.orders.size;
      expectError(await createOrderA(server, tenant.key, offer), 422, "offer_no_longer_available");
      const second = [...fake.orders.values()].slice(ordersBefore);
      expect(second).toEqual([expect.objectContaining({ type: "hold", cancelled: true })]);
      expect(duffelOrdersOf(fake, first.id)).toEqual([expect.objectContaining({ cancelled: false })]);
    });

    it("prices a Duffel hold again before anything is paid: a price Duffel changed is 422 price_changed naming the new total, nothing moves, and the new total paid is what Duffel is paid", async () => {
      const offer = await duffelOffer(server, tenant.key, "AA");
      const order = await bookOffer(server, tenant.key, offer);
      const [held] = duffelOrdersOf(fake, order.id);
      const balanceBefore = (await walletBalance(server, tenant.key)).minor;
      // Duffel now asks more for the hold than it was booked at.
      held!.totalAmount = (Number(held!.totalAmount) + 25).toFixed(2);
      for (const refused of [
        await ticketOrder(server, tenant.key, order.id),
        await payTotal(order),
      ]) {
        expectError(refused, 422, "price_changed");
        const repriced = (await getOrder(server, tenant.key, order.id)).body.data;
        expect(toMinor(repriced.total_amount, repriced.total_currency)).toBeGreaterThan(toMinor(order.total_amount, order.total_currency));
        expect(refused.body.reason).toContain(`${repriced.total_amount} ${repriced.total_currency}`);
        expect(repriced.status).toBe("pending");
        expect(held).toMatchObject({ paid: false, cancelled: false });
        expect(await expectLedgerOf(server, tenant.key, order.id, [])).toBe(balanceBefore);
      }
      const repriced = (await getOrder(server, tenant.key, order.id)).body.data;
      const paid = await payTotal(repriced);
      expect(paid.status, JSON.stringify(paid.body)).toBe(201);
      await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
      expect(held!.paid).toBe(true);
    });

    it("cancels a pending Duffel hold (the cancel action) at Duffel, and refunds a refundable ticketed one (the refund action) by Duffel's quote", async () => {
      const pending = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "VS"));
      const cancelled = await call(server, "POST", `/v1/air/orders/${pending.id}/actions/cancel`, { key: tenant.key });
      expect(cancelled.status, JSON.stringify(cancelled.body)).toBe(200);
      await eventually(async () => (duffelOrdersOf(fake, pending.id)[0]!.cancelled ? true : undefined), () => "the hold is cancelled at Duffel");
      await expectLedgerOf(server, tenant.key, pending.id, []);

      const refundable = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
      expect((await ticketOrder(server, tenant.key, refundable.id)).status).toBe(200);
      await waitForStatus(server, tenant.key, refundable.id, ["TICKETED"]);
      const refunded = await call(server, "POST", `/v1/air/orders/${refundable.id}/actions/refund`, { key: tenant.key });
      expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
      await waitForStatus(server, tenant.key, refundable.id, ["REFUNDED"]);
      expect(duffelOrdersOf(fake, refundable.id)[0]!.cancelled).toBe(true);
      await expectLedgerOf(server, tenant.key, refundable.id, ["ticketing_debit", "refund_credit"]);
    });

    it("confirms only an order's newest quote, as Duffel confirms only its latest cancellation: an earlier one is 422 cancellation_quote_expired, and the newer refunds at Duffel once", async () => {
      const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
      await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
      const quote = () => call(server, "POST", "/v1/air/order_cancellations", { key: tenant.key, body: { order_id: order.id } });
      const [earlier, newer] = [(await quote()).body.data, (await quote()).body.data];
      expectError(await call(server, "POST", `/v1/air/order_cancellations/${earlier.id}/actions/confirm`, { key: tenant.key }), 422, "cancellation_quote_expired");
      expect((await call(server, "POST", `/v1/air/order_cancellations/${newer.id}/actions/confirm`, { key: tenant.key })).status).toBe(200);
      await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
      expect(duffelOrdersOf(fake, order.id)[0]!.cancelled).toBe(true);
      await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit", "refund_credit"]);
    });

    it("pays a Duffel hold after its offer's price guarantee at the total booked (POST /v1/air/payments): Duffel prices its own holds, the simulated airline's repricing never applies", async () => {
      const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "VS"));
      // Past the offer's expiry (OFFER_TTL_SECONDS), well before the hold's payment deadline.
      setClock(new Date(Date.parse(order.payment_status.price_guarantee_expires_at) + 60_000));
      expect((await getOrder(server, tenant.key, order.id)).body.data.total_amount).toBe(order.total_amount);
      const payment = await payTotal(order);
      expect(payment.status, JSON.stringify(payment.body)).toBe(201);
      await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
      expect(duffelOrdersOf(fake, order.id)[0]!.paid).toBe(true);
    });

    it("books a Duffel offer through GraphQL's createOrder, as a hold at Duffel", async () => {
      const offer = await duffelOffer(server, tenant.key, "VS");
      const rest = passengersOf(offer)[0] as Record<string, any>;
      const [passport] = rest.identity_documents;
      const passenger = {
        id: "p1",
        title: "MS",
        givenName: rest.given_name,
        familyName: rest.family_name,
        bornOn: rest.born_on,
        gender: "F",
        email: rest.email,
        phoneNumber: rest.phone_number,
        identityDocuments: [{ type: "PASSPORT", number: passport.number, issuingCountryCode: passport.issuing_country_code, expiresOn: passport.expires_on }],
      };
      const created = await graphql(
        server,
        `mutation ($input: CreateOrderInput!, $key: String!) { createOrder(input: $input, idempotencyKey: $key) { id supplier { id } availableActions bookingReference } }`,
        { key: newKey("graphql"), input: { offerId: offer.id, passengers: [passenger] } },
        { key: tenant.key },
      );
      expect(created.body.errors, JSON.stringify(created.body.errors)).toBeUndefined();
      expect(created.body.data.createOrder).toMatchObject({ supplier: { id: "duffel" }, availableActions: ["CANCEL", "PAY"] });
      expect(duffelOrdersOf(fake, created.body.data.createOrder.id)).toEqual([expect.objectContaining({ type: "hold" })]);
    });

    it("refuses every action Duffel's orders do not take with 422 unsupported_by_supplier naming the supplier, none of them in available_actions", async () => {
      const offer = await duffelOffer(server, tenant.key, "AA");
      // An offer's extras are Duffel's (duffel-services.test.ts): an id Duffel does not offer is refused as any unknown service.
      expectError(await createOrderA(server, tenant.key, offer, { body: { services: [{ id: "ase_anything", quantity: 1 }] } }), 422, "invalid_field_value", "services[0].id");

      const order = await bookOffer(server, tenant.key, offer);
      const renamed = await call(server, "POST", `/v1/air/orders/${order.id}/passengers`, { key: tenant.key, body: { passengers: [{ id: "p1", given_name: "Grace" }] } });
      expectError(renamed, 422, "unsupported_by_supplier");
      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
      const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
      // Order changes are Duffel's to quote (duffel-order-changes.test.ts), bags after booking Duffel's to sell (duffel-services-after-booking.test.ts).
      expect(ticketed.available_actions).toEqual(["cancel", "change", "add_services"]);
      // A service Duffel does not sell the order is refused as any unknown service.
      expectError(
        await call(server, "POST", `/v1/air/orders/${order.id}/services`, { key: tenant.key, headers: { "idempotency-key": newKey("services") }, body: { add_services: [{ id: "ase_anything", quantity: 1 }] } }),
        422,
        "invalid_field_value",
        "add_services[0].id",
      );

      const refusals = [
        await call(server, "GET", `/v1/air/seat_maps?order_id=${order.id}`, { key: tenant.key }),
        await call(server, "POST", `/v1/sandbox/orders/${order.id}/airline_initiated_change`, { key: tenant.key, body: { kind: "retime" } }),
      ];
      for (const refused of refusals) {
        expectError(refused, 422, "unsupported_by_supplier");
        expect(refused.body.errors[0].message).toContain("duffel (Duffel)");
      }
      expect((await getOrder(server, tenant.key, order.id)).body.data.updated_at).toBe(ticketed.updated_at);
    });
  });
});

/** Duffel's own id of one of the tenant's offers, as its stored offer keeps it. */
async function duffelOfferIdOf(server: TestServer, tenant: TenantFixture, offerId: string): Promise<string> {
  const [offer] = await server.app.services.offers.getMany(await scopeOf(server, tenant), [offerId]);
  return offer!.payload.supplierOffer!.id;
}
