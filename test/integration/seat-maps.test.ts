import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { expectError, expectGraphQLError, expectSameAnswer } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { bookOffer, flightsOfOffer, searchForBooking } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";

/** Seat maps of offers and orders (docs/rest-api.md#seat-maps): REST `GET /v1/air/seat_maps` and GraphQL `seatMaps`. */

const WIDEBODIES = new Set(["789", "359", "77W", "388"]);
const FACILITIES = new Set(["empty", "exit_row", "lavatory", "galley", "closet", "stairs", "bassinet"]);

const segmentsOf = (offer: any): any[] => offer.slices.flatMap((slice: any) => slice.segments);
const elementsOf = (cabin: any): any[] => cabin.rows.flatMap((row: any) => row.sections.flatMap((section: any) => section.elements));
const seatsOf = (cabin: any): any[] => elementsOf(cabin).filter((element) => element.type === "seat");
/** The cabin flown on the map's segment of `offer`. */
const flownCabin = (map: any, offer: any): any => {
  const segment = segmentsOf(offer).find((candidate) => candidate.id === map.segment_id);
  return map.cabins.find((cabin: any) => cabin.cabin_class === segment.passengers[0].cabin_class);
};
const flightName = (offer: any) => JSON.stringify(flightsOfOffer(offer));

/** A direct offer of a fresh flight whose aircraft is (or is not) a widebody. */
async function directOffer(server: TestServer, key: string, route: { origin: string; destination: string }, wide: boolean, passengers?: Array<"adult" | "child" | "infant_without_seat">): Promise<any> {
  for (let attempt = 0; attempt < 10; attempt++) {
    const offers = await searchForBooking(server, key, { ...route, passengers });
    const found = offers.find((offer) => segmentsOf(offer).length === 1 && WIDEBODIES.has(segmentsOf(offer)[0].aircraft.iata_code) === wide);
    if (found) return found;
  }
  throw new Error(`no direct ${wide ? "widebody" : "narrowbody"} offer ${route.origin}→${route.destination}`);
}

