import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seatServiceId } from "../../src/connectors/simulated/seating/seat-service-ids";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { createOrderA, flightsOfOffer, getOrder, newKey, searchForBooking } from "../helpers/orders";
import { seatsLeftOnOffer } from "../helpers/flights";
import { seatForSale, seatMaps, seatsOfMap } from "../helpers/seat-maps";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** Seats booked as services at booking time (docs/rest-api.md#seat-maps): REST and GraphQL. */

const segmentsOf = (offer: any): any[] => offer.slices.flatMap((slice: any) => slice.segments);
const flightName = (offer: any) => JSON.stringify(flightsOfOffer(offer));
/** Days from today (UTC) to the offer's first departure: searching them again offers the same flights. */
const daysUntil = (offer: any) => Math.round((Date.parse(segmentsOf(offer)[0].departing_at.slice(0, 10)) - Date.parse(new Date().toISOString().slice(0, 10))) / 86_400_000);
const usd = (minor: number) => (minor / 100).toFixed(2);

describe("seats at booking", () => {
  let server: TestServer;
  let alice: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer();
    alice = await createTenant(server, { name: "Alice Travel" });
  });
  afterAll(() => server.close());

  async function firstMap(subject: string): Promise<any> {
    return (await seatMaps(server, alice.key, subject))[0];
  }

  /** A seat of the offer's first map for sale to `passengerId`, a priced one when there is one, and its service. */
  async function seatFor(offer: any, passengerId = "p1", skip: string[] = []): Promise<{ designator: string; service: any; segmentId: string }> {
    return seatForSale(await firstMap(`offer_id=${offer.id}`), passengerId, skip);
  }

  /** The seat's service on another offer's map (same flight): its id there, or undefined when not for sale. */
  async function serviceOnMap(offer: any, designator: string, passengerId = "p1"): Promise<any> {
    const seat = seatsOfMap(await firstMap(`offer_id=${offer.id}`)).find((candidate) => candidate.designator === designator);
    return seat.available_services.find((service: any) => service.passenger_id === passengerId);
  }

  /** Books `offer` with the seat services given, paying its total plus theirs. */
  function bookWithServices(offer: any, services: any[]) {
    const extra = services.reduce((sum, service) => sum + toMinor(service.total_amount, service.total_currency), 0);
    return createOrderA(server, alice.key, offer, {
      body: {
        services: services.map((service) => ({ id: service.id, quantity: 1 })),
        payments: [{ type: "balance", currency: offer.total_currency, amount: usd(toMinor(offer.total_amount, offer.total_currency) + extra) }],
      },
    });
  }

  /** `count` offers of the offer's flight, each from a search of its date again (an offer books once). */
  async function sameFlightOffers(offer: any, count: number): Promise<any[]> {
    const offers: any[] = [];
    while (offers.length < count) {
      const again = await searchForBooking(server, alice.key, { origin: "LHR", destination: "JFK", days: daysUntil(offer), reuseFlights: true });
      offers.push(...again.filter((candidate) => candidate.id !== offer.id && flightName(candidate) === flightName(offer)).slice(0, count - offers.length));
    }
    return offers;
  }

  /**
   * A direct offer, so that its first map is its only one, on a flight with room for the party
   * twice (tests book it and then another offer of its flight; some flights are nearly full).
   */
  async function directOffer(passengers?: Array<"adult" | "child" | "infant_without_seat">): Promise<any> {
    const room = 2 * (passengers ?? ["adult"]).filter((type) => type !== "infant_without_seat").length;
    for (let attempt = 0; attempt < 10; attempt++) {
      for (const offer of (await searchForBooking(server, alice.key, { passengers })).filter((candidate) => segmentsOf(candidate).length === 1)) {
        if ((await seatsLeftOnOffer(server, offer)) >= room) return offer;
      }
    }
    throw new Error("no direct offer");
  }

  it("books a seat: its price joins the total, the order shows it, and no map offers it any more", async () => {
    const offer = await directOffer();
    const [twin] = await sameFlightOffers(offer, 1);
    const { designator, service, segmentId } = await seatFor(offer);
    expect(await serviceOnMap(twin, designator)).toBeDefined();

    const response = await bookWithServices(offer, [service]);
    expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(201);
    const order = response.body.data;
    expect(toMinor(order.total_amount, order.total_currency)).toBe(toMinor(offer.total_amount, offer.total_currency) + toMinor(service.total_amount, service.total_currency));
    const seatService = { id: service.id, type: "seat", quantity: 1, total_amount: service.total_amount, total_currency: service.total_currency, passenger_ids: ["p1"], segment_ids: [segmentId], designator };
    expect(order.services).toEqual([seatService]);
    expect((await getOrder(server, alice.key, order.id)).body.data.services).toEqual([seatService]);

    // Taken on the order's own map and on another offer's map of the same flight.
    const ordered = seatsOfMap(await firstMap(`order_id=${order.id}`)).find((seat) => seat.designator === designator);
    expect(ordered.available_services).toEqual([]);
    expect(await serviceOnMap(twin, designator)).toBeUndefined();
  });

  it("refuses a taken seat and a seat chosen twice in one request with 422 seat_unavailable", async () => {
    const offer = await directOffer(["adult", "adult"]);
    const [twin] = await sameFlightOffers(offer, 1);
    const { designator, service } = await seatFor(offer);
    const twinService = await serviceOnMap(twin, designator);
    expect((await bookWithServices(offer, [service])).status).toBe(201);
    expectError(await bookWithServices(twin, [twinService]), 422, "seat_unavailable", "services[0].id");

    const fresh = await directOffer(["adult", "adult"]);
    const first = await seatFor(fresh, "p1");
    const secondPassenger = await serviceOnMap(fresh, first.designator, "p2");
    expectError(await bookWithServices(fresh, [first.service, secondPassenger]), 422, "seat_unavailable", "services[1].id");
    // Nothing was booked: the offer books with the seat.
    expect((await bookWithServices(fresh, [first.service])).status).toBe(201);
  });

  it("refuses a seat for an infant without seat or of another offer (422 naming the field), and two seats for one passenger on one segment", async () => {
    const offer = await directOffer(["adult", "infant_without_seat"]);
    const { designator, service, segmentId } = await seatFor(offer);
    expect(await serviceOnMap(offer, designator, "p2")).toBeUndefined();
    // The id a map would give the lap infant, were it offered one.
    const lapSeat = { ...service, id: seatServiceId(offer.id, { index: 0, id: segmentId }, { index: 1, id: "p2" }, designator) };
    expectError(await bookWithServices(offer, [lapSeat]), 422, "invalid_field_value", "services[0].id");
    // The same seat of the same flight, from another offer's map: not this offer's service.
    const [twin] = await sameFlightOffers(offer, 1);
    expectError(await bookWithServices(offer, [await serviceOnMap(twin, designator)]), 422, "invalid_field_value", "services[0].id");

    const other = await seatFor(offer, "p1", [designator]);
    // An id edited to name another seat than the one it was made for.
    const forged = { ...service, id: service.id.replace(/[0-9]+[a-z]$/, other.designator.toLowerCase()) };
    expectError(await bookWithServices(offer, [forged]), 422, "invalid_field_value", "services[0].id");
    expectError(await bookWithServices(offer, [service, other.service]), 400, "validation_failed", "services[1].id");
    const twice = await createOrderA(server, alice.key, offer, { body: { services: [{ id: service.id, quantity: 2 }] } });
    expectError(twice, 400, "validation_failed", "services[0].quantity");
    expect((await bookWithServices(offer, [service])).status).toBe(201);
  });

  it("gives one seat to exactly one of 20 concurrent bookings, and a cancellation frees it", async () => {
    const offer = await directOffer();
    const offers = [offer, ...(await sameFlightOffers(offer, 20))];
    const { designator } = await seatFor(offer);
    const services = await Promise.all(offers.map((candidate) => serviceOnMap(candidate, designator)));
    const responses = await Promise.all(offers.slice(0, 20).map((candidate, index) => bookWithServices(candidate, [services[index]])));
    const won = responses.filter((response) => response.status === 201);
    expect(won).toHaveLength(1);
    for (const response of responses.filter((candidate) => candidate.status !== 201)) expectError(response, 422, "seat_unavailable", "services[0].id");

    const last = offers[20];
    expect(await serviceOnMap(last, designator)).toBeUndefined();
    const cancelled = await call(server, "POST", `/v1/air/orders/${won[0]!.body.data.id}/actions/cancel`, { key: alice.key, headers: { "idempotency-key": newKey("cancel") } });
    expect(cancelled.status, JSON.stringify(cancelled.body).slice(0, 300)).toBe(200);
    expect(await serviceOnMap(last, designator)).toEqual(services[20]);
    expect((await bookWithServices(last, [services[20]])).status).toBe(201);
  });

  it("books a seat picked from seatMaps over GraphQL", async () => {
    const offer = await directOffer();
    const maps = await graphql(
      server,
      `query Maps($offerId: ID) { seatMaps(offerId: $offerId) { segmentId cabins { rows { sections { elements { type designator availableServices { id passengerId totalAmount totalCurrency } } } } } } }`,
      { offerId: offer.id },
      { key: alice.key },
    );
    expect(maps.body.errors).toBeUndefined();
    const map = maps.body.data.seatMaps[0];
    const seat = map.cabins
      .flatMap((cabin: any) => cabin.rows.flatMap((row: any) => row.sections.flatMap((section: any) => section.elements)))
      .find((element: any) => element.type === "SEAT" && element.availableServices.length > 0);
    const service = seat.availableServices[0];
    const total = usd(toMinor(offer.total_amount, offer.total_currency) + toMinor(service.totalAmount, service.totalCurrency));
    const created = await graphql(
      server,
      `mutation Create($input: CreateOrderInput!, $key: String!) { createOrder(input: $input, idempotencyKey: $key) { totalAmount services { type designator passengerIds segmentIds totalAmount } } }`,
      {
        key: newKey("gql-seat"),
        input: {
          offerId: offer.id,
          passengers: [{ id: "p1", title: "MS", givenName: "Ada", familyName: "Lovelace", bornOn: "1990-01-01", gender: "F", email: "ada@travel.example", phoneNumber: "+442080160508", identityDocuments: [{ type: "PASSPORT", number: "P123456789", issuingCountryCode: "GB", expiresOn: "2036-01-01" }] }],
          services: [{ id: service.id, quantity: 1 }],
          payment: { type: "BALANCE", currency: offer.total_currency, amount: total },
        },
      },
      { key: alice.key },
    );
    expect(created.body.errors, JSON.stringify(created.body.errors)).toBeUndefined();
    expect(created.body.data.createOrder).toEqual({ totalAmount: total, services: [{ type: "seat", designator: seat.designator, passengerIds: [service.passengerId], segmentIds: [map.segmentId], totalAmount: service.totalAmount }] });
  });
});
