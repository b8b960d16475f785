import { expect } from "vitest";
import { call, type ApiResponse, type Endpoint } from "./client";
import { eventually } from "./eventually";
import { toMinor } from "./flight-checks";
import { daysAhead } from "./offers";
import { allTransactions, flightsOfOffer, freshFlights, newKey, passengersOf, signedMinor, walletBalance } from "./orders";
import { openingMinor } from "./ticketing";

/**
 * Clients that keep booking, ticketing and cancelling while the database goes away and comes
 * back, as a careful client would: every request that may change something carries an
 * Idempotency-Key, and an answer that says "not now" (503, 507, 409 in progress) is retried with
 * the same key until it says something else. Every answer is recorded for the suite to check.
 */

/** One answer a journey got. */
export interface Answer {
  at: number;
  route: string;
  status: number;
  code: string | undefined;
  retryAfter: string | null;
}

/** What a journey does with its order after booking it. */
export type JourneyKind = "ticket" | "cancel_hold" | "refund";

/** What a journey did, as the client knows it. */
export interface Journey {
  kind: JourneyKind;
  /** The order booked; null when the booking's retry found the offer booked (its first attempt committed unseen). */
  orderId: string | null;
  /** The state the order must end in (Variant B names). */
  goal: "TICKETED" | "CANCELED" | "REFUNDED";
  /** The refund the confirmed quote gave (refund journeys), in minor units. */
  refundMinor?: number;
}

/** Answers that mean "not now": retry the same request (same key) later. */
function isRefusalForNow(response: ApiResponse): boolean {
  return response.status === 503 || response.status === 507 || (response.status === 409 && response.body?.errors?.[0]?.code === "idempotency_request_in_progress");
}

/** A pause between retries: short, so the suite sees the database's return at once. */
const RETRY_PAUSE_MS = 50;
/** How long one request may keep being refused before the journey gives up (the outage is shorter). */
const RETRY_DEADLINE_MS = 60_000;

export class OutageClient {
  readonly answers: Answer[] = [];

  constructor(
    private readonly api: Endpoint,
    private readonly key: string,
  ) {}

