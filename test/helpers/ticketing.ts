import { expect } from "vitest";
import { call, type ApiResponse, type Endpoint } from "./client";
import { eventually } from "./eventually";
import { toMinor } from "./flight-checks";
import { allTransactions, createOrderA, passengersOf, searchForBooking, signedMinor, ticketOrder, walletBalance } from "./orders";

/**
 * Many orders through ticketing at once, and what must hold once the airline has answered them
 * all: each order in the one final state its passengers call for, and a ledger that moved the
 * money exactly once per order. Shared by the suites that crash or double the job worker.
 */

/** A booked order and what the sandbox airline will answer for it. */
export interface BookedOrder {
  id: string;
  /** The order total in minor units of `currency` (the wallet's: both are the tenant's default). */
  totalMinor: number;
  currency: string;
  passengerIds: string[];
  /** A passenger is named `Rejected`: the airline refuses to ticket it. */
  rejected: boolean;
}

/** The sandbox wallet's opening balance, 100000.00 in minor units of `currency`. */
export function openingMinor(currency: string): number {
  return toMinor("100000.00", currency);
}

/**
 * Books `count` PENDING orders, each on a different offer (one or two passengers, over several
 * departure dates), every `rejectEvery`-th with its last passenger named `Rejected`.
 */
export async function bookOrders(api: Endpoint, key: string, count: number, rejectEvery: number): Promise<BookedOrder[]> {
  const booked: BookedOrder[] = [];
  for (let day = 20; booked.length < count; day++) {
    if (day > 60) throw new Error(`only ${booked.length} of ${count} orders could be booked`);
    const passengers: Array<"adult" | "child"> = day % 2 === 0 ? ["adult"] : ["adult", "child"];
    // A few offers per date: different flights, so no flight runs out of seats.
    const offers = (await searchForBooking(api, key, { days: day, passengers })).slice(0, 6);
    for (const offer of offers) {
      if (booked.length === count) break;
      const rejected = (booked.length + 1) % rejectEvery === 0;
      const details = passengersOf(offer);
      if (rejected) details[details.length - 1]!.family_name = "Rejected";
      const response = await createOrderA(api, key, offer, { passengers: details });
      expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(201);
      const order = response.body.data;
      expect(order.status).toBe("pending");
      expect(order.ticketing_status).toBe("not_started");
      booked.push({
        id: order.id,
        totalMinor: toMinor(order.total_amount, order.total_currency),
        currency: order.total_currency,
        passengerIds: order.passengers.map((passenger: { id: string }) => passenger.id),
        rejected,
      });
    }
  }
  expect(new Set(booked.map((order) => order.id)).size).toBe(count);
  expect(booked.some((order) => order.rejected) && booked.some((order) => !order.rejected)).toBe(true);
  return booked;
}

/**
 * Asks to ticket `order` and asserts the answer: accepted, and the order as it stands, in
 * progress with nothing issued yet (or, if a worker was quicker than the answer, already final).
 */
export async function ticketAccepted(api: Endpoint, key: string, order: BookedOrder): Promise<void> {
  const response: ApiResponse = await ticketOrder(api, key, order.id);
  expect(response.status, `${order.id}: ${JSON.stringify(response.body).slice(0, 500)}`).toBe(200);
  const { status, ticketing_status, documents } = response.body.data;
  if (!isFinal(response.body.data)) {
    expect({ status, ticketing_status, documents }, `ticket answer of ${order.id}`).toEqual({ status: "pending", ticketing_status: "in_progress", documents: [] });
  }
}

/** Tickets every order at once, `via(index)` choosing where each request goes; waits for every answer before asserting. */
export async function ticketAll(booked: BookedOrder[], key: string, via: (index: number) => Endpoint): Promise<void> {
  const results = await Promise.allSettled(booked.map((order, index) => ticketAccepted(via(index), key, order)));
  const failures = results.flatMap((result) => (result.status === "rejected" ? [result.reason] : []));
  if (failures.length > 0) throw failures.length === 1 ? failures[0] : new AggregateError(failures, `${failures.length} of ${booked.length} tickets: ${failures.map(String).join("\n")}`);
}

/** Every order of the tenant (Variant A views) by id, walking all pages of the list. */
export async function ordersById(api: Endpoint, key: string): Promise<Map<string, any>> {
  const orders = new Map<string, any>();
  let cursor: string | null = null;
  do {
    const response: ApiResponse = await call(api, "GET", `/v1/air/orders?limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`, { key });
    expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
    for (const order of response.body.data.items) orders.set(order.id, order);
    cursor = response.body.data.pagination.nextCursor;
  } while (cursor);
  return orders;
}

/** The airline has answered: ticketed or failed. */
export function isFinal(order: { ticketing_status: string } | undefined): boolean {
  return order?.ticketing_status === "ticketed" || order?.ticketing_status === "failed";
}

