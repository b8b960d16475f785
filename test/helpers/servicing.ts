import { expect } from "vitest";
import { call, type ApiResponse, type Endpoint } from "./client";
import { toMinor } from "./flight-checks";
import { allTransactions, getOrder, signedMinor } from "./orders";

/**
 * The money of an order after ticketing (services, cancellations, changes and airline changes in
 * docs/rest-api.md), as a client reckons it from what the
 * API showed: the refund rule of a cancellation, and the checks that the wallet's ledger explains
 * the balance. Shared by the ledger property test and the races on one order.
 */

/** Lifecycle states (Variant B names) and the moves the state machine allows between two reads (PROCESSING may pass unseen). */
export type OrderState = "PENDING" | "PROCESSING" | "TICKETED" | "FAILED" | "CANCELED" | "REFUNDED";
const NEXT: Record<OrderState, OrderState[]> = {
  PENDING: ["PROCESSING", "CANCELED"],
  PROCESSING: ["TICKETED", "FAILED"],
  TICKETED: ["REFUNDED"],
  FAILED: [],
  CANCELED: [],
  REFUNDED: [],
};

/** Whether the state machine can take an order from `from` to `to` (in any number of its steps, none included). */
export function reachable(from: OrderState, to: OrderState): boolean {
  if (from === to) return true;
  return NEXT[from].some((next) => reachable(next, to));
}

/**
 * What cancelling the order as `view` (its Variant A GET) shows would give back, in minor units of
 * its currency (docs/rest-api.md#cancellations-with-a-quote): a hold nothing; a refundable fare its total less the fare's penalty
 * and less the services paid after ticketing that are still on the order (`paidAfterTicketing`);
 * a non-refundable fare its taxes.
 */
export function expectedRefund(view: any, paidAfterTicketing: number): number {
  if (view.status === "pending") return 0;
  const currency = view.total_currency;
  const condition = view.offer.conditions.refund_before_departure;
  if (!condition.allowed) return toMinor(view.tax_amount, view.tax_currency);
  return Math.max(0, toMinor(view.total_amount, currency) - paidAfterTicketing - toMinor(condition.penalty_amount ?? "0.00", currency));
}

/** GET /v1/air/orders/:id, asserting 200: its Variant A view and its lifecycle state. */
export async function readOrder(api: Endpoint, key: string, orderId: string): Promise<{ view: any; state: OrderState }> {
  const response = await getOrder(api, key, orderId);
  expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
  return { view: response.body.data, state: response.body.order.status };
}

/** A ledger entry as the checks compare them: its type and signed amount in minor units. */
export interface Movement {
  type: string;
  amount: number;
}

const byTypeAndAmount = (a: Movement, b: Movement) => a.type.localeCompare(b.type) || a.amount - b.amount;

/**
 * The wallet and its ledger agree: the balance is the sum of every entry and each entry's
 * `balance_after` the running sum (never below zero), the newest being the balance. Returns the
 * balance (minor units) and the entries.
 */
export async function checkLedger(api: Endpoint, key: string): Promise<{ balance: number; entries: any[] }> {
  const wallet = await call(api, "GET", "/v1/wallet", { key });
  expect(wallet.status).toBe(200);
  const { currency } = wallet.body.data;
  const balance = toMinor(wallet.body.data.balance, currency);
  expect(balance, "the balance is never negative").toBeGreaterThanOrEqual(0);
  const entries = await allTransactions(api, key);
  expect(entries.every((entry) => entry.currency === currency)).toBe(true);
  expect(entries.reduce((sum, entry) => sum + signedMinor(entry.amount, currency), 0), "the ledger sums to the balance").toBe(balance);
  if (entries.length > 0) expect(entries[0].balance_after).toBe(wallet.body.data.balance);
  let running = 0;
  for (const entry of [...entries].reverse()) {
    running += signedMinor(entry.amount, currency);
    expect(signedMinor(entry.balance_after, currency), JSON.stringify(entry)).toBe(running);
    expect(running, "no entry took the balance below zero").toBeGreaterThanOrEqual(0);
  }
  return { balance, entries };
}

/** The order's ledger entries as movements, sorted (so two lists compare whatever their order). */
export function movementsOf(entries: any[], orderId: string): Movement[] {
  return entries
    .filter((entry) => entry.order_id === orderId)
    .map((entry) => ({ type: entry.type, amount: signedMinor(entry.amount, entry.currency) }))
    .sort(byTypeAndAmount);
}

/** `movements` sorted as movementsOf sorts them. */
export function sortedMovements(movements: Movement[]): Movement[] {
  return [...movements].sort(byTypeAndAmount);
}

/** POST /v1/air/order_cancellations for the order. */
export function quoteCancellation(api: Endpoint, key: string, orderId: string): Promise<ApiResponse> {
  return call(api, "POST", "/v1/air/order_cancellations", { key, body: { order_id: orderId } });
}

/** POST /v1/air/order_cancellations/:id/actions/confirm. */
export function confirmCancellation(api: Endpoint, key: string, quoteId: string): Promise<ApiResponse> {
  return call(api, "POST", `/v1/air/order_cancellations/${quoteId}/actions/confirm`, { key });
}

/** The order's cancellation quotes (newest first, one page of up to 100). */
export async function quotesOf(api: Endpoint, key: string, orderId: string): Promise<any[]> {
  const response = await call(api, "GET", `/v1/air/order_cancellations?order_id=${orderId}&limit=100`, { key });
  expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
  return response.body.data.items;
}
