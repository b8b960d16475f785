import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { bookOffer, getOrder, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import { requestChange, laterDate } from "../helpers/order-changes";
import { seatMaps, seatsOfMap } from "../helpers/seat-maps";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { metricValue } from "../helpers/supplier-metrics";

/** Everything after the search goes to the offer's supplier (docs/gateway.md#routing): a low-cost booking end to end. */

const HOLD_SECONDS = 4;

/** This process's count of `call` to `supplier` (the Prometheus outcome counter, every outcome). */
const calls = (server: TestServer, supplier: string, call_: string) => metricValue(server, "aerogate_supplier_calls_total", `supplier="${supplier}"`, `call="${call_}"`);

describe("an order goes to its own supplier", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ env: { ORDER_HOLD_SECONDS: String(HOLD_SECONDS), TICKETING_DELAY_MS: "0" } });
    tenant = await createTenant(server);
    // Only the low-cost supplier's offers: every booking below is one of its own.
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: ["simulated_lcc"] } })).status).toBe(200);
  });
  afterAll(() => server.close());

  const lowCostOffer = async () => {
    const offers = await searchForBooking(server, tenant.key, { origin: "LON", destination: "BCN" });
    const direct = offers.find((offer) => offer.slices[0].segments.length === 1) ?? offers[0];
    expect(direct.supplier.id).toBe("simulated_lcc");
    return direct;
  };

  it("books with the low-cost supplier, which holds the seats, and the order says so, without change among its actions", async () => {
    const heldBefore = { lcc: await calls(server, "simulated_lcc", "book"), network: await calls(server, "simulated", "book") };
    const order = await bookOffer(server, tenant.key, await lowCostOffer());
    expect(order.supplier).toEqual({ id: "simulated_lcc", name: "Simulated low-cost carriers" });
    expect(order.available_actions.sort()).toEqual(["add_services", "cancel", "pay", "select_seats"]);
    expect(await calls(server, "simulated_lcc", "book")).toBe(heldBefore.lcc + 1);
    expect(await calls(server, "simulated", "book")).toBe(heldBefore.network);

    const read = await graphql(server, `query ($id: ID!) { order(id: $id) { supplier { id name } availableActions } }`, { id: order.id }, { key: tenant.key });
    expect(read.body.data.order).toEqual({ supplier: { id: "simulated_lcc", name: "Simulated low-cost carriers" }, availableActions: ["CANCEL", "ADD_SERVICES", "PAY", "SELECT_SEATS"] });
  });

  it("answers the order's seat map and services at the low-cost supplier's prices: every seat paid, bags sold", async () => {
    const order = await bookOffer(server, tenant.key, await lowCostOffer());
    const assignedBefore = await calls(server, "simulated_lcc", "seatMaps");
    const [map] = await seatMaps(server, tenant.key, `order_id=${order.id}`);
    expect(await calls(server, "simulated_lcc", "seatMaps")).toBe(assignedBefore + 1);
    const forSale = seatsOfMap(map).filter((seat: any) => seat.available_services.length > 0);
    expect(forSale.length).toBeGreaterThan(0);
    for (const seat of forSale) expect(toMinor(seat.available_services[0].total_amount, seat.available_services[0].total_currency)).toBeGreaterThan(0);

    const services = await call(server, "GET", `/v1/air/orders/${order.id}/available_services`, { key: tenant.key });
    expect(services.status).toBe(200);
    const bag = services.body.data.find((service: any) => service.type === "baggage");
    expect(bag).toMatchObject({ total_amount: "29.00", total_currency: "USD" });
  });

  it("quotes a cancellation of its ticketed order by the low-cost fare: the taxes back, the fare kept", async () => {
    const order = await bookOffer(server, tenant.key, await lowCostOffer());
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
    expect(ticketed.available_actions).toEqual(["cancel", "add_services", "select_seats"]);
    const quote = await call(server, "POST", "/v1/air/order_cancellations", { key: tenant.key, body: { order_id: order.id } });
    expect(quote.status).toBe(201);
    expect(quote.body.data.refund_amount).toBe(ticketed.tax_amount);
  });

  it("refuses a change request and the airline's change on it as 422 unsupported_by_supplier naming the supplier, changing nothing", async () => {
    const order = await bookOffer(server, tenant.key, await lowCostOffer());
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
    const change = await requestChange(server, tenant.key, ticketed, laterDate(ticketed.slices[0].departure_date ?? ticketed.slices[0].segments[0].departing_at.slice(0, 10), 2));
    expectError(change, 422, "unsupported_by_supplier");
    expect(change.body.errors[0].message).toContain("simulated_lcc");
    const airline = await call(server, "POST", `/v1/sandbox/orders/${order.id}/airline_initiated_change`, { key: tenant.key, body: { kind: "retime" } });
    expectError(airline, 422, "unsupported_by_supplier");
    expect((await getOrder(server, tenant.key, order.id)).body.data).toEqual(ticketed);
  });

  it("gives the low-cost supplier its seats back when an unpaid hold expires", async () => {
    const releasedBefore = await calls(server, "simulated_lcc", "cancelBookings");
    const order = await bookOffer(server, tenant.key, await lowCostOffer());
    const cancelled = await waitForStatus(server, tenant.key, order.id, ["CANCELED"], (HOLD_SECONDS + 15) * 1000);
    expect(cancelled.body.data.cancellation_reason).toBe("payment_deadline_passed");
    expect(await calls(server, "simulated_lcc", "cancelBookings")).toBeGreaterThan(releasedBefore);
  });
});
