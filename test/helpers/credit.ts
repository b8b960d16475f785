import { expect } from "vitest";
import { call, type Endpoint } from "./client";
import { toMinor } from "./flight-checks";
import { expectError } from "./expect-error";
import { bookOffer, searchForBooking, signedMinor, ticketOrder } from "./orders";

/** A PENDING order and its total in minor units. */
export interface HeldOrder {
  id: string;
  totalMinor: number;
}

/** Books `count` one-passenger orders on separate offers (no two on one search's same offer), each PENDING. */
export async function bookSeparateOrders(api: Endpoint, key: string, count: number): Promise<HeldOrder[]> {
  const held: HeldOrder[] = [];
  for (let days = 20; held.length < count; days++) {
    if (days > 60) throw new Error(`only ${held.length} of ${count} orders could be booked`);
    for (const offer of (await searchForBooking(api, key, { days })).slice(0, 4)) {
      if (held.length === count) break;
      const order = await bookOffer(api, key, offer);
      expect(order.status).toBe("pending");
      held.push({ id: order.id, totalMinor: toMinor(order.total_amount, order.total_currency) });
    }
  }
  return held;
}

/** The wallet's balance and credit limit in minor units (USD). */
export async function walletFigures(api: Endpoint, key: string): Promise<{ balance: number; creditLimit: number }> {
  const wallet = (await call(api, "GET", "/v1/wallet", { key })).body.data;
  return { balance: signedMinor(wallet.balance, wallet.currency), creditLimit: toMinor(wallet.credit_limit, wallet.currency) };
}

/**
 * Tickets every order at once, `via(index)` choosing the server, against a wallet whose balance
 * and credit limit cannot pay them all, and asserts what must hold: each answer is 200 (debited
 * once) or 402 `insufficient_balance` (nothing moved); the balance fell by exactly the accepted
 * totals and stayed at or above −credit_limit; each refused order costs more than what was left.
 */
export async function expectCreditHoldsUnderRace(orders: HeldOrder[], key: string, via: (index: number) => Endpoint): Promise<void> {
  const before = await walletFigures(via(0), key);
  expect(orders.reduce((sum, order) => sum + order.totalMinor, 0), "the orders together exceed balance + credit").toBeGreaterThan(before.balance + before.creditLimit);
  const answers = await Promise.all(orders.map((order, index) => ticketOrder(via(index), key, order.id)));
  for (const answer of answers) {
    if (answer.status === 402) expectError(answer, 402, "insufficient_balance");
    else expect(answer.status, JSON.stringify(answer.body).slice(0, 300)).toBe(200);
  }
  const accepted = orders.filter((_order, index) => answers[index]!.status === 200);
  const refused = orders.filter((_order, index) => answers[index]!.status === 402);
  expect(accepted.length, "some were paid").toBeGreaterThan(0);
  expect(refused.length, "some were refused").toBeGreaterThan(0);
  const after = await walletFigures(via(1), key);
  expect(after.balance).toBe(before.balance - accepted.reduce((sum, order) => sum + order.totalMinor, 0));
  expect(after.balance).toBeGreaterThanOrEqual(-before.creditLimit);
  for (const order of refused) expect(order.totalMinor, `${order.id} was refused though it fitted`).toBeGreaterThan(after.balance + before.creditLimit);
}
