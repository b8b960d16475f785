import { randomUUID } from "node:crypto";
import type { ApiClient, Fixtures } from "./fixtures";

/** City pairs searched for offers to book: many, so that each booked flight is booked once. */
const ROUTES: ReadonlyArray<[string, string]> = [
  ["LON", "NYC"], ["PAR", "NYC"], ["FRA", "NYC"], ["MAD", "NYC"], ["AMS", "NYC"], ["LON", "PAR"], ["LON", "DXB"],
  ["PAR", "DXB"], ["LON", "SIN"], ["LON", "FRA"], ["PAR", "MAD"], ["NYC", "LAX"], ["NYC", "CHI"], ["LON", "ROM"],
];
const FIRST_DAY = 20;
const LAST_DAY = 340;
/** Searches in flight at once while collecting offers. */
const PARALLEL_SEARCHES = 4;

interface BookableOffer {
  id: string;
  total_amount: string;
  total_currency: string;
}

/** One adult with a passport: valid for every route above. */
const PASSENGER = {
  id: "p1",
  title: "ms",
  given_name: "Ada",
  family_name: "Lovelace",
  born_on: "1985-04-12",
  gender: "f",
  email: "ada@bench.example",
  phone_number: "+442080160508",
  identity_documents: [{ type: "passport", number: "P123456789", issuing_country_code: "GB", expires_on: "2040-01-01" }],
};

/** The Variant A order body that books `offer` for its one adult, paying its total. */
export function orderBody(offer: BookableOffer) {
  return { selected_offers: [offer.id], passengers: [PASSENGER], payments: [{ type: "balance", currency: offer.total_currency, amount: offer.total_amount }] };
}

/**
 * Flights some BookableOffers have handed out, and how many searches all of them made, on one
 * server's airline (one database: its seats): every tenant books on the same airline, so two
 * tenants' offers must not share a flight either.
 */
export class FlightRegistry {
  readonly used = new Set<string>();
  searched = 0;
}

/** The registry of the bench server's database. */
const benchServerFlights = new FlightRegistry();

/**
 * Offers to book, each on flights no other offer taken from the same registry (for any tenant)
 * uses. A search for one adult offers only flights with a seat left, so a booking of one of these
 * can never find its flights sold out, however many the bench makes.
 */
export class BookableOffers {
  private readonly ready: BookableOffer[] = [];

  constructor(
    private readonly api: ApiClient,
    private readonly fixtures: Pick<Fixtures, "tenantKey">,
    private readonly flights = benchServerFlights,
  ) {}

  async take(count: number): Promise<BookableOffer[]> {
    while (this.ready.length < count) await Promise.all(Array.from({ length: PARALLEL_SEARCHES }, () => this.searchOnce()));
    return this.ready.splice(0, count);
  }

  private async searchOnce(): Promise<void> {
    const index = this.flights.searched++;
    const [origin, destination] = ROUTES[index % ROUTES.length]!;
    const days = FIRST_DAY + Math.floor(index / ROUTES.length);
    if (days > LAST_DAY) throw new Error("the bench ran out of dates to search for bookable offers");
    const departure = new Date(Date.now() + days * 86_400_000).toISOString().slice(0, 10);
    const found = await this.api.expectOk<{ data: { offers: Array<BookableOffer & { slices: any[] }> } }>("POST", "/v1/air/search", {
      key: this.fixtures.tenantKey,
      body: { slices: [{ origin, destination, departure_date: departure }], passengers: [{ type: "adult", id: "p1" }], cabin_class: "economy", max_connections: 1 },
    });
    for (const offer of found.data.offers) {
      const flights: string[] = offer.slices.flatMap((slice) =>
        slice.segments.map((segment: any) => `${segment.marketing_carrier.iata_code}${segment.marketing_carrier_flight_number}@${segment.departing_at}`),
      );
      if (flights.some((flight) => this.flights.used.has(flight))) continue;
      for (const flight of flights) this.flights.used.add(flight);
      this.ready.push({ id: offer.id, total_amount: offer.total_amount, total_currency: offer.total_currency });
    }
  }
}

/**
 * Order bodies booking each offer with a seat: the first seat its first map sells to p1 (the maps
 * read `parallel` at a time), paying the offer's total plus the seat's price (USD, the bench
 * tenant's currency).
 */
export async function seatedOrderBodies(api: ApiClient, fixtures: Fixtures, offers: BookableOffer[], parallel = 16) {
  type Seat = { available_services?: Array<{ id: string; total_amount: string }> };
  type Maps = { data: Array<{ cabins: Array<{ rows: Array<{ sections: Array<{ elements: Seat[] }> }> }> }> };
  const bodies: Array<ReturnType<typeof orderBody> & { services: Array<{ id: string; quantity: number }> }> = [];
  for (let i = 0; i < offers.length; i += parallel) {
    const batch = offers.slice(i, i + parallel);
    const maps = await Promise.all(batch.map((offer) => api.expectOk<Maps>("GET", `/v1/air/seat_maps?offer_id=${offer.id}`, { key: fixtures.tenantKey })));
    batch.forEach((offer, index) => {
      const elements = maps[index]!.data[0]!.cabins.flatMap((cabin) => cabin.rows.flatMap((row) => row.sections.flatMap((section) => section.elements)));
      const service = elements.find((element) => (element.available_services?.length ?? 0) > 0)?.available_services![0];
      if (!service) throw new Error(`no seat for sale on ${offer.id}'s first segment`);
      const total = ((Math.round(Number(offer.total_amount) * 100) + Math.round(Number(service.total_amount) * 100)) / 100).toFixed(2);
      bodies.push({ ...orderBody({ ...offer, total_amount: total }), services: [{ id: service.id, quantity: 1 }] });
    });
  }
  return bodies;
}

/** Headers of a tenant request with a fresh Idempotency-Key. */
export function withFreshKey(fixtures: Fixtures): Record<string, string> {
  return { authorization: `Bearer ${fixtures.tenantKey}`, "idempotency-key": randomUUID() };
}

/** Books `offers` through the API, `parallel` at a time; returns the order ids. */
export async function bookAll(api: ApiClient, fixtures: Fixtures, offers: BookableOffer[], parallel = 16): Promise<string[]> {
  const ids: string[] = [];
  for (let i = 0; i < offers.length; i += parallel) {
    const batch = await Promise.all(
      offers.slice(i, i + parallel).map((offer) => api.expectOk<{ data: { id: string } }>("POST", "/v1/air/orders", { headers: withFreshKey(fixtures), body: orderBody(offer) })),
    );
    ids.push(...batch.map((created) => created.data.id));
  }
  return ids;
}

/** Keeps the bench tenant's wallet able to pay for `orders` more tickets (owner credit). */
export async function fundTickets(api: ApiClient, fixtures: Fixtures, orders: number): Promise<void> {
  await api.expectOk("POST", `/v1/tenants/${fixtures.tenant.id}/wallet/credits`, {
    key: fixtures.ownerKey,
    body: { amount: `${orders * 10_000}.00`, currency: "USD", reference: "bench" },
  });
}

/** Waits until no order of the bench tenant is PROCESSING (every ticketing job has run). */
export async function allTicketed(api: ApiClient, fixtures: Fixtures, deadlineMs = 120_000): Promise<void> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    const processing = await api.expectOk<{ data: { pagination: { total: number } } }>("GET", "/v1/air/orders?status=PROCESSING&limit=1", { key: fixtures.tenantKey });
    if (processing.data.pagination.total === 0) return;
    if (Date.now() > deadline) throw new Error(`${processing.data.pagination.total} orders still PROCESSING after ${deadlineMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
