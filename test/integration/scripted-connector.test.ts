import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { script } from "../../src/connectors/scripted/script";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { daysAhead } from "../helpers/offers";
import { laterDate, requestChange } from "../helpers/order-changes";
import { allTransactions, bookOffer, createOrderA, newKey, ticketOrder, waitForStatus } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * A connector written only for the tests (src/connectors/scripted/, docs/connectors.md#the-scripted-connector),
 * registered by one line of src/composition/connectors.ts and made only when the test-only
 * setting AEROGATE_TEST_CONNECTORS names it: the core of the contract and no capability. Through
 * the public API it is searched, booked, ticketed and cancelled like any supplier, its calls
 * recorded and undone as every supplier's are; what it does not declare is refused in one place.
 */

describe("the scripted test connector through the public API", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ env: { AEROGATE_TEST_CONNECTORS: "scripted", TICKETING_DELAY_MS: "0" } });
    tenant = await createTenant(server);
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: ["scripted"] } })).status).toBe(200);
  });
  afterEach(() => script.reset());
  afterAll(() => server.close());

  let day = 40;
  /** Its one offer for a fresh day, London to Barcelona. */
  const scriptedOffer = async () => {
    const search = await call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: { slices: [{ origin: "LHR", destination: "BCN", departure_date: daysAhead(day++) }], passengers: [{ type: "adult", id: "p1" }] },
    });
    expect(search.status, JSON.stringify(search.body).slice(0, 300)).toBe(200);
    expect(search.body.data.supplier_results).toEqual([expect.objectContaining({ supplier: "scripted", status: "ok", offer_count: 1 })]);
    return search.body.data.offers[0];
  };

  it("searches, books, tickets and cancels with a refund: the wallet debited and credited once", async () => {
    const offer = await scriptedOffer();
    expect(offer).toMatchObject({ supplier: { id: "scripted", name: "Scripted test supplier" }, owner: { iata_code: "ZS" } });
    const order = await bookOffer(server, tenant.key, offer);
    expect(order).toMatchObject({ supplier: { id: "scripted" }, booking_reference: expect.stringMatching(/^[0-9A-F]{6}$/) });
    // The core of the contract only: paid and cancelled, nothing else.
    expect([...order.available_actions].sort()).toEqual(["cancel", "pay"]);

    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
    expect(ticketed.documents).toEqual([expect.objectContaining({ type: "electronic_ticket", unique_identifier: expect.stringMatching(/^999\d{10}$/) })]);

    const quote = await call(server, "POST", "/v1/air/order_cancellations", { key: tenant.key, body: { order_id: order.id } });
    expect(quote.status).toBe(201);
    expect(quote.body.data.refund_amount).toBe(order.total_amount);
    const confirmed = await call(server, "POST", `/v1/air/order_cancellations/${quote.body.data.id}/actions/confirm`, { key: tenant.key });
    expect(confirmed.status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    const entries = (await allTransactions(server, tenant.key)).filter((entry) => entry.order_id === order.id);
    expect(entries.map((entry) => entry.type).sort()).toEqual(["refund_credit", "ticketing_debit"]);
  });

  it("lets a pending order go: the cancel action gives its booking back", async () => {
    const order = await bookOffer(server, tenant.key, await scriptedOffer());
    const cancelled = await call(server, "POST", `/v1/air/orders/${order.id}/actions/cancel`, { key: tenant.key });
    expect(cancelled.status).toBe(200);
    expect(cancelled.body.data).toMatchObject({ id: order.id, status: "cancelled" });
  });

  it("refuses what it does not declare in one place: seat maps, services, passenger changes, order and airline changes are 422 unsupported_by_supplier naming it", async () => {
    const offer = await scriptedOffer();
    const maps = await call(server, "GET", `/v1/air/seat_maps?offer_id=${offer.id}`, { key: tenant.key });
    expectError(maps, 422, "unsupported_by_supplier");
    expect(maps.body.errors[0].message).toBe("The offer's supplier scripted (Scripted test supplier) does not offer seat maps.");
    const order = await bookOffer(server, tenant.key, offer);
    const services = await call(server, "POST", `/v1/air/orders/${order.id}/services`, { key: tenant.key, headers: { "idempotency-key": newKey("services") }, body: { add_services: [{ id: "ase_any", quantity: 1 }] } });
    expectError(services, 422, "unsupported_by_supplier");
    const passengers = await call(server, "POST", `/v1/air/orders/${order.id}/passengers`, { key: tenant.key, body: { passengers: [{ id: "p1", given_name: "Grace" }] } });
    expectError(passengers, 422, "unsupported_by_supplier");
    expect((await call(server, "GET", `/v1/air/orders/${order.id}/available_services`, { key: tenant.key })).body.data).toEqual([]);
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
    expectError(await requestChange(server, tenant.key, ticketed, laterDate(ticketed.slices[0].segments[0].departing_at.slice(0, 10), 2)), 422, "unsupported_by_supplier");
    expectError(await call(server, "POST", `/v1/sandbox/orders/${order.id}/airline_initiated_change`, { key: tenant.key, body: { kind: "retime" } }), 422, "unsupported_by_supplier");
  });

  it("a booking it refuses books nothing (422); one it fails without an answer is given back and answered 502", async () => {
    const offer = await scriptedOffer();
    script.next("book", "refuse");
    expectError(await createOrderA(server, tenant.key, offer), 422, "offer_no_longer_available");
    // The call policy asks again twice after a failure without an answer (SUPPLIER_CALL_RETRIES).
    script.next("book", "fail", 3);
    expectError(await createOrderA(server, tenant.key, offer), 502, "supplier_error");
    expect(await server.db.prisma.seatIntent.count({ where: { tenantId: tenant.tenantId } })).toBe(0);
    // Nothing is left of either: the offer books now.
    expect((await bookOffer(server, tenant.key, offer)).supplier.id).toBe("scripted");
  });
});
