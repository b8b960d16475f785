import { expect } from "vitest";
import { call, type ApiResponse, type Endpoint } from "./client";
import { eventually } from "./eventually";
import { toMinor } from "./flight-checks";
import { daysAhead } from "./offers";

/** A search to book from: LHR → JFK (international) by default. */
export interface SearchOptions {
  origin?: string;
  destination?: string;
  /** Days ahead; by default each search takes the next date, so tests do not share flights' seats. */
  days?: number;
  cabin?: "economy" | "premium_economy" | "business" | "first";
  /** Passenger types, ids p1, p2, … in order. */
  passengers?: Array<"adult" | "child" | "infant_without_seat">;
  headers?: Record<string, string>;
  /** Every offer of the search, flights booked before included (default: only fresh flights). */
  reuseFlights?: boolean;
  /** How many offers on fresh flights the test needs (default 1): a day with fewer is passed over. */
  atLeast?: number;
}

let searchDay = 20 + (process.pid % 40);
/** A date for the next search: bookings of different tests land on different flights. */
function nextSearchDay(): number {
  searchDay = searchDay >= 330 ? 20 : searchDay + 1;
  return searchDay;
}

/**
 * Runs a Variant A search and returns its offers (with their passengers' ids) on flights no
 * earlier booking search of this process was given (freshFlights), searching the next date when
 * a date has none left; `reuseFlights` returns every offer (to book one flight many times).
 */
export async function searchForBooking(server: Endpoint, key: string, options: SearchOptions = {}): Promise<any[]> {
  let days = options.days ?? nextSearchDay();
  for (let attempt = 0; attempt < 20; attempt++) {
    const offers = await searchOnce(server, key, { ...options, days });
    if (options.reuseFlights) return offers;
    const fresh = freshFlights(offers, flightsOfOffer);
    if (fresh.length >= (options.atLeast ?? 1)) return fresh;
    days = options.days === undefined ? nextSearchDay() : days + 1;
  }
  throw new Error(`no offer on a flight not booked before (${JSON.stringify(options)})`);
}

async function searchOnce(server: Endpoint, key: string, options: SearchOptions & { days: number }): Promise<any[]> {
  const types = options.passengers ?? ["adult"];
  const response = await call(server, "POST", "/v1/air/search", {
    key,
    headers: options.headers,
    body: {
      slices: [{ origin: options.origin ?? "LHR", destination: options.destination ?? "JFK", departure_date: daysAhead(options.days) }],
      passengers: types.map((type, index) => ({ type, id: `p${index + 1}` })),
      cabin_class: options.cabin ?? "economy",
    },
  });
  expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
  const offers = response.body.data.offers as any[];
  expect(offers.length).toBeGreaterThan(0);
  return offers;
}

/** A flight as a client identifies it: carrier, flight number and local departure. */
export interface FlightIdentity {
  carrier: string;
  number: string;
  departingAt: string;
}

/** The flights of a REST offer (Variant A names). */
export function flightsOfOffer(offer: any): FlightIdentity[] {
  return offer.slices.flatMap((slice: any) =>
    slice.segments.map((segment: any) => ({ carrier: segment.marketing_carrier.iata_code, number: segment.marketing_carrier_flight_number, departingAt: segment.departing_at })),
  );
}

const flightName = (flight: FlightIdentity) => `${flight.carrier}${flight.number}@${flight.departingAt}`;

/** Flights of the offers this test process has handed out to be booked. */
const flightsHandedOut = new Set<string>();

/**
 * The offers sharing no flight with an offer handed out before (in this list or by an earlier
 * call in this test process), now marked as handed out. The airline keeps some flights nearly
 * full (one or two seats left), and search shows seats left, not the seats of bookings made
 * after it: so a test books offers on flights no other booking of the suite touches, on any date.
 */
export function freshFlights<T>(offers: T[], flightsOf: (offer: T) => FlightIdentity[]): T[] {
  return offers.filter((offer) => {
    const flights = flightsOf(offer).map(flightName);
    if (flights.some((flight) => flightsHandedOut.has(flight))) return false;
    for (const flight of flights) flightsHandedOut.add(flight);
    return true;
  });
}

/**
 * Birth dates that make each passenger type valid for travel on any date on sale (up to 361
 * days ahead): the infant is two months old today, so still under 2 on the last date on sale.
 */
const BORN_ON = {
  adult: "1985-04-12",
  child: `${new Date().getUTCFullYear() - 7}-06-01`,
  infant_without_seat: new Date(Date.now() - 60 * 86_400_000).toISOString().slice(0, 10),
} as const;

