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
}

let searchDay = 20 + (process.pid % 40);
/** A date for the next search: bookings of different tests land on different flights. */
function nextSearchDay(): number {
  searchDay = searchDay >= 330 ? 20 : searchDay + 1;
  return searchDay;
}

/** Runs a Variant A search and returns its offers (with their passengers' ids). */
export async function searchForBooking(server: Endpoint, key: string, options: SearchOptions = {}): Promise<any[]> {
  const types = options.passengers ?? ["adult"];
  const response = await call(server, "POST", "/v1/air/search", {
    key,
    headers: options.headers,
    body: {
      slices: [{ origin: options.origin ?? "LHR", destination: options.destination ?? "JFK", departure_date: daysAhead(options.days ?? nextSearchDay()) }],
      passengers: types.map((type, index) => ({ type, id: `p${index + 1}` })),
      cabin_class: options.cabin ?? "economy",
    },
  });
  expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
  const offers = response.body.data.offers as any[];
  expect(offers.length).toBeGreaterThan(0);
  return offers;
}

/**
 * The offers sharing no flight with an earlier one in the list: several of them can be booked
 * without one booking's seats selling out another's flight (search shows seats left, not seats
 * held by bookings made after it).
 */
export function withDistinctFlights(offers: any[]): any[] {
  const used = new Set<string>();
  return offers.filter((offer) => {
    const flights: string[] = offer.slices.flatMap((slice: any) =>
      slice.segments.map((segment: any) => `${segment.marketing_carrier.iata_code}${segment.marketing_carrier_flight_number}@${segment.departing_at}`),
    );
    if (flights.some((flight) => used.has(flight))) return false;
    for (const flight of flights) used.add(flight);
    return true;
  });
}

/** Birth dates that make each passenger type valid for travel a month from now. */
const BORN_ON = { adult: "1985-04-12", child: `${new Date().getUTCFullYear() - 7}-06-01`, infant_without_seat: `${new Date().getUTCFullYear() - 1}-01-15` } as const;

/** A valid passenger for an order, as REST sends it (interface §2.7), with a passport. */
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