  /** Sends `request` until its answer is not a refusal for now, recording every answer. */
  async settled(route: string, send: () => Promise<ApiResponse>): Promise<ApiResponse> {
    const deadline = Date.now() + RETRY_DEADLINE_MS;
    for (;;) {
      const response = await send();
      this.answers.push({ at: Date.now(), route, status: response.status, code: response.body?.errors?.[0]?.code, retryAfter: response.headers.get("retry-after") });
      if (!isRefusalForNow(response)) return response;
      if (Date.now() > deadline) throw new Error(`${route} still refused after ${RETRY_DEADLINE_MS} ms: ${JSON.stringify(response.body).slice(0, 300)}`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }

  /** A POST with an Idempotency-Key kept across its retries. */
  private post(route: string, path: string, body?: unknown): Promise<ApiResponse> {
    const idempotencyKey = newKey("outage");
    return this.settled(route, () => call(this.api, "POST", path, { key: this.key, headers: { "idempotency-key": idempotencyKey }, body }));
  }

  private async expectStatus(response: ApiResponse, expected: number[], what: string): Promise<ApiResponse> {
    if (!expected.includes(response.status)) throw new Error(`${what}: ${response.status} ${JSON.stringify(response.body).slice(0, 500)}`);
    return response;
  }

  /** An offer on a flight no other booking of this process took, `day` days ahead. */
  private async offer(day: number, cabin: "economy" | "business"): Promise<any> {
    for (let date = day; date < day + 30; date++) {
      const search = await this.settled("search", () =>
        call(this.api, "POST", "/v1/air/search", {
          key: this.key,
          body: { slices: [{ origin: "LHR", destination: "JFK", departure_date: daysAhead(date) }], passengers: [{ type: "adult", id: "p1" }], cabin_class: cabin },
        }),
      );
      await this.expectStatus(search, [200], "search");
      const [fresh] = freshFlights(search.body.data.offers as any[], flightsOfOffer);
      if (fresh) return fresh;
    }
    throw new Error(`no fresh offer from ${day} days ahead`);
  }

  /** The order's Variant B status, read until the read is answered. */
  async status(orderId: string): Promise<string> {
    const response = await this.settled("order", () => call(this.api, "GET", `/v1/air/orders/${orderId}`, { key: this.key }));
    await this.expectStatus(response, [200], `order ${orderId}`);
    return response.body.order.status;
  }

  /** Search, book, then ticket, cancel the hold, or ticket and cancel with a refund. */
  async journey(kind: JourneyKind, day: number): Promise<Journey> {
    const goal = ({ ticket: "TICKETED", cancel_hold: "CANCELED", refund: "REFUNDED" } as const)[kind];
    const offer = await this.offer(day, kind === "refund" ? "business" : "economy");
    const booked = await this.post("book", "/v1/air/orders", {
      selected_offers: [offer.id],
      passengers: passengersOf(offer),
      payments: [{ type: "balance", currency: offer.total_currency, amount: offer.total_amount }],
    });
    // The booking's first attempt may have committed while its answer was lost: the retry then finds the offer taken.
    if (booked.status === 422 && booked.body.errors[0].code === "offer_no_longer_available") return { kind, orderId: null, goal };
    await this.expectStatus(booked, [201], "booking");
    const orderId: string = booked.body.data.id;
    if (kind === "cancel_hold") {
      await this.cancel(orderId);
      return { kind, orderId, goal };
    }
    // 409 order_state_conflict: an earlier attempt of this ticketing committed unseen.
    await this.expectStatus(await this.post("ticket", `/v1/air/orders/${orderId}/actions/ticket`), [200, 409], "ticketing");
    if (kind === "ticket") return { kind, orderId, goal };
    await this.until(orderId, "TICKETED");
    const refund = await this.cancel(orderId);
    return { kind, orderId, goal, refundMinor: toMinor(refund.refund_amount, refund.refund_currency) };
  }

  /** Quotes the order's cancellation and confirms it; the confirmed quote. */
  private async cancel(orderId: string): Promise<any> {
    const quote = await this.expectStatus(await this.post("quote", "/v1/air/order_cancellations", { order_id: orderId }), [201], "cancellation quote");
    const confirmed = await this.post("confirm", `/v1/air/order_cancellations/${quote.body.data.id}/actions/confirm`);
    return (await this.expectStatus(confirmed, [200], "cancellation confirmation")).body.data;
  }

  private async until(orderId: string, status: string): Promise<void> {
    const deadline = Date.now() + RETRY_DEADLINE_MS;
    while ((await this.status(orderId)) !== status) {
      if (Date.now() > deadline) throw new Error(`order ${orderId} not ${status} after ${RETRY_DEADLINE_MS} ms`);
      await new Promise((resolve) => setTimeout(resolve, RETRY_PAUSE_MS));
    }
  }
}

/** The ledger entries an order in `status` has, as `type amount` (minor units, signed), given its total and refund. */
export function ledgerFor(status: string, totalMinor: number, refundMinor: number): string[] {
  switch (status) {
    case "TICKETED":
      return [`ticketing_debit ${-totalMinor}`];
    case "REFUNDED":
      return [`refund_credit ${refundMinor}`, `ticketing_debit ${-totalMinor}`].filter((entry) => !entry.startsWith("refund_credit 0"));
    case "FAILED":
      return [`ticketing_debit ${-totalMinor}`, `ticketing_reversal ${totalMinor}`].sort();
    default:
      return [];
  }
}

/** Ledger entries per order, as `type amount` (sorted), from the tenant's entries. */
export function ledgerByOrder(entries: Array<{ type: string; amount: string; currency: string; order_id: string | null }>): Map<string, string[]> {
  const byOrder = new Map<string, string[]>();
  for (const entry of entries) {
    if (entry.order_id === null) continue;
    byOrder.set(entry.order_id, [...(byOrder.get(entry.order_id) ?? []), `${entry.type} ${signedMinor(entry.amount, entry.currency)}`].sort());
  }
  return byOrder;
}

/**
 * After journeys through a fault: waits until every order of the tenant is in the state its
 * client asked for (an order no client saw booked stays PENDING), then checks that each order
 * has exactly the ledger entries its state calls for and that the wallet's balance is their sum.
 */
export async function expectJourneysSettled(api: Endpoint, key: string, journeys: Journey[]): Promise<void> {
  const goals = new Map(journeys.flatMap((journey) => (journey.orderId ? [[journey.orderId, journey] as const] : [])));
  const statuses = await eventually(
    async () => {
      const listed = (await call(api, "GET", "/v1/air/orders?limit=100", { key })).body.data.items as Array<{ id: string }>;
      const read = await Promise.all(listed.map(async ({ id }) => [id, (await call(api, "GET", `/v1/air/orders/${id}`, { key })).body] as const));
      const settled = read.every(([id, order]) => (goals.get(id)?.goal ?? "PENDING") === order.order.status);
      return settled ? new Map(read) : undefined;
    },
    () => "orders still on their way to their clients' goals",
    60_000,
    200,
  );
  expect(goals.size, "most bookings were seen by their clients").toBeGreaterThanOrEqual(journeys.length - 1);
  for (const id of goals.keys()) expect(statuses.has(id), id).toBe(true);

  const entries = await allTransactions(api, key);
  const ledgers = ledgerByOrder(entries);
  for (const [id, order] of statuses) {
    const totalMinor = toMinor(order.data.total_amount, order.data.total_currency);
    expect(ledgers.get(id) ?? [], `ledger of ${id} (${order.order.status})`).toEqual(ledgerFor(order.order.status, totalMinor, goals.get(id)?.refundMinor ?? 0));
  }
  const wallet = await walletBalance(api, key);
  const sum = entries.reduce((total, entry) => total + (entry.type === "opening_balance" ? 0 : signedMinor(entry.amount, entry.currency)), openingMinor(wallet.currency));
  expect(wallet.minor).toBe(sum);
}