/** A valid passenger for an order, as REST sends it (docs/rest-api.md#booking-and-ticketing), with a passport. */
export function passengerFor(id: string, type: keyof typeof BORN_ON = "adult", overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    id,
    title: "ms",
    given_name: "Ada",
    family_name: `Lovelace`,
    born_on: BORN_ON[type],
    gender: "f",
    email: `${id}@travel.example`,
    phone_number: "+442080160508",
    identity_documents: [{ type: "passport", number: `P${id.replace(/\W/g, "").toUpperCase()}12345`, issuing_country_code: "GB", expires_on: "2036-01-01" }],
    ...overrides,
  };
}

/** Valid passengers for every passenger of an offer. */
export function passengersOf(offer: any, overrides: Record<string, unknown> = {}): Array<Record<string, unknown>> {
  return offer.passengers.map((passenger: { id: string; type: keyof typeof BORN_ON }) => passengerFor(passenger.id, passenger.type, overrides));
}

let keyCounter = 0;
/** A fresh idempotency key. */
export function newKey(label = "k"): string {
  keyCounter += 1;
  return `${label}-${process.pid}-${Date.now()}-${keyCounter}`;
}

/** POST /v1/air/orders in Variant A for `offer`, paying its total. */
export function createOrderA(server: Endpoint, key: string, offer: any, options: { idempotencyKey?: string; passengers?: unknown[]; headers?: Record<string, string>; body?: Record<string, unknown> } = {}): Promise<ApiResponse> {
  return call(server, "POST", "/v1/air/orders", {
    key,
    headers: { "idempotency-key": options.idempotencyKey ?? newKey("order"), ...options.headers },
    body: {
      selected_offers: [offer.id],
      passengers: options.passengers ?? passengersOf(offer),
      payments: [{ type: "balance", currency: offer.total_currency, amount: offer.total_amount }],
      ...options.body,
    },
  });
}

/** Books `offer` and returns the created Variant A order (asserting 201). */
export async function bookOffer(server: Endpoint, key: string, offer: any, options: Parameters<typeof createOrderA>[3] = {}): Promise<any> {
  const response = await createOrderA(server, key, offer, options);
  expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(201);
  return response.body.data;
}

/** POST /v1/air/orders/:id/actions/ticket with a fresh key. */
export function ticketOrder(server: Endpoint, key: string, orderId: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return call(server, "POST", `/v1/air/orders/${orderId}/actions/ticket`, { key, headers: { "idempotency-key": newKey("ticket"), ...headers } });
}

/** GET /v1/air/orders/:id. */
export function getOrder(server: Endpoint, key: string, orderId: string, headers: Record<string, string> = {}): Promise<ApiResponse> {
  return call(server, "GET", `/v1/air/orders/${orderId}`, { key, headers });
}

/**
 * Polls the order until its lifecycle status is one of `statuses` (Variant B names), failing
 * after `deadlineMs`. Returns the last GET answer.
 */
export async function waitForStatus(server: Endpoint, key: string, orderId: string, statuses: string[], deadlineMs = 15_000): Promise<ApiResponse> {
  let last: ApiResponse | undefined;
  return eventually(
    async () => {
      last = await getOrder(server, key, orderId);
      expect(last.status, JSON.stringify(last.body).slice(0, 300)).toBe(200);
      return statuses.includes(last.body.order.status) ? last : undefined;
    },
    () => `order ${orderId} still ${last?.body.order.status} (waiting for ${statuses.join("/")})`,
    deadlineMs,
  );
}

/** The wallet's balance as integer minor units, with its currency. */
export async function walletBalance(server: Endpoint, key: string): Promise<{ minor: number; currency: string; balance: string }> {
  const response = await call(server, "GET", "/v1/wallet", { key });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  const { balance, currency } = response.body.data;
  return { minor: toMinor(balance, currency), currency, balance };
}

/** Every ledger entry of the tenant, walking all pages. */
export async function allTransactions(server: Endpoint, key: string): Promise<any[]> {
  const entries: any[] = [];
  let cursor: string | null = null;
  do {
    const response: ApiResponse = await call(server, "GET", `/v1/wallet/transactions?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    entries.push(...response.body.data.items);
    cursor = response.body.data.pagination.nextCursor;
  } while (cursor);
  return entries;
}

/** A signed decimal amount of the API (ledger entries) as integer minor units of `currency`. */
export function signedMinor(amount: string, currency: string): number {
  return amount.startsWith("-") ? -toMinor(amount.slice(1), currency) : toMinor(amount, currency);
}