/** The tenant's orders once every one of `booked` is answered; undefined while any is still processing. */
export async function allAnswered(api: Endpoint, key: string, booked: BookedOrder[]): Promise<Map<string, any> | undefined> {
  const orders = await ordersById(api, key);
  return booked.every((order) => isFinal(orders.get(order.id))) ? orders : undefined;
}

/** Polls until every one of `booked` is answered, failing after `deadlineMs` with how many still wait. */
export async function waitUntilAllAnswered(api: Endpoint, key: string, booked: BookedOrder[], deadlineMs = 30_000): Promise<Map<string, any>> {
  let waiting = booked.length;
  return eventually(
    async () => {
      const orders = await ordersById(api, key);
      waiting = booked.filter((order) => !isFinal(orders.get(order.id))).length;
      return waiting === 0 ? orders : undefined;
    },
    () => `${waiting} of ${booked.length} orders still unanswered`,
    deadlineMs,
    50,
  );
}

/**
 * Each order in the final state its passengers call for, exactly once: a `Rejected` passenger's
 * order FAILED (`airline_rejected`, no documents); every other TICKETED with one e-ticket per
 * passenger, all numbers distinct across the orders.
 */
export function expectOutcomes(orders: Map<string, any>, booked: BookedOrder[]): void {
  const ticketNumbers: string[] = [];
  for (const expected of booked) {
    const order = orders.get(expected.id);
    expect(order, `order ${expected.id} is listed`).toBeDefined();
    const label = `order ${expected.id} (${expected.rejected ? "Rejected passenger" : "ticketable"})`;
    if (expected.rejected) {
      expect({ status: order.status, ticketing: order.ticketing_status, reason: order.failure_reason, documents: order.documents }, label).toEqual({
        status: "failed",
        ticketing: "failed",
        reason: "airline_rejected",
        documents: [],
      });
    } else {
      expect({ status: order.status, ticketing: order.ticketing_status, reason: order.failure_reason }, label).toEqual({ status: "confirmed", ticketing: "ticketed", reason: null });
      expect(order.documents, label).toHaveLength(expected.passengerIds.length);
      expect(order.documents.map((document: any) => document.passenger_id).sort(), label).toEqual([...expected.passengerIds].sort());
      for (const document of order.documents) {
        expect(document.type, label).toBe("electronic_ticket");
        expect(document.unique_identifier, label).toMatch(/^\d{13}$/);
        ticketNumbers.push(document.unique_identifier);
      }
    }
  }
  expect(new Set(ticketNumbers).size, "e-ticket numbers are unique").toBe(ticketNumbers.length);
}

/**
 * The wallet moved exactly once per order: besides the opening balance, one `ticketing_debit`
 * of the total per ticketed order, one debit and one `ticketing_reversal` of it per failed
 * order, nothing else; and the balance is the opening less the ticketed totals, to the cent,
 * which is also the sum of the ledger.
 */
export async function expectExactLedger(api: Endpoint, key: string, booked: BookedOrder[]): Promise<void> {
  const currency = booked[0]!.currency;
  const entries = await allTransactions(api, key);
  const opening = entries.filter((entry) => entry.type === "opening_balance");
  expect(opening.map((entry) => [entry.amount, entry.currency, entry.order_id])).toEqual([["100000.00", currency, null]]);

  const byOrder = new Map<string, string[]>();
  for (const entry of entries) {
    if (entry.type === "opening_balance") continue;
    expect(entry.currency).toBe(currency);
    const moves = byOrder.get(entry.order_id) ?? [];
    moves.push(`${entry.type} ${signedMinor(entry.amount, entry.currency)}`);
    byOrder.set(entry.order_id, moves);
  }
  expect([...byOrder.keys()].sort(), "ledger entries belong to the booked orders only").toEqual(booked.map((order) => order.id).sort());
  for (const order of booked) {
    const expected = order.rejected ? [`ticketing_debit ${-order.totalMinor}`, `ticketing_reversal ${order.totalMinor}`] : [`ticketing_debit ${-order.totalMinor}`];
    expect(byOrder.get(order.id)!.sort(), `ledger of order ${order.id}`).toEqual(expected.sort());
  }
  const failed = booked.filter((order) => order.rejected).length;
  expect(entries).toHaveLength(1 + booked.length + failed);

  const ticketedTotal = booked.filter((order) => !order.rejected).reduce((sum, order) => sum + order.totalMinor, 0);
  const wallet = await walletBalance(api, key);
  expect(wallet.currency).toBe(currency);
  expect(wallet.minor).toBe(openingMinor(currency) - ticketedTotal);
  expect(entries.reduce((sum, entry) => sum + signedMinor(entry.amount, entry.currency), 0)).toBe(wallet.minor);
}
