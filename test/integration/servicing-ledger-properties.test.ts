import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type ApiResponse, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { confirmChange, createChange, laterDate, requestChange } from "../helpers/order-changes";
import { createOrderA, newKey, passengersOf, searchForBooking, signedMinor, ticketOrder, waitForStatus } from "../helpers/orders";
import {
  checkLedger,
  confirmCancellation,
  expectedRefund,
  movementsOf,
  quoteCancellation,
  quotesOf,
  reachable,
  readOrder,
  sortedMovements,
  type Movement,
  type OrderState,
} from "../helpers/servicing";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { creditWallet } from "../helpers/wallet";

/**
 * Property-based, through the HTTP API: random sequences of what a
 * travel seller does with orders after booking — book a hold, pay it (`POST /v1/air/payments`) or
 * ticket it, add bags (to a hold, or to a ticketed order, paid at once), change a ticketed order's
 * flight (request → create → confirm), cancel a hold, quote a cancellation and confirm it, refund,
 * and top the wallet up — against the real server, on a fresh tenant (sandbox or live). After
 * every step:
 * - the balance is the sum of the ledger's entries, each entry's balance_after the running sum,
 *   never negative; and it is the model's balance, kept from the amounts the API answered;
 * - each order's ledger entries are exactly the movements its answers imply (the total paid, the
 *   bags paid after ticketing, each change's cost or credit, the reversal of a rejected ticketing,
 *   the refund), so they sum to what the tenant paid for it net of what came back;
 * - a refund is what the one rule gives for the order as it stands (docs/rest-api.md#cancellations-with-a-quote: a refundable
 *   fare its total less the penalty and the bags bought after ticketing that are still on it, a
 *   non-refundable fare its taxes, a hold nothing), whether quoted or asked for in one step;
 * - each order is in the state the model expects, reached from the one before along the state
 *   machine's transitions;
 * - a request the wallet cannot cover is 402 and one the order's state refuses is 409 or 422,
 *   exactly when the model says so, and neither moves anything.
 * The airline's delay is short (TICKETING_DELAY_MS=10); terminal states are awaited by polling.
 * A fixed seed makes a failure repeatable; fast-check shrinks it to a short sequence (within
 * SHRINK_BUDGET_MS) and prints it.
 */

const SEED = 16_2026;
/** Random runs, on top of the EXAMPLES below. */
const NUM_RUNS = 40;
const MAX_STEPS = 20;
/** Runs and shrinking together stop here (a failure is then reported with the shortest run found so far). */
const SHRINK_BUDGET_MS = 200_000;

type Cabin = "economy" | "business";
/** LHR → JFK: economy changeable but not refundable, business refundable and changeable; LGW → BCN also sells Basic fares that cannot be changed. */
type Route = "LHR-JFK" | "LGW-BCN";
/**
 * Which fares `pick` chooses among: any of the route and cabin, or a refundable one (sold in
 * business), a non-refundable but changeable one (economy), or one that cannot be changed (Basic,
 * from LGW).
 */
type Fare = "any" | "refundable" | "nonRefundable" | "unchangeable";
/** `pick` (0–99) chooses among the offers sorted by price (or among the orders), from the first (0) to the last (99). */
type Step =
  | { kind: "credit"; cents: number }
  /** `payNow`: then pay it at once, as a pay step would (most orders are paid when booked). */
  | { kind: "book"; route: Route; cabin: Cabin; fare: Fare; adults: number; days: number; pick: number; fund: boolean; rejected: boolean; payNow: boolean }
  | { kind: "pay"; pick: number; via: "payment" | "ticket"; fund: boolean }
  | { kind: "services"; pick: number; bag: number; fund: boolean }
  | { kind: "change"; pick: number; daysLater: number; cabin: Cabin; offer: number; fund: boolean }
  | { kind: "cancel"; pick: number }
  | { kind: "quote"; pick: number; confirm: boolean }
  | { kind: "refund"; pick: number };
interface Run {
  environment: "sandbox" | "live";
  steps: Step[];
}

