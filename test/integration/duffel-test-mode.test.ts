import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call } from "../helpers/client";
import type { DuffelFake } from "../helpers/duffel-fake";
import { duffelOrdersOf, duffelTenant, expectLedgerOf, openDuffelSuite, closeDuffelSuite } from "../helpers/duffel-gateway";
import { expectError } from "../helpers/expect-error";
import { daysAhead } from "../helpers/offers";
import { bookOffer, createOrderA, ticketOrder, waitForStatus } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

/**
 * Duffel's test-mode journeys, as the fake replays them by route (docs/duffel.md#not-covered-yet):
 * each reaches the tenant as the catalogue words it, and no money moves for what Duffel refused.
 */

describe("Duffel's test-mode journeys", { timeout: 60_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof duffelTenant>>;
  let day = 40;

  beforeAll(async () => {
    ({ fake, server, tenant } = await openDuffelSuite());
  });
  afterAll(() => closeDuffelSuite({ server, fake }));

  /** A search of the route, answered. */
  function searchOf(origin: string, destination: string) {
    day += 1;
    return call(server, "POST", "/v1/air/search", {
      key: tenant.key,
      body: { slices: [{ origin, destination, departure_date: daysAhead(day) }], passengers: [{ type: "adult", id: "p1" }], cabin_class: "economy" },
    });
  }

  async function search(origin: string, destination: string) {
    const answer = await searchOf(origin, destination);
    expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
    return answer.body.data;
  }

  /** A Duffel offer of the airline on the route. */
  async function offerOn(origin: string, destination: string, owner: "BA" | "VS" | "AA") {
    const offer = (await search(origin, destination)).offers.find((candidate: any) => candidate.supplier.id === "duffel" && candidate.owner.iata_code === owner);
    expect(offer, `a Duffel offer of ${owner} ${origin}→${destination}`).toBeDefined();
    return offer;
  }

  it("STN→LHR: Duffel's 504 on search is the catalogue's 504 supplier_timeout (no other supplier flies the route)", async () => {
    expectError(await searchOf("STN", "LHR"), 504, "supplier_timeout");
  });

  it("LGW→LHR: the offer is gone at booking (422 offer_no_longer_available), and LHR→STN: its price rises on every read (422 price_changed); nothing booked", async () => {
    const ordersBefore = fake.orders.size;
    expectError(await createOrderA(server, tenant.key, await offerOn("LGW", "LHR", "VS")), 422, "offer_no_longer_available");
    expectError(await createOrderA(server, tenant.key, await offerOn("LHR", "STN", "VS")), 422, "price_changed");
    expect(fake.orders.size).toBe(ordersBefore);
  });

  it("LGW→STN: Duffel's balance is short when the hold is paid: the order fails with the debit (of no fee) reversed and the hold cancelled", async () => {
    const order = await bookOffer(server, tenant.key, await offerOn("LGW", "STN", "VS"));
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    expect((await waitForStatus(server, tenant.key, order.id, ["FAILED"])).body.data).toMatchObject({ failure_reason: "airline_rejected" });
    expect(duffelOrdersOf(fake, order.id)[0]).toMatchObject({ paid: false, cancelled: true });
    await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit", "ticketing_reversal"]);
  });

  it("LTN→SYD: a refund goes to airline credits: the credit is listed, no fare comes back as cash", async () => {
    const order = await bookOffer(server, tenant.key, await offerOn("LTN", "SYD", "AA"));
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    expect((await call(server, "POST", `/v1/air/orders/${order.id}/actions/refund`, { key: tenant.key })).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    const credits = (await call(server, "GET", "/v1/airline_credits", { key: tenant.key })).body.data.items;
    expect(credits).toEqual([expect.objectContaining({ order_id: order.id, passenger_id: "p1", airline_iata_code: "AA", amount: duffelOrdersOf(fake, order.id)[0]!.totalAmount })]);
  });
});