describe("seat maps", () => {
  let server: TestServer;
  let alice: TenantFixture;
  let bob: TenantFixture;
  let wideOffer: any;
  let narrowOffer: any;
  beforeAll(async () => {
    server = await startTestServer();
    alice = await createTenant(server, { name: "Alice Travel" });
    bob = await createTenant(server, { name: "Bob Tours" });
    wideOffer = await directOffer(server, alice.key, { origin: "LHR", destination: "JFK" }, true);
    narrowOffer = await directOffer(server, alice.key, { origin: "LHR", destination: "FRA" }, false);
  });
  afterAll(() => server.close());

  const seatMaps = (query: string, key = alice.key, headers: Record<string, string> = {}) => call(server, "GET", `/v1/air/seat_maps${query}`, { key, headers });
  async function mapsOf(query: string, key = alice.key): Promise<any[]> {
    const response = await seatMaps(query, key);
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
    return response.body.data;
  }

  it("answers one map per segment in the seat map's documented shape", async () => {
    const response = await seatMaps(`?offer_id=${wideOffer.id}`);
    expect(response.status).toBe(200);
    expect(response.body).toMatchObject({ success: true, message: expect.any(String) });
    const maps = response.body.data;
    expect(maps.map((map: any) => [map.segment_id, map.slice_id])).toEqual(wideOffer.slices.flatMap((slice: any) => slice.segments.map((segment: any) => [segment.id, slice.id])));
    for (const map of maps) {
      expect(Object.keys(map).sort()).toEqual(["cabins", "id", "segment_id", "slice_id"]);
      expect(map.id).toMatch(/^sea_/);
      expect(map.cabins.length).toBeGreaterThan(0);
      for (const cabin of map.cabins) {
        expect(Object.keys(cabin).sort()).toEqual(["aisles", "cabin_class", "deck", "rows", "wings"]);
        expect(["economy", "premium_economy", "business", "first"]).toContain(cabin.cabin_class);
        expect([0, 1]).toContain(cabin.deck);
        if (cabin.wings !== null) {
          expect(Object.keys(cabin.wings).sort()).toEqual(["first_row_index", "last_row_index"]);
          expect(cabin.wings.first_row_index).toBeLessThanOrEqual(cabin.wings.last_row_index);
          expect(cabin.wings.last_row_index).toBeLessThan(cabin.rows.length);
        }
        for (const row of cabin.rows) {
          expect(row.sections).toHaveLength(cabin.aisles + 1);
          for (const section of row.sections) {
            for (const element of section.elements) {
              if (element.type !== "seat") {
                expect(FACILITIES.has(element.type), element.type).toBe(true);
                expect(Object.keys(element)).toEqual(["type"]);
                continue;
              }
              expect(Object.keys(element).sort()).toEqual(["available_services", "designator", "disclosures", "name", "type"]);
              expect(element.designator).toMatch(/^\d+[A-K]$/);
              expect(element.name).toEqual(expect.any(String));
              for (const service of element.available_services) {
                expect(Object.keys(service).sort()).toEqual(["id", "passenger_id", "total_amount", "total_currency"]);
                expect(service.id).toMatch(/^ase_/);
                expect(service.total_currency).toBe(wideOffer.total_currency);
              }
            }
          }
        }
      }
      const designators = map.cabins.flatMap(seatsOf).map((seat: any) => seat.designator);
      expect(new Set(designators).size).toBe(designators.length);
    }
  });

  it("is the same on every read, and for every offer on the same flight", async () => {
    const first = await mapsOf(`?offer_id=${wideOffer.id}`);
    expect(await mapsOf(`?offer_id=${wideOffer.id}`)).toEqual(first);
    // The same date searched again: other offer ids for the same flights.
    const days = Math.round((Date.parse(segmentsOf(wideOffer)[0].departing_at.slice(0, 10)) - Date.parse(new Date().toISOString().slice(0, 10))) / 86_400_000);
    const again = await searchForBooking(server, alice.key, { origin: "LHR", destination: "JFK", days, reuseFlights: true });
    const twin = again.find((offer) => offer.id !== wideOffer.id && flightName(offer) === flightName(wideOffer));
    expect(twin, "the flight offered again").toBeDefined();
    const other = await mapsOf(`?offer_id=${twin.id}`);
    // Everything but the ids derived from the offer: the layout, what is for sale and the prices.
    const withoutIds = (maps: any[]) => JSON.parse(JSON.stringify(maps, (key, value) => (["id", "segment_id", "slice_id"].includes(key) ? undefined : value)));
    expect(withoutIds(other)).toEqual(withoutIds(first));
    expect(other[0].id).not.toBe(first[0].id);
  });

  it("draws a narrowbody and a widebody differently: aisles, seats per row, rows", async () => {
    const [wide] = await mapsOf(`?offer_id=${wideOffer.id}`);
    const [narrow] = await mapsOf(`?offer_id=${narrowOffer.id}`);
    const widest = (map: any) => Math.max(...map.cabins.flatMap((cabin: any) => cabin.rows.map((row: any) => row.sections.flatMap((s: any) => s.elements).filter((e: any) => e.type === "seat").length)));
    expect(new Set(wide.cabins.map((cabin: any) => cabin.aisles))).toEqual(new Set([2]));
    expect(new Set(narrow.cabins.map((cabin: any) => cabin.aisles))).toEqual(new Set([1]));
    expect(widest(wide)).toBeGreaterThanOrEqual(8);
    expect(widest(narrow)).toBeLessThanOrEqual(6);
    expect(wide.cabins.flatMap(seatsOf).length).toBeGreaterThan(narrow.cabins.flatMap(seatsOf).length);
    for (const map of [wide, narrow]) {
      const types = new Set(map.cabins.flatMap(elementsOf).map((element: any) => element.type));
      for (const type of ["seat", "exit_row", "lavatory", "galley"]) expect(types.has(type), `${type} on ${segmentsOf(map === wide ? wideOffer : narrowOffer)[0].aircraft.iata_code}`).toBe(true);
      expect(map.cabins.some((cabin: any) => cabin.wings !== null)).toBe(true);
    }
  });

  it("prices seats by position: some free, windows and aisles above middles, exit and bulkhead rows dearest", async () => {
    // The airline may have sold most of a flight's seats: price the emptiest of a search's widebody flights.
    const offers = (await searchForBooking(server, alice.key, { origin: "LHR", destination: "JFK" })).filter(
      (offer) => segmentsOf(offer).length === 1 && WIDEBODIES.has(segmentsOf(offer)[0].aircraft.iata_code),
    );
    const priced = (map: any, offer: any) =>
      seatsOf(flownCabin(map, offer))
        .filter((seat) => seat.available_services.length > 0)
        .map((seat) => ({ ...seat, minor: toMinor(seat.available_services[0].total_amount, seat.available_services[0].total_currency) }));
    const candidates = await Promise.all([wideOffer, ...offers].map(async (offer) => priced((await mapsOf(`?offer_id=${offer.id}`))[0], offer)));
    const seats = candidates.sort((a, b) => b.length - a.length)[0]!;
    expect(seats.some((seat) => seat.minor === 0)).toBe(true);
    expect(new Set(seats.map((seat) => seat.minor)).size).toBeGreaterThanOrEqual(2);
    const byName = (pattern: RegExp) => seats.filter((seat) => pattern.test(seat.name)).map((seat) => seat.minor);
    const [middles, sides, dearest] = [byName(/^Middle seat/), byName(/^(Window|Aisle) seat/), byName(/^(Exit row|Extra legroom) (window|aisle)/)];
    expect(new Set(middles)).toEqual(new Set([0]));
    if (sides.length > 0) expect(Math.min(...sides)).toBeGreaterThan(0);
    if (sides.length > 0 && dearest.length > 0) expect(Math.min(...dearest)).toBeGreaterThan(Math.max(...sides));
    for (const seat of seats.filter((seat) => /^Exit row/.test(seat.name))) expect(seat.disclosures.length).toBeGreaterThan(0);
  });

  it("offers no seat the airline sold, nor any seat outside the cabin flown", async () => {
    for (const offer of [wideOffer, narrowOffer]) {
      const [map] = await mapsOf(`?offer_id=${offer.id}`);
      const flown = flownCabin(map, offer);
      const seats = seatsOf(flown);
      const forSale = seats.filter((seat) => seat.available_services.length > 0);
      expect(forSale.length).toBeGreaterThan(0);
      expect(forSale.length).toBeLessThan(seats.length);
      for (const cabin of map.cabins.filter((cabin: any) => cabin !== flown)) {
        for (const seat of seatsOf(cabin)) expect(seat.available_services, seat.designator).toEqual([]);
      }
    }
  });

  it("gives each seated passenger a service per seat, never a lap infant, and exit rows to adults only", async () => {
    const offer = await directOffer(server, alice.key, { origin: "LHR", destination: "JFK" }, true, ["adult", "child", "infant_without_seat"]);
    const [adult, child, infant] = offer.passengers.map((passenger: any) => passenger.id);
    const [map] = await mapsOf(`?offer_id=${offer.id}`);
    const forSale = seatsOf(flownCabin(map, offer)).filter((seat) => seat.available_services.length > 0);
    expect(forSale.length).toBeGreaterThan(0);
    for (const seat of forSale) {
      const passengers = seat.available_services.map((service: any) => service.passenger_id);
      expect(passengers, seat.designator).toEqual(/^Exit row/.test(seat.name) ? [adult] : [adult, child]);
      expect(passengers).not.toContain(infant);
      expect(new Set(seat.available_services.map((service: any) => service.total_amount)).size).toBe(1);
    }
    const ids = forSale.flatMap((seat) => seat.available_services.map((service: any) => service.id));
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("prices in the tenant's currency", async () => {
    const carol = await createTenant(server, { name: "Carol Reisen" });
    const changed = await call(server, "PATCH", "/v1/tenant", { key: carol.key, body: { default_currency: "EUR" } });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    const offer = await directOffer(server, carol.key, { origin: "LHR", destination: "JFK" }, true);
    const [map] = await mapsOf(`?offer_id=${offer.id}`, carol.key);
    const services = seatsOf(flownCabin(map, offer)).flatMap((seat) => seat.available_services);
    expect(new Set(services.map((service: any) => service.total_currency))).toEqual(new Set(["EUR"]));
  });

  it("maps a booked order's flights with services of its own", async () => {
    const offer = await directOffer(server, alice.key, { origin: "LHR", destination: "JFK" }, true);
    const order = await bookOffer(server, alice.key, offer);
    const offerMaps = await mapsOf(`?offer_id=${offer.id}`);
    const orderMaps = await mapsOf(`?order_id=${order.id}`);
    expect(orderMaps.map((map) => [map.segment_id, map.slice_id])).toEqual(offerMaps.map((map) => [map.segment_id, map.slice_id]));
    const designatorsForSale = (maps: any[]) => maps.flatMap((map) => map.cabins.flatMap(seatsOf)).filter((seat) => seat.available_services.length > 0).map((seat) => seat.designator);
    expect(designatorsForSale(orderMaps)).toEqual(designatorsForSale(offerMaps));
    const serviceIds = (maps: any[]) => new Set(maps.flatMap((map) => map.cabins.flatMap(seatsOf)).flatMap((seat) => seat.available_services.map((service: any) => service.id)));
    const offerIds = serviceIds(offerMaps);
    expect([...serviceIds(orderMaps)].some((id) => offerIds.has(id))).toBe(false);
    // Cancelled, it takes no more services: the map stays, with nothing for sale.
    const cancelled = await call(server, "POST", `/v1/air/orders/${order.id}/actions/cancel`, { key: alice.key });
    expect(cancelled.status, JSON.stringify(cancelled.body).slice(0, 300)).toBe(200);
    expect(serviceIds(await mapsOf(`?order_id=${order.id}`)).size).toBe(0);
  });

  it("answers another tenant's offer or order exactly as an unknown one: 404 not_found", async () => {
    const order = await bookOffer(server, alice.key, await directOffer(server, alice.key, { origin: "LHR", destination: "FRA" }, false));
    const foreignOffer = await seatMaps(`?offer_id=${wideOffer.id}`, bob.key);
    expectError(foreignOffer, 404, "not_found", "offer_id");
    expectSameAnswer(foreignOffer, await seatMaps("?offer_id=off_00000000000000000000000000", bob.key));
    const foreignOrder = await seatMaps(`?order_id=${order.id}`, bob.key);
    expectError(foreignOrder, 404, "not_found", "order_id");
    expectSameAnswer(foreignOrder, await seatMaps("?order_id=ord_00000000000000000000000000", bob.key));
    // The owner reads a tenant's maps by naming it.
    const owned = await seatMaps(`?offer_id=${wideOffer.id}`, server.ownerKey, { "service-tenant": alice.tenantId });
    expect(owned.status).toBe(200);
    expectError(await seatMaps(`?offer_id=${wideOffer.id}`, server.ownerKey), 400, "tenant_required");
  });

  it("refuses a request naming neither or both, or anything else, with 400 validation_failed naming the field; a malformed id is not_found", async () => {
    expectError(await seatMaps(""), 400, "validation_failed", "offer_id");
    expectError(await seatMaps(`?offer_id=${wideOffer.id}&order_id=ord_x`), 400, "validation_failed", "order_id");
    expectError(await seatMaps(`?offer_id=${wideOffer.id}&offer_id=${narrowOffer.id}`), 400, "validation_failed", "offer_id");
    expectError(await seatMaps(`?offer_id=${wideOffer.id}&cabin=economy`), 400, "validation_failed", "cabin");
    // Any text is an id; a malformed one names nothing.
    for (const id of ["", "x".repeat(100), "off_%00"]) expectError(await seatMaps(`?offer_id=${id}`), 404, "not_found", "offer_id");
    expectError(await seatMaps("?order_id=ord_%00"), 404, "not_found", "order_id");
    expect((await call(server, "GET", `/v1/air/seat_maps?offer_id=${wideOffer.id}`)).status).toBe(401);
  });

  it("by order_id needs orders: read besides search: read, on REST and GraphQL: a key without it is refused alike for its tenant's order and an unknown one", async () => {
    const issueKey = async (permissions: Record<string, string>): Promise<string> => {
      const issued = await call(server, "POST", `/v1/tenants/${alice.tenantId}/keys`, { key: server.ownerKey, body: { label: "maps", permissions } });
      expect(issued.status, JSON.stringify(issued.body)).toBe(201);
      return issued.body.data.apiKey;
    };
    const [searchOnly, ordersOnly, both] = await Promise.all([issueKey({ search: "read" }), issueKey({ orders: "read" }), issueKey({ search: "read", orders: "read" })]);
    const order = await bookOffer(server, alice.key, await directOffer(server, alice.key, { origin: "LHR", destination: "FRA" }, false));

    const refused = await seatMaps(`?order_id=${order.id}`, searchOnly);
    expectError(refused, 403, "insufficient_permissions");
    expect(refused.body.requiredPermission).toEqual({ resource: "orders", level: "read" });
    expectSameAnswer(refused, await seatMaps("?order_id=ord_00000000000000000000000000", searchOnly));
    const query = "query ($orderId: ID) { seatMaps(orderId: $orderId) { id } }";
    const refusedGraphQL = await graphql(server, query, { orderId: order.id }, { key: searchOnly });
    expectGraphQLError(refusedGraphQL, "insufficient_permissions");
    expect(refusedGraphQL.body.errors![0]!.extensions.requiredPermission).toEqual({ resource: "orders", level: "read" });
    expect(refusedGraphQL.body.data).toEqual({ seatMaps: null });

    // The map shows the flights' seats: search: read stays needed.
    const withoutSearch = await seatMaps(`?order_id=${order.id}`, ordersOnly);
    expectError(withoutSearch, 403, "insufficient_permissions");
    expect(withoutSearch.body.requiredPermission).toEqual({ resource: "search", level: "read" });

    expect((await seatMaps(`?order_id=${order.id}`, both)).status).toBe(200);
    const allowed = await graphql(server, query, { orderId: order.id }, { key: both });
    expect(allowed.body.errors).toBeUndefined();
    expect(allowed.body.data!.seatMaps.length).toBeGreaterThan(0);
    // An offer's maps need search: read alone.
    expect((await seatMaps(`?offer_id=${wideOffer.id}`, searchOnly)).status).toBe(200);
    expect((await graphql(server, "query ($offerId: ID) { seatMaps(offerId: $offerId) { id } }", { offerId: wideOffer.id }, { key: searchOnly })).body.errors).toBeUndefined();
  });

  describe("GraphQL seatMaps", () => {
    const SEAT_MAPS = `query SeatMaps($offerId: ID, $orderId: ID) { seatMaps(offerId: $offerId, orderId: $orderId) {
      id segmentId sliceId
      cabins { cabinClass deck aisles wings { firstRowIndex lastRowIndex }
        rows { sections { elements { type designator name disclosures availableServices { id passengerId totalAmount totalCurrency } } } } } } }`;

    const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
    /** A GraphQL answer in REST's names: snake_case keys, lower-case enums, a facility's null seat fields left out. */
    function asRest(value: any, key = ""): any {
      if (Array.isArray(value)) return value.map((item) => asRest(item));
      if (value === null || typeof value !== "object") return (key === "type" || key === "cabinClass") && typeof value === "string" ? value.toLowerCase() : value;
      return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null || !("type" in value)).map(([k, v]) => [snake(k), asRest(v, k)]));
    }

    it("answers what REST answers, for an offer and for an order", async () => {
      const response = await graphql(server, SEAT_MAPS, { offerId: wideOffer.id }, { key: alice.key });
      expect(response.body.errors, JSON.stringify(response.body.errors)).toBeUndefined();
      expect(asRest(response.body.data.seatMaps)).toEqual(await mapsOf(`?offer_id=${wideOffer.id}`));
      const order = await bookOffer(server, alice.key, await directOffer(server, alice.key, { origin: "LHR", destination: "FRA" }, false));
      const ordered = await graphql(server, SEAT_MAPS, { orderId: order.id }, { key: alice.key });
      expect(ordered.body.errors, JSON.stringify(ordered.body.errors)).toBeUndefined();
      expect(asRest(ordered.body.data.seatMaps)).toEqual(await mapsOf(`?order_id=${order.id}`));
    });

    it("refuses neither or both ids naming the argument, and another tenant's offer as not_found", async () => {
      expectGraphQLError(await graphql(server, SEAT_MAPS, {}, { key: alice.key }), "validation_failed", { field: "offerId" });
      expectGraphQLError(await graphql(server, SEAT_MAPS, { offerId: wideOffer.id, orderId: "ord_x" }, { key: alice.key }), "validation_failed", { field: "orderId" });
      expectGraphQLError(await graphql(server, SEAT_MAPS, { offerId: wideOffer.id }, { key: bob.key }), "not_found", { field: "offerId" });
    });
  });
});