const pick = fc.integer({ min: 0, max: 99 });
const cabin = fc.constantFrom<Cabin>("economy", "business");
/** Top the wallet up first (an owner credit of what is missing), mostly: a live wallet starts empty. */
const fund = fc.constantFrom(true, true, true, false);
const stepArbitrary: fc.Arbitrary<Step> = fc.oneof(
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("credit" as const), cents: fc.integer({ min: 1, max: 400_000 }) }) },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("book" as const),
      route: fc.constantFrom<Route>("LHR-JFK", "LHR-JFK", "LGW-BCN"),
      cabin,
      fare: fc.constantFrom<Fare>("any", "any", "refundable", "nonRefundable"),
      adults: fc.integer({ min: 1, max: 2 }),
      days: fc.integer({ min: 14, max: 300 }),
      pick,
      fund,
      rejected: fc.constantFrom(false, false, false, true),
      payNow: fc.boolean(),
    }),
  },
  { weight: 5, arbitrary: fc.record({ kind: fc.constant("pay" as const), pick, via: fc.constantFrom<"payment" | "ticket">("payment", "ticket"), fund }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("services" as const), pick, bag: pick, fund }) },
  { weight: 3, arbitrary: fc.record({ kind: fc.constant("change" as const), pick, daysLater: fc.integer({ min: 1, max: 5 }), cabin, offer: pick, fund }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant("cancel" as const), pick }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("quote" as const), pick, confirm: fc.boolean() }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant("refund" as const), pick }) },
);
const runArbitrary: fc.Arbitrary<Run> = fc.record({
  environment: fc.constantFrom<Run["environment"]>("sandbox", "live"),
  steps: fc.array(stepArbitrary, { minLength: 1, maxLength: MAX_STEPS, size: "max" }),
});

const book = (fields: Partial<Extract<Step, { kind: "book" }>>): Step => ({ kind: "book", route: "LHR-JFK", cabin: "economy", fare: "any", adults: 1, days: 60, pick: 0, fund: true, rejected: false, payNow: false, ...fields });
const LAST = 99;

/**
 * Runs every random run starts with, so each outcome happens whatever the prices (see `seen`).
 * Orders are picked by position: 0 the first booked, 99 the last.
 */
const EXAMPLES: Run[] = [
  {
    // A refundable fare: bags on the hold and after ticketing, a change (bags dropped with the
    // flight), then cancelled on a quote; a non-refundable one cancelled for its taxes; a hold
    // cancelled, another cancelled on a quote; a rejected ticketing; an unchangeable fare.
    environment: "sandbox",
    steps: [
      book({ cabin: "business", fare: "refundable" }),
      { kind: "services", pick: LAST, bag: 0, fund: false },
      { kind: "pay", pick: LAST, via: "payment", fund: false },
      { kind: "services", pick: LAST, bag: 0, fund: false },
      { kind: "change", pick: LAST, daysLater: 2, cabin: "business", offer: 0, fund: false },
      { kind: "quote", pick: LAST, confirm: true },
      book({ cabin: "economy", fare: "nonRefundable", adults: 2 }),
      { kind: "pay", pick: LAST, via: "ticket", fund: false },
      { kind: "refund", pick: LAST },
      { kind: "change", pick: LAST, daysLater: 3, cabin: "economy", offer: 99, fund: false },
      { kind: "quote", pick: LAST, confirm: true },
      book({ pick: 50 }),
      { kind: "cancel", pick: LAST },
      { kind: "pay", pick: LAST, via: "payment", fund: false },
      book({ pick: 99 }),
      { kind: "quote", pick: LAST, confirm: true },
      book({ rejected: true }),
      { kind: "pay", pick: LAST, via: "ticket", fund: false },
      book({ route: "LGW-BCN", fare: "unchangeable" }),
      { kind: "pay", pick: LAST, via: "payment", fund: false },
      { kind: "change", pick: LAST, daysLater: 1, cabin: "economy", offer: 0, fund: false },
    ],
  },
  {
    // A live wallet holding exactly what was paid: bags after ticketing and a change that costs
    // money are refused (402), a business fare moved to economy credits the difference, and the
    // refund action refunds the rest.
    environment: "live",
    steps: [
      book({ cabin: "business", fare: "refundable", fund: true }),
      { kind: "pay", pick: LAST, via: "payment", fund: false },
      { kind: "services", pick: LAST, bag: 0, fund: false },
      { kind: "change", pick: LAST, daysLater: 1, cabin: "business", offer: 99, fund: false },
      { kind: "change", pick: LAST, daysLater: 2, cabin: "economy", offer: 0, fund: false },
      { kind: "credit", cents: 12_345 },
      book({ cabin: "business", fare: "refundable", fund: true }),
      { kind: "pay", pick: LAST, via: "ticket", fund: true },
      { kind: "refund", pick: LAST },
      book({ cabin: "business", pick: 99, fund: false }),
    ],
  },
];

