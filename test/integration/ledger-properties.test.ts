import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { allTransactions, createOrderA, getOrder, passengersOf, searchForBooking, signedMinor, ticketOrder, waitForStatus } from "../helpers/orders";
import { creditWallet, getWallet } from "../helpers/wallet";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Property-based, through the HTTP API: random sequences of wallet operations on a fresh
 * tenant (sandbox or live) keep the wallet and its ledger consistent (docs/rest-api.md#wallet):
 * - the balance is the sum of the ledger's amounts, and each entry's balance_after is the
 *   running sum, so the newest one is the balance; it is never negative;
 * - the balance equals a model the test keeps from what it did and the prices it saw:
 *   opening + credits − ticketed totals + reversed totals + refunds (total − penalty);
 * - booking or ticketing an order the wallet cannot cover is refused with 402
 *   insufficient_balance exactly when the model says so, and moves no money;
 * - every ticketed order has exactly one ticketing_debit, a rejected one (sandbox passenger
 *   "Rejected") exactly one ticketing_reversal of the same amount, a refunded one exactly one
 *   refund_credit; an order that was never ticketed has no entry.
 */

/** Random runs, on top of the EXAMPLES below. */
const NUM_RUNS = 50;
const MAX_STEPS = 10;

type Cabin = "economy" | "business";
/** `pick` (0–99) chooses among the offers sorted by price, cheapest first (99: the dearest). */
interface Booking {
  cabin: Cabin;
  adults: number;
  days: number;
  pick: number;
  /** Top the wallet up first (an owner credit of exactly what is missing) so the booking is covered. */
  fund: boolean;
}
type Step =
  | { kind: "credit"; cents: number }
  | ({ kind: "ticket"; rejected: boolean } & Booking)
  | ({ kind: "hold" } & Booking)
  | { kind: "ticketHeld"; pick: number }
  | { kind: "refund"; pick: number };
interface Run {
  environment: "sandbox" | "live";
  steps: Step[];
}

const booking = fc.record({
  cabin: fc.constantFrom<Cabin>("economy", "business"),
  adults: fc.integer({ min: 1, max: 2 }),
  days: fc.integer({ min: 14, max: 120 }),
  pick: fc.integer({ min: 0, max: 99 }),
  fund: fc.boolean(),
});
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("credit" as const), cents: fc.integer({ min: 1, max: 300_000 }) }) },
  { weight: 3, arbitrary: fc.tuple(booking, fc.boolean()).map(([b, rejected]) => ({ kind: "ticket" as const, rejected, ...b })) },
  { weight: 2, arbitrary: booking.map((b) => ({ kind: "hold" as const, ...b })) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("ticketHeld" as const), pick: fc.integer({ min: 0, max: 99 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("refund" as const), pick: fc.integer({ min: 0, max: 99 }) }) },
);
const runArbitrary: fc.Arbitrary<Run> = fc.record({
  environment: fc.constantFrom<Run["environment"]>("sandbox", "live"),
  steps: fc.array(stepArbitrary, { minLength: 1, maxLength: MAX_STEPS }),
});

/**
 * Runs every random run starts with, so each outcome happens whatever the prices: a live wallet
 * funded for exactly its dearer held order cannot ticket the cheaper one after it, nor book
 * another (402); a
 * sandbox rejection, a refund and a refused refund of a non-refundable fare.
 */
const EXAMPLES: Run[] = [
  {
    environment: "live",
    steps: [
      { kind: "hold", cabin: "economy", adults: 1, days: 40, pick: 99, fund: true },
      { kind: "hold", cabin: "economy", adults: 1, days: 40, pick: 0, fund: false },
      { kind: "ticketHeld", pick: 0 },
      { kind: "ticketHeld", pick: 0 },
      { kind: "hold", cabin: "economy", adults: 1, days: 41, pick: 0, fund: false },
      { kind: "credit", cents: 12_345 },
    ],
  },
  {
    environment: "sandbox",
    steps: [
      { kind: "ticket", rejected: true, cabin: "economy", adults: 1, days: 45, pick: 10, fund: false },
      { kind: "ticket", rejected: false, cabin: "business", adults: 2, days: 45, pick: 50, fund: false },
      { kind: "ticket", rejected: false, cabin: "economy", adults: 1, days: 45, pick: 90, fund: false },
      { kind: "refund", pick: 0 },
      { kind: "refund", pick: 0 },
    ],
  },
];

type OrderState = "PENDING" | "TICKETED" | "FAILED" | "REFUNDED" | "CANCELED";
interface TrackedOrder {
  id: string;
  total: number;
  /** The refund penalty, null when the fare is not refundable. */
  penalty: number | null;
  state: OrderState;
}

const asDecimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
const choose = <T>(items: T[], pick: number): T => items[Math.floor((pick / 100) * items.length)]!;

describe("ledger properties", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0" } });
  });
  afterAll(() => server.close());

  /** Outcomes seen over all runs, to show the examples did reach every branch. */
  const seen = { bookingRefused: 0, ticketingRefused: 0, ticketed: 0, rejected: 0, refunded: 0, refundRefused: 0 };

  /** One run: the operations against the server, then the invariants against the model. */
  async function check(run: Run): Promise<void> {
    const tenant: TenantFixture = await createTenant(server, { environment: run.environment });
    const model = { balance: run.environment === "sandbox" ? 10_000_000 : 0, credits: 0 };
    const orders: TrackedOrder[] = [];

    const creditCents = async (cents: number) => {
      const response = await creditWallet(server, tenant.tenantId, { amount: asDecimal(cents), currency: "USD" });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      model.balance += cents;
      model.credits += 1;
      expect(toMinor(response.body.data.wallet.balance, "USD")).toBe(model.balance);
    };

    /** Searches, picks an offer, funds the wallet if asked, books: the order, or null after the expected 402. */
    const book = async (step: Booking, familyName?: string): Promise<TrackedOrder | null> => {
      const offers = await searchForBooking(server, tenant.key, { cabin: step.cabin, passengers: Array(step.adults).fill("adult"), days: step.days, reuseFlights: true });
      const sorted = [...offers].sort((a, b) => toMinor(a.total_amount, "USD") - toMinor(b.total_amount, "USD"));
      // Search does not subtract seats held by earlier runs' orders (booking is the authority),
      // so a flight may be sold out: then the next offer is booked, as a client would.
      const first = sorted.indexOf(choose(sorted, step.pick));
      let offer = sorted[first]!;
      let response;
      for (let attempt = 1; ; attempt++) {
        expect(offer.total_currency).toBe("USD");
        const total = toMinor(offer.total_amount, "USD");
        if (step.fund && model.balance < total) await creditCents(total - model.balance);
        response = await createOrderA(server, tenant.key, offer, familyName ? { passengers: passengersOf(offer, { family_name: familyName }) } : {});
        if (!(response.status === 422 && response.body.errors?.[0]?.code === "offer_no_longer_available" && attempt < sorted.length)) break;
        offer = sorted[(first + attempt) % sorted.length]!;
      }
      const total = toMinor(offer.total_amount, "USD");
      if (model.balance < total) {
        expectError(response, 402, "insufficient_balance");
        seen.bookingRefused++;
        return null;
      }
      expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(201);
      expect(response.body.data.total_amount).toBe(offer.total_amount);
      const condition = offer.conditions.refund_before_departure;
      const order: TrackedOrder = { id: response.body.data.id, total, penalty: condition.allowed ? toMinor(condition.penalty_amount ?? "0.00", "USD") : null, state: "PENDING" };
      orders.push(order);
      return order;
    };

    /** Tickets a pending order: 402 when the model says the wallet cannot cover it, else the airline's outcome. */
    const ticket = async (order: TrackedOrder, expected: "TICKETED" | "FAILED") => {
      const response = await ticketOrder(server, tenant.key, order.id);
      if (model.balance < order.total) {
        expectError(response, 402, "insufficient_balance");
        expect((await getOrder(server, tenant.key, order.id)).body.order.status).toBe("PENDING");
        seen.ticketingRefused++;
        return;
      }
      expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(200);
      model.balance -= order.total;
      const settled = await waitForStatus(server, tenant.key, order.id, ["TICKETED", "FAILED"]);
      order.state = settled.body.order.status;
      expect(order.state).toBe(expected);
      if (expected === "FAILED") {
        expect(settled.body.data.failure_reason).toBe("airline_rejected");
        model.balance += order.total;
        seen.rejected++;
      } else seen.ticketed++;
    };

    for (const step of run.steps) {
      switch (step.kind) {
        case "credit":
          await creditCents(step.cents);
          break;
        case "ticket": {
          const order = await book(step, step.rejected ? "Rejected" : undefined);
          // The sandbox airline rejects a passenger named Rejected; a live booking is not a test.
          if (order) await ticket(order, step.rejected && run.environment === "sandbox" ? "FAILED" : "TICKETED");
          break;
        }
        case "hold":
          await book(step);
          break;
        case "ticketHeld": {
          const pending = orders.filter((order) => order.state === "PENDING");
          if (pending.length > 0) await ticket(choose(pending, step.pick), "TICKETED");
          break;
        }
        case "refund": {
          const ticketed = orders.filter((order) => order.state === "TICKETED");
          const refundable = ticketed.filter((order) => order.penalty !== null);
          if (refundable.length > 0) {
            const order = choose(refundable, step.pick);
            const response = await call(server, "POST", `/v1/air/orders/${order.id}/actions/refund`, { key: tenant.key });
            expect(response.status, JSON.stringify(response.body).slice(0, 500)).toBe(200);
            expect(response.body.data.refund_status).toBe("in_progress");
            await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
            order.state = "REFUNDED";
            model.balance += Math.max(0, order.total - order.penalty!);
            seen.refunded++;
          } else if (ticketed.length > 0) {
            const response = await call(server, "POST", `/v1/air/orders/${choose(ticketed, step.pick).id}/actions/refund`, { key: tenant.key });
            expectError(response, 422, "refund_not_allowed");
            seen.refundRefused++;
          }
          break;
        }
      }
    }
    // Orders still pending are cancelled, so every order is in a final state before the checks.
    for (const order of orders.filter((candidate) => candidate.state === "PENDING")) {
      const response = await call(server, "POST", `/v1/air/orders/${order.id}/actions/cancel`, { key: tenant.key });
      expect(response.status, JSON.stringify(response.body).slice(0, 300)).toBe(200);
      order.state = "CANCELED";
    }

    // The wallet against the model.
    const wallet = await getWallet(server, tenant.key);
    expect(wallet.currency).toBe("USD");
    const balance = toMinor(wallet.balance, "USD");
    expect(balance).toBe(model.balance);
    expect(balance).toBeGreaterThanOrEqual(0);

    // The ledger against the wallet: sums, running balances, newest first.
    const entries = await allTransactions(server, tenant.key);
    expect(entries.every((entry) => entry.currency === "USD")).toBe(true);
    expect(entries.reduce((sum, entry) => sum + signedMinor(entry.amount, "USD"), 0)).toBe(balance);
    if (entries.length > 0) expect(entries[0].balance_after).toBe(wallet.balance);
    let running = 0;
    for (const entry of [...entries].reverse()) {
      running += signedMinor(entry.amount, "USD");
      expect(signedMinor(entry.balance_after, "USD"), JSON.stringify(entry)).toBe(running);
      expect(running).toBeGreaterThanOrEqual(0);
    }

    // Entries without an order: the opening balance (sandbox only) and the owner's credits.
    const unattached = entries.filter((entry) => entry.order_id === null).map((entry) => entry.type);
    expect(unattached.filter((type) => type === "opening_balance")).toHaveLength(run.environment === "sandbox" ? 1 : 0);
    expect(unattached.filter((type) => type === "owner_credit")).toHaveLength(model.credits);
    expect(unattached).toHaveLength(model.credits + (run.environment === "sandbox" ? 1 : 0));

    // Entries of each order: what its final state says, with the amounts it cost.
    const known = new Set(orders.map((order) => order.id));
    expect(entries.filter((entry) => entry.order_id !== null && !known.has(entry.order_id))).toEqual([]);
    for (const order of orders) {
      expect((await getOrder(server, tenant.key, order.id)).body.order.status).toBe(order.state);
      const own = entries.filter((entry) => entry.order_id === order.id);
      const amounts = (type: string) => own.filter((entry) => entry.type === type).map((entry) => signedMinor(entry.amount, "USD"));
      const wasTicketed = order.state !== "PENDING" && order.state !== "CANCELED";
      expect(amounts("ticketing_debit"), `${order.id} ${order.state}`).toEqual(wasTicketed ? [-order.total] : []);
      expect(amounts("ticketing_reversal"), `${order.id} ${order.state}`).toEqual(order.state === "FAILED" ? [order.total] : []);
      expect(amounts("refund_credit"), `${order.id} ${order.state}`).toEqual(order.state === "REFUNDED" ? [Math.max(0, order.total - order.penalty!)] : []);
      expect(own).toHaveLength(amounts("ticketing_debit").length + amounts("ticketing_reversal").length + amounts("refund_credit").length);
    }
  }

  it(
    "keeps the balance equal to its ledger and to the model, never negative, under random operations",
    async () => {
      await fc.assert(fc.asyncProperty(runArbitrary, check), { numRuns: NUM_RUNS + EXAMPLES.length, examples: EXAMPLES.map((run) => [run] as [Run]), endOnFailure: true });
      // The examples alone reach each of these, whatever the prices.
      for (const [outcome, count] of Object.entries(seen)) expect(count, outcome).toBeGreaterThan(0);
    },
    120_000,
  );
});
