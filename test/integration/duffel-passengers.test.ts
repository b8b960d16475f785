import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { DuffelFake } from "../helpers/duffel-fake";
import { duffelOrdersOf, duffelTenant, searchLondonBarcelona, openDuffelSuite, closeDuffelSuite } from "../helpers/duffel-gateway";
import { expectError } from "../helpers/expect-error";
import { createOrderA, passengerFor, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

/**
 * Travellers in full at Duffel (docs/duffel.md#travellers-at-duffel): a booking's passports,
 * loyalty accounts and lap infant reach Duffel's order under Duffel's passenger ids, and the
 * fake refuses, as Duffel does, an order missing a document its offer requires or an infant no
 * adult holds.
 */
describe("Duffel passengers", { timeout: 60_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;
  let tenant: Awaited<ReturnType<typeof duffelTenant>>;

  beforeAll(async () => {
    ({ fake, server, tenant } = await openDuffelSuite());
  });
  afterAll(() => closeDuffelSuite({ server, fake }));

  /** A holdable Duffel offer (VS) for an adult and an infant on their lap. */
  async function adultAndInfantOffer(): Promise<any> {
    const search = await searchLondonBarcelona(server, tenant.key, { passengers: [{ type: "adult", id: "p1" }, { type: "infant_without_seat", id: "p2", age: 1 }] });
    expect(search.status, JSON.stringify(search.body).slice(0, 500)).toBe(200);
    const offer = search.body.data.offers.find((candidate: any) => candidate.supplier.id === "duffel" && candidate.owner.iata_code === "VS");
    expect(offer?.passenger_identity_documents_required).toBe(true);
    return offer;
  }

  it("sends each passenger's passport, loyalty accounts and the adult's lap infant to Duffel under Duffel's passenger ids, and the order is booked and ticketed", async () => {
    const offer = await adultAndInfantOffer();
    const adult = passengerFor("p1", "adult", { loyalty_programme_accounts: [{ airline_iata_code: "VS", account_number: "00123456" }], infant_passenger_id: "p2" });
    const infant = passengerFor("p2", "infant_without_seat", { given_name: "Ivy" });
    const created = await createOrderA(server, tenant.key, offer, { passengers: [adult, infant] });
    expect(created.status, JSON.stringify(created.body).slice(0, 500)).toBe(201);
    const order = created.body.data;

    const [held] = duffelOrdersOf(fake, order.id);
    const sent = held!.body.passengers as any[];
    const [adultAtDuffel, infantAtDuffel] = sent;
    expect(sent.map((passenger) => passenger.id)).toEqual(offer.passengers.map(() => expect.stringMatching(/^pas_/)));
    expect(adultAtDuffel).toMatchObject({
      given_name: "Ada",
      identity_documents: [{ type: "passport", unique_identifier: "PP112345", issuing_country_code: "GB", expires_on: "2036-01-01" }],
      loyalty_programme_accounts: [{ airline_iata_code: "VS", account_number: "00123456" }],
      infant_passenger_id: infantAtDuffel.id,
    });
    expect(infantAtDuffel).toMatchObject({ given_name: "Ivy", identity_documents: [{ type: "passport", unique_identifier: "PP212345" }] });
    expect(infantAtDuffel.infant_passenger_id).toBeUndefined();

    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    const ticketed = (await waitForStatus(server, tenant.key, order.id, ["TICKETED"])).body.data;
    expect(ticketed.documents.map((document: any) => document.passenger_id).sort()).toEqual(["p1", "p2"]);
  });

  it("refuses a booking of an offer requiring documents without a passport with 400 validation_failed naming the field: nothing is asked of Duffel, nothing is debited", async () => {
    const offer = await adultAndInfantOffer();
    const ordersBefore = fake.orders.size;
    const ordersOfTenant = await server.db.prisma.order.count({ where: { tenantId: tenant.tenantId } });
    const balanceBefore = (await walletBalance(server, tenant.key)).minor;
    const created = await createOrderA(server, tenant.key, offer, { passengers: [passengerFor("p1", "adult", { identity_documents: [] }), passengerFor("p2", "infant_without_seat")] });
    expectError(created, 400, "validation_failed", "passengers[0].identity_documents");
    expect(fake.orders.size).toBe(ordersBefore);
    expect((await walletBalance(server, tenant.key)).minor).toBe(balanceBefore);
    expect(await server.db.prisma.order.count({ where: { tenantId: tenant.tenantId } })).toBe(ordersOfTenant);
  });
});