interface TrackedOrder {
  id: string;
  state: OrderState;
  /** Ticketing will be rejected (a sandbox passenger named Rejected). */
  rejected: boolean;
  /** The ledger entries the order's answers imply. */
  movements: Movement[];
  /** What the wallet paid for bags added after ticketing that are still on the order. */
  paidAfterTicketing: number;
}

const asDecimal = (cents: number) => `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
const choose = <T>(items: T[], at: number): T => items[Math.floor((at / 100) * items.length)]!;
const status = (response: ApiResponse) => `${response.status} ${JSON.stringify(response.body).slice(0, 400)}`;

describe("ledger properties of servicing", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "10", JOB_POLL_MS: "20" } });
  });
  afterAll(() => server.close());

  /** Outcomes seen over all runs: the examples alone reach each. */
  const seen = {
    paid: 0,
    rejected: 0,
    servicesOnHold: 0,
    servicesPaid: 0,
    changeDebit: 0,
    changeCredit: 0,
    changeNotAllowed: 0,
    refusedForBalance: 0,
    refusedForState: 0,
    cancelled: 0,
    holdCancelledOnQuote: 0,
    refundedOnQuote: 0,
    refundedForTaxes: 0,
    refundAction: 0,
    refundNotAllowed: 0,
  };

  async function check(run: Run): Promise<void> {
    const tenant: TenantFixture = await createTenant(server, { environment: run.environment });
    const { key } = tenant;
    // The model is the network airline's servicing (changes, refunds); the low-cost supplier's own
    // rules are gateway-routing.test.ts's.
    expect((await call(server, "PATCH", "/v1/tenant", { key, body: { suppliers: ["simulated"] } })).status).toBe(200);
    const model = { balance: run.environment === "sandbox" ? 10_000_000 : 0, credits: 0 };
    const orders: TrackedOrder[] = [];

    const creditCents = async (cents: number) => {
      const response = await creditWallet(server, tenant.tenantId, { amount: asDecimal(cents), currency: "USD" });
      expect(response.status, status(response)).toBe(201);
      model.balance += cents;
      model.credits += 1;
    };
    /** Tops the wallet up to `cents` when the step says to. */
    const fundFor = async (cents: number, fund: boolean) => {
      if (fund && model.balance < cents) await creditCents(cents - model.balance);
    };
    const refusedForBalance = (response: ApiResponse) => {
      expectError(response, 402, "insufficient_balance");
      seen.refusedForBalance++;
    };
    const refusedForState = (response: ApiResponse, code = "order_state_conflict", httpStatus = 409) => {
      expectError(response, httpStatus, code);
      seen.refusedForState++;
    };
    /**
     * The order an order step acts on: mostly one the step applies to (`eligible`), one in five
     * any order (to be refused when its state does not allow the step); null with no order.
     */
    const target = (at: number, eligible: (order: TrackedOrder) => boolean): TrackedOrder | null => {
      const pool = at % 5 === 4 ? orders : orders.filter(eligible);
      return pool.length > 0 ? choose(pool, at) : orders.length > 0 ? choose(orders, at) : null;
    };
    /** Waits for the airline: the order leaves PROCESSING, or its refund completes. */
    const settle = async (order: TrackedOrder, states: OrderState[]) => (await waitForStatus(server, key, order.id, states, 20_000)).body.order.status as OrderState;

    /**
     * Waits until the airline's documents are written after its delay (a bag's EMD, the e-tickets a
     * change reissues). Their write touches the order, and a quote or change offer priced before it
     * is refused (409: the order changed since), so the next step starts after it, as a client
     * would after reading the order.
     */
    const airlineDone = (order: TrackedOrder, done: (view: any) => boolean, what: string) =>
      eventually(async () => (done((await readOrder(server, key, order.id)).view) ? true : undefined), () => `${what} on ${order.id}`, 20_000);

    /** Everything the model says, checked against the server. */
    const checkAll = async (step: Step | null) => {
      const label = JSON.stringify(step);
      const { balance, entries } = await checkLedger(server, key);
      expect(balance, `balance after ${label}`).toBe(model.balance);
      const unattached = entries.filter((entry) => entry.order_id === null).map((entry) => entry.type).sort();
      expect(unattached).toEqual([...(run.environment === "sandbox" ? ["opening_balance"] : []), ...Array(model.credits).fill("owner_credit")]);
      const known = new Set(orders.map((order) => order.id));
      expect(entries.filter((entry) => entry.order_id !== null && !known.has(entry.order_id)), "entries of no order booked").toEqual([]);
      for (const order of orders) {
        const own = movementsOf(entries, order.id);
        expect(own, `${order.id} (${order.state}) after ${label}`).toEqual(sortedMovements(order.movements));
        const net = order.movements.reduce((sum, movement) => sum + movement.amount, 0);
        expect(own.reduce((sum, movement) => sum + movement.amount, 0), "the order's entries sum to what it cost net of what came back").toBe(net);
        const { state } = await readOrder(server, key, order.id);
        expect(state, `${order.id} after ${label}`).toBe(order.state);
      }
    };

    const bookStep = async (step: Extract<Step, { kind: "book" }>) => {
      // The fare asked for decides where it is sold: refundable fares in business, Basic ones (no changes) from LGW.
      const [origin, destination] = (step.fare === "unchangeable" ? "LGW-BCN" : step.route).split("-");
      const cabinClass = step.fare === "refundable" ? "business" : step.fare === "any" ? step.cabin : "economy";
      // Flights are shared by the runs (a search shows only flights with seats left for the party), so any number of runs finds offers.
      let offers: any[] = [];
      for (let attempt = 0; attempt < 10 && offers.length === 0; attempt++) {
        const found = await searchForBooking(server, key, { origin, destination, cabin: cabinClass, passengers: Array(step.adults).fill("adult"), days: step.days + attempt, reuseFlights: true });
        offers = found.filter((offer) => {
          const { refund_before_departure: refund, change_before_departure: change } = offer.conditions;
          if (step.fare === "refundable") return refund.allowed;
          if (step.fare === "nonRefundable") return !refund.allowed && change.allowed;
          if (step.fare === "unchangeable") return !change.allowed;
          return true;
        });
      }
      expect(offers.length, `an offer for ${JSON.stringify(step)}`).toBeGreaterThan(0);
      const sorted = [...offers].sort((a, b) => toMinor(a.total_amount, "USD") - toMinor(b.total_amount, "USD"));
      const rejected = step.rejected && run.environment === "sandbox";
      const first = sorted.indexOf(choose(sorted, step.pick));
      let offer: any;
      let response: ApiResponse;
      for (let attempt = 0; ; attempt++) {
        offer = sorted[(first + attempt) % sorted.length]!;
        await fundFor(toMinor(offer.total_amount, "USD"), step.fund);
        response = await createOrderA(server, key, offer, rejected ? { passengers: passengersOf(offer, { family_name: "Rejected" }) } : {});
        // A change of an earlier run may have taken a flight's last seat since the search: the next offer, as a client would.
        if (!(response.status === 422 && response.body.errors?.[0]?.code === "offer_no_longer_available" && attempt + 1 < sorted.length)) break;
      }
      const total = toMinor(offer.total_amount, "USD");
      if (model.balance < total) return refusedForBalance(response);
      expect(response.status, status(response)).toBe(201);
      expect(response.body.data.total_amount).toBe(offer.total_amount);
      orders.push({ id: response.body.data.id, state: "PENDING", rejected, movements: [], paidAfterTicketing: 0 });
      if (step.payNow) await payStep({ kind: "pay", pick: LAST, via: "payment", fund: step.fund });
    };

    const payStep = async (step: Extract<Step, { kind: "pay" }>) => {
      const order = target(step.pick, (candidate) => candidate.state === "PENDING");
      if (!order) return;
      const { view } = await readOrder(server, key, order.id);
      const total = toMinor(view.total_amount, view.total_currency);
      if (order.state === "PENDING") await fundFor(total, step.fund);
      const response =
        step.via === "payment"
          ? await call(server, "POST", "/v1/air/payments", { key, headers: { "idempotency-key": newKey("pay") }, body: { order_id: order.id, payment: { type: "balance", amount: view.total_amount, currency: view.total_currency } } })
          : await ticketOrder(server, key, order.id);
      if (order.state !== "PENDING") return refusedForState(response);
      if (model.balance < total) return refusedForBalance(response);
      expect(response.status, status(response)).toBe(step.via === "payment" ? 201 : 200);
      if (step.via === "payment") expect(response.body.data).toMatchObject({ order_id: order.id, amount: view.total_amount, currency: view.total_currency });
      model.balance -= total;
      order.movements.push({ type: "ticketing_debit", amount: -total });
      order.state = await settle(order, ["TICKETED", "FAILED"]);
      expect(order.state).toBe(order.rejected ? "FAILED" : "TICKETED");
      seen.paid++;
      if (order.rejected) {
        model.balance += total;
        order.movements.push({ type: "ticketing_reversal", amount: total });
        seen.rejected++;
      }
    };

    const servicesStep = async (step: Extract<Step, { kind: "services" }>) => {
      // Only orders that can take services: what is refused otherwise is the services suite's matter.
      const candidates = orders.filter((candidate) => candidate.state === "PENDING" || candidate.state === "TICKETED");
      if (candidates.length === 0) return;
      const order = choose(candidates, step.pick);
      const available = await call(server, "GET", `/v1/air/orders/${order.id}/available_services`, { key });
      expect(available.status, status(available)).toBe(200);
      const bags = (available.body.data as any[]).filter((service) => service.type === "baggage");
      if (bags.length === 0) return;
      const bag = choose(bags, step.bag);
      const amount = toMinor(bag.total_amount, bag.total_currency);
      const { view: before } = await readOrder(server, key, order.id);
      const emds = (view: any) => view.documents.filter((document: any) => document.type === "electronic_miscellaneous_document").length;
      const ticketed = order.state === "TICKETED";
      if (ticketed) await fundFor(amount, step.fund);
      const response = await call(server, "POST", `/v1/air/orders/${order.id}/services`, {
        key,
        headers: { "idempotency-key": newKey("services") },
        body: { add_services: [{ id: bag.id, quantity: 1 }], ...(ticketed && { payment: { type: "balance", amount: bag.total_amount, currency: bag.total_currency } }) },
      });
      if (ticketed && model.balance < amount) return refusedForBalance(response);
      expect(response.status, status(response)).toBe(201);
      expect(toMinor(response.body.data.total_amount, before.total_currency), "the bag joins the total").toBe(toMinor(before.total_amount, before.total_currency) + amount);
      if (ticketed) {
        model.balance -= amount;
        order.movements.push({ type: "services_debit", amount: -amount });
        order.paidAfterTicketing += amount;
        seen.servicesPaid++;
        await airlineDone(order, (view) => emds(view) > emds(before), "the bag's EMD");
      } else seen.servicesOnHold++;
    };

    const changeStep = async (step: Extract<Step, { kind: "change" }>) => {
      const order = target(step.pick, (candidate) => candidate.state === "TICKETED");
      if (!order) return;
      const { view } = await readOrder(server, key, order.id);
      const tickets = (documents: any[]) => documents.filter((document) => document.type === "electronic_ticket").map((document) => document.unique_identifier);
      const asked = await requestChange(server, key, view, laterDate(view.slices[0].departure_date, step.daysLater), step.cabin);
      if (order.state !== "TICKETED" || !view.offer.conditions.change_before_departure.allowed) {
        expectError(asked, 422, "change_not_allowed", "order_id");
        seen.changeNotAllowed++;
        return;
      }
      expect(asked.status, status(asked)).toBe(201);
      const offers = asked.body.data.order_change_offers as any[];
      if (offers.length === 0) return;
      const offer = choose(offers, step.offer);
      const cost = signedMinor(offer.change_total_amount, offer.change_total_currency);
      const created = await createChange(server, key, offer.id);
      expect(created.status, status(created)).toBe(201);
      if (cost > 0) await fundFor(cost, step.fund);
      const confirmed = await confirmChange(server, key, created.body.data);
      if (cost > 0 && model.balance < cost) return refusedForBalance(confirmed);
      // The airline may have sold the new flight's last seats to an earlier booking of this file.
      if (confirmed.status === 422 && confirmed.body.errors?.[0]?.code === "offer_no_longer_available") return;
      expect(confirmed.status, status(confirmed)).toBe(200);
      expect(confirmed.body.data.confirmed_at).not.toBeNull();
      model.balance -= cost;
      if (cost !== 0) order.movements.push({ type: cost > 0 ? "change_debit" : "change_credit", amount: -cost });
      if (cost > 0) seen.changeDebit++;
      if (cost < 0) seen.changeCredit++;
      // One slice, replaced whole: the bags on its flights go with it.
      order.paidAfterTicketing = 0;
      const { view: changed } = await readOrder(server, key, order.id);
      expect(changed.total_amount).toBe(offer.new_total_amount);
      expect(changed.slices).toEqual(offer.slices.add);
      expect(changed.services).toEqual([]);
      await airlineDone(order, (now) => tickets(now.documents).every((number) => !tickets(view.documents).includes(number)), "the e-tickets reissued");
    };

    const cancelStep = async (step: Extract<Step, { kind: "cancel" }>) => {
      const order = target(step.pick, (candidate) => candidate.state === "PENDING");
      if (!order) return;
      const response = await call(server, "POST", `/v1/air/orders/${order.id}/actions/cancel`, { key, headers: { "idempotency-key": newKey("cancel") } });
      if (order.state !== "PENDING") return refusedForState(response);
      expect(response.status, status(response)).toBe(200);
      order.state = "CANCELED";
      seen.cancelled++;
    };

    /** The refund just confirmed: the order becomes REFUNDED after the airline's delay, the wallet credited `amount` once. */
    const refunded = async (order: TrackedOrder, amount: number) => {
      order.state = await settle(order, ["REFUNDED"]);
      model.balance += amount;
      order.movements.push({ type: "refund_credit", amount });
    };

    const quoteStep = async (step: Extract<Step, { kind: "quote" }>) => {
      const order = target(step.pick, (candidate) => candidate.state === "PENDING" || candidate.state === "TICKETED");
      if (!order) return;
      const { view } = await readOrder(server, key, order.id);
      const quoted = await quoteCancellation(server, key, order.id);
      if (order.state !== "PENDING" && order.state !== "TICKETED") return refusedForState(quoted);
      expect(quoted.status, status(quoted)).toBe(201);
      const amount = toMinor(quoted.body.data.refund_amount, quoted.body.data.refund_currency);
      expect(amount, `the refund of ${JSON.stringify(view).slice(0, 2000)} (bags paid after ticketing: ${order.paidAfterTicketing})`).toBe(expectedRefund(view, order.paidAfterTicketing));
      if (!step.confirm) return;
      const confirmed = await confirmCancellation(server, key, quoted.body.data.id);
      expect(confirmed.status, status(confirmed)).toBe(200);
      expect(confirmed.body.data).toEqual({ ...quoted.body.data, confirmed_at: expect.any(String) });
      if (order.state === "PENDING") {
        order.state = "CANCELED";
        seen.holdCancelledOnQuote++;
        return;
      }
      await refunded(order, amount);
      if (view.offer.conditions.refund_before_departure.allowed) seen.refundedOnQuote++;
      else seen.refundedForTaxes++;
    };

    const refundStep = async (step: Extract<Step, { kind: "refund" }>) => {
      const order = target(step.pick, (candidate) => candidate.state === "TICKETED");
      if (!order) return;
      const { view } = await readOrder(server, key, order.id);
      const response = await call(server, "POST", `/v1/air/orders/${order.id}/actions/refund`, { key });
      if (order.state !== "TICKETED") return refusedForState(response);
      if (!view.offer.conditions.refund_before_departure.allowed) {
        expectError(response, 422, "refund_not_allowed");
        seen.refundNotAllowed++;
        return;
      }
      expect(response.status, status(response)).toBe(200);
      // In progress, or already done: the airline's delay is short and the answer reads the order after the commit.
      expect(["in_progress", "refunded"]).toContain(response.body.data.refund_status);
      const amount = expectedRefund(view, order.paidAfterTicketing);
      // The action is a quote confirmed at once: listed with the order's quotes, with the rule's amount.
      const [newest] = await quotesOf(server, key, order.id);
      expect(newest.confirmed_at).not.toBeNull();
      expect(toMinor(newest.refund_amount, newest.refund_currency), `the refund of ${JSON.stringify(view).slice(0, 2000)}`).toBe(amount);
      await refunded(order, amount);
      seen.refundAction++;
    };

    await checkAll(null);
    for (const step of run.steps) {
      const before = new Map(orders.map((order) => [order.id, order.state]));
      switch (step.kind) {
        case "credit":
          await creditCents(step.cents);
          break;
        case "book":
          await bookStep(step);
          break;
        case "pay":
          await payStep(step);
          break;
        case "services":
          await servicesStep(step);
          break;
        case "change":
          await changeStep(step);
          break;
        case "cancel":
          await cancelStep(step);
          break;
        case "quote":
          await quoteStep(step);
          break;
        case "refund":
          await refundStep(step);
          break;
      }
      for (const order of orders) {
        const from = before.get(order.id) ?? "PENDING";
        expect(reachable(from, order.state), `${order.id}: ${from} → ${order.state} is no path of the state machine`).toBe(true);
      }
      await checkAll(step);
    }
  }

  it(
    "keeps every order's ledger entries equal to what it cost, and the balance to the ledger, under random servicing",
    async () => {
      // What failed first, before shrinking ran shorter sequences (which may fail otherwise, or time out).
      let firstFailure: string | null = null;
      const property = fc.asyncProperty(runArbitrary, async (run) => {
        try {
          await check(run);
        } catch (error) {
          firstFailure ??= `${JSON.stringify(run)}\n${error instanceof Error ? (error.stack ?? error.message) : String(error)}`;
          throw error;
        }
      });
      const report = fc.check(property, {
        seed: SEED,
        numRuns: NUM_RUNS + EXAMPLES.length,
        examples: EXAMPLES.map((run) => [run] as [Run]),
        interruptAfterTimeLimit: SHRINK_BUDGET_MS,
        markInterruptAsFailure: true,
      });
      const failed = await report;
      if (failed.failed) throw new Error(`${fc.defaultReportMessage(failed)}\n\nThe first failure, before shrinking:\n${firstFailure}`);
      for (const [outcome, count] of Object.entries(seen)) expect(count, outcome).toBeGreaterThan(0);
    },
    SHRINK_BUDGET_MS + 60_000,
  );
});
