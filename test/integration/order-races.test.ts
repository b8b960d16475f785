import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type ApiResponse, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { toMinor } from "../helpers/flight-checks";
import { confirmChange, createChange, laterDate, requestChange } from "../helpers/order-changes";
import { bookOffer, flightsOfOffer, freshFlights, newKey, searchForBooking, signedMinor, ticketOrder, waitForStatus } from "../helpers/orders";
import { seatForSale, seatMaps, seatsOfMap } from "../helpers/seat-maps";
import { checkLedger, confirmCancellation, expectedRefund, movementsOf, quoteCancellation, quotesOf, readOrder, sortedMovements, type Movement } from "../helpers/servicing";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Racing operations on one order: every action a client can take on
 * a booked order, fired at once, several rounds, each on a fresh tenant's order with a seat chosen
 * at booking. A ticketed order: cancel, ticket, refund, confirm a cancellation quote (twice),
 * confirm an order change (twice) and, with the airline's change of its flight open, accept that
 * change. A hold: cancel, ticket, pay, confirm a quote, add a bag, refund. Whatever order the
 * database serialises them in (SQLite's one writer, PostgreSQL's row locks), the order ends in
 * one state with the one set of ledger entries that state implies:
 * - the ticketing debit once; a change's debit or credit only if the order flies the change's
 *   flights; the seat given back only if the airline's change was accepted; one refund credit
 *   only if REFUNDED, of what the refund rule gives for the order as it stands (never the amount
 *   of the order before a change that beat it, never the whole total once the airline's change
 *   was answered otherwise);
 * - every answer a success or a refusal from the catalogue, and no two answers that cannot both
 *   be true (two refunds, a change and a quote made before it);
 * - the seats as the state says: held at the airline on the flights the order flies, none once
 *   refunded or cancelled, and the seat chosen at booking shown taken on another offer's seat
 *   map of its flight exactly while the order keeps it.
 */

interface Setup {
  cabin: "business" | "economy";
  /** The airline's change of the order's first flight, open during the race. */
  airline: "retime" | "cancel_flight" | null;
  /** Requests left out of the race (so the others compete without the quickest). */
  without?: string[];
}
const QUOTES = ["confirmQuote1", "confirmQuote2"];
const TICKETED_ROUNDS: Setup[] = [
  { cabin: "business", airline: null },
  { cabin: "economy", airline: null },
  { cabin: "business", airline: null, without: QUOTES },
  { cabin: "business", airline: "cancel_flight" },
  { cabin: "business", airline: "cancel_flight", without: QUOTES },
  { cabin: "economy", airline: "retime", without: QUOTES },
  { cabin: "business", airline: "retime", without: [...QUOTES, "refund"] },
  { cabin: "economy", airline: "cancel_flight", without: ["refund"] },
  { cabin: "business", airline: null, without: [...QUOTES, "cancel", "ticket"] },
];
/** Two requests on one order, the first held between reading the order and writing its change while the second runs. */
const INTERLEAVINGS: Array<{ first: string; second: string; setup: Setup }> = [
  { first: "refund", second: "confirmChange1", setup: { cabin: "business", airline: null } },
  { first: "confirmChange1", second: "refund", setup: { cabin: "business", airline: null } },
  { first: "confirmQuote1", second: "confirmChange1", setup: { cabin: "business", airline: null } },
  { first: "confirmChange1", second: "confirmQuote1", setup: { cabin: "economy", airline: null } },
  { first: "refund", second: "acceptAirlineChange", setup: { cabin: "business", airline: "cancel_flight" } },
  { first: "acceptAirlineChange", second: "refund", setup: { cabin: "business", airline: "retime" } },
  { first: "confirmQuote1", second: "acceptAirlineChange", setup: { cabin: "business", airline: "retime" } },
  { first: "acceptAirlineChange", second: "confirmChange1", setup: { cabin: "business", airline: "cancel_flight" } },
  { first: "confirmChange1", second: "acceptAirlineChange", setup: { cabin: "economy", airline: "retime" } },
];
const PENDING_ROUNDS = 4;

const segmentsOf = (offer: any): any[] => offer.slices.flatMap((slice: any) => slice.segments);
const flightName = (offer: any) => JSON.stringify(flightsOfOffer(offer));
const daysUntil = (offer: any) => Math.round((Date.parse(segmentsOf(offer)[0].departing_at.slice(0, 10)) - Date.parse(new Date().toISOString().slice(0, 10))) / 86_400_000);
const usd = (minor: number) => `${Math.floor(minor / 100)}.${String(minor % 100).padStart(2, "0")}`;
const brief = (response: ApiResponse) => `${response.status} ${JSON.stringify(response.body).slice(0, 300)}`;
const departures = (slices: any[]) => slices.map((slice) => slice.segments.map((segment: any) => segment.departing_at));
const codeOf = (response: ApiResponse) => `${response.status} ${response.body?.errors?.[0]?.code ?? ""}`.trim();

/** Fisher–Yates with a seeded generator (mulberry32): each round starts the requests in another order, the same on every run. */
function shuffled<T>(items: T[], seed: number): T[] {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const result = [...items];
  for (let i = result.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [result[i], result[j]] = [result[j]!, result[i]!];
  }
  return result;
}

describe("racing operations on one order", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "20", JOB_POLL_MS: "20" } });
  });
  afterAll(() => server.close());

  /** A fresh direct offer for one adult in `cabin`, its seat for sale to p1, and another offer of the same flight (to read its seat map later). */
  async function offerWithSeat(key: string, cabin: "business" | "economy"): Promise<{ offer: any; seat: { designator: string; service: any }; twin: any }> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const offer = (await searchForBooking(server, key, { cabin })).find((candidate) => segmentsOf(candidate).length === 1);
      if (!offer) continue;
      const seat = seatForSale((await seatMaps(server, key, `offer_id=${offer.id}`))[0]);
      const again = await searchForBooking(server, key, { cabin, days: daysUntil(offer), reuseFlights: true });
      const twin = again.find((candidate) => candidate.id !== offer.id && flightName(candidate) === flightName(offer));
      if (twin) return { offer, seat, twin };
    }
    throw new Error(`no direct ${cabin} offer with a seat and a twin`);
  }

  /** Whether the seat is taken on the twin's map (no service for p1 there), read now. */
  async function seatTaken(key: string, twin: any, designator: string): Promise<boolean> {
    const seat = seatsOfMap((await seatMaps(server, key, `offer_id=${twin.id}`))[0]).find((candidate) => candidate.designator === designator);
    return !seat.available_services.some((service: any) => service.passenger_id === "p1");
  }

  /** Flights (keys) the airline holds seats on for the order, and the flights its stored booking flies (test reads the database). */
  async function seatsOf(orderId: string): Promise<{ held: string[]; flown: string[] }> {
    const holds = await server.db.prisma.seatHold.findMany({ where: { holdId: orderId } });
    const row = await server.db.prisma.order.findUniqueOrThrow({ where: { id: orderId } });
    const flown = (row.offerSnapshot as any).payload.slices.flatMap((slice: any) => slice.segments.map((segment: any) => segment.flightKey));
    return { held: holds.map((hold) => hold.flightKey).sort(), flown: [...flown].sort() };
  }

  async function eventsOf(key: string, orderId: string): Promise<string[]> {
    const response = await call(server, "GET", `/v1/air/orders/${orderId}/events?limit=100`, { key });
    expect(response.status).toBe(200);
    return response.body.data.items.map((event: any) => event.event);
  }

  /** The order booked with its seat, paying the total with the seat's price. */
  async function bookWithSeat(tenant: TenantFixture, offer: any, seat: { service: any }): Promise<any> {
    const total = toMinor(offer.total_amount, offer.total_currency) + toMinor(seat.service.total_amount, seat.service.total_currency);
    return bookOffer(server, tenant.key, offer, {
      body: { services: [{ id: seat.service.id, quantity: 1 }], payments: [{ type: "balance", currency: offer.total_currency, amount: usd(total) }] },
    });
  }

  /** Refusals a racing request may meet, by request: anything else (a 500, an unexpected code) fails the round. */
  const REFUSALS: Record<string, string[]> = {
    cancel: ["409 order_state_conflict"],
    // A bag added between the read and the debit raised the total: the payment is refused, naming it.
    ticket: ["409 order_state_conflict", "422 payment_amount_mismatch"],
    pay: ["409 order_state_conflict", "422 payment_amount_mismatch"],
    refund: ["409 order_state_conflict", "422 refund_not_allowed"],
    confirmQuote: ["409 order_state_conflict"],
    confirmChange: ["409 order_state_conflict", "422 change_not_allowed", "422 offer_no_longer_available"],
    acceptAirlineChange: ["409 order_state_conflict", "422 offer_no_longer_available"],
    addBag: ["409 order_state_conflict"],
  };

  /** Fires the requests at once (in the round's order) and returns each one's answer by name, checking each is a success or an allowed refusal. */
  async function race(requests: Record<string, () => Promise<ApiResponse>>, seed: number, delays: Record<string, number> = {}): Promise<Record<string, ApiResponse>> {
    const names = shuffled(Object.keys(requests), seed);
    const answers = await Promise.all(names.map(async (name) => {
      if (delays[name]) await new Promise((resolve) => setTimeout(resolve, delays[name]));
      return requests[name]!();
    }));
    const byName: Record<string, ApiResponse> = {};
    names.forEach((name, index) => {
      const answer = answers[index]!;
      byName[name] = answer;
      const kind = name.replace(/\d+$/, "");
      if (answer.status >= 300) expect(REFUSALS[kind], `${name}: ${brief(answer)}`).toContain(codeOf(answer));
    });
    return byName;
  }

  const ok = (answer: ApiResponse | undefined) => answer !== undefined && answer.status < 300;

  /** A ticketed order with its seat, and what a client prepared to act on it: a change chosen, a quote, and (with `airline`) the airline's change of its first flight. */
  interface Prepared {
    key: string;
    booked: any;
    before: any;
    paid: number;
    seat: { designator: string; service: any };
    seatPrice: number;
    twin: any;
    airline: Setup["airline"];
    airlineChange: any;
    change: any;
    quote: any;
    balanceBefore: number;
  }

  async function prepareTicketed(setup: Setup): Promise<Prepared> {
    const tenant = await createTenant(server);
    const { key } = tenant;
    const { offer, seat, twin } = await offerWithSeat(key, setup.cabin);
    const booked = await bookWithSeat(tenant, offer, seat);
    expect((await ticketOrder(server, key, booked.id)).status).toBe(200);
    await waitForStatus(server, key, booked.id, ["TICKETED"]);

    // The airline's change of the first flight, open: quotes then refund the whole total and a change has no penalty.
    let airlineChange: any = null;
    if (setup.airline) {
      const made = await call(server, "POST", `/v1/sandbox/orders/${booked.id}/airline_initiated_change`, { key, body: { kind: setup.airline } });
      expect(made.status, brief(made)).toBe(201);
      airlineChange = made.body.data;
      freshFlights([{ slices: airlineChange.added }], flightsOfOffer);
    }
    const { view: before } = await readOrder(server, key, booked.id);
    expect(await seatTaken(key, twin, seat.designator), "the booked seat is taken").toBe(true);

    // A change to a later day in the same cabin, chosen but not confirmed, and a quote made after everything else.
    let change: any = null;
    for (let days = 1; days <= 5 && !change; days++) {
      const asked = await requestChange(server, key, before, laterDate(before.slices[0].departure_date, days), setup.cabin);
      expect(asked.status, brief(asked)).toBe(201);
      const [first] = asked.body.data.order_change_offers;
      if (first) {
        freshFlights([{ slices: first.slices.add }], flightsOfOffer);
        const created = await createChange(server, key, first.id);
        expect(created.status, brief(created)).toBe(201);
        change = created.body.data;
      }
    }
    expect(change, "a change offer on one of the next five days").not.toBeNull();
    const quoted = await quoteCancellation(server, key, booked.id);
    expect(quoted.status, brief(quoted)).toBe(201);
    const { balance: balanceBefore } = await checkLedger(server, key);
    return {
      key,
      booked,
      before,
      paid: toMinor(booked.total_amount, booked.total_currency),
      seat,
      seatPrice: toMinor(seat.service.total_amount, seat.service.total_currency),
      twin,
      airline: setup.airline,
      airlineChange,
      change,
      quote: quoted.body.data,
      balanceBefore,
    };
  }

  /** Every request a client can make on the prepared ticketed order, by name (a number: a second, identical request). */
  function ticketedRequests(order: Prepared): Record<string, () => Promise<ApiResponse>> {
    const { key, booked } = order;
    return {
      cancel: () => call(server, "POST", `/v1/air/orders/${booked.id}/actions/cancel`, { key }),
      ticket: () => ticketOrder(server, key, booked.id),
      refund: () => call(server, "POST", `/v1/air/orders/${booked.id}/actions/refund`, { key }),
      confirmQuote1: () => confirmCancellation(server, key, order.quote.id),
      confirmQuote2: () => confirmCancellation(server, key, order.quote.id),
      confirmChange1: () => confirmChange(server, key, order.change),
      confirmChange2: () => confirmChange(server, key, order.change),
      ...(order.airlineChange && { acceptAirlineChange: () => call(server, "POST", `/v1/air/airline_initiated_changes/${order.airlineChange.id}/actions/accept`, { key }) }),
    };
  }

  /**
   * Checks the ticketed order after `answers` (some of ticketedRequests'): the answers agree with
   * each other, and the order's state, slices, ledger entries, quotes, events and seats are the
   * ones the winners imply. Returns who won, e.g. "changed+refunded".
   */
  async function checkTicketed(order: Prepared, answers: Record<string, ApiResponse>, label: string): Promise<string> {
    const { key, booked, change, airlineChange } = order;
    const context = `${label}: ${Object.entries(answers)
      .map(([name, answer]) => `${name} ${codeOf(answer)}`)
      .join(", ")}`;
    for (const [name, answer] of Object.entries(answers)) {
      if (answer.status >= 300) expect(REFUSALS[name.replace(/\d+$/, "")], `${name}: ${brief(answer)}`).toContain(codeOf(answer));
    }
    if (answers.cancel) expect(answers.cancel.status, context).toBe(409);
    if (answers.ticket) expect(answers.ticket.status, context).toBe(409);
    const quoteConfirmed = ok(answers.confirmQuote1) || ok(answers.confirmQuote2);
    const changed = ok(answers.confirmChange1) || ok(answers.confirmChange2);
    const accepted = ok(answers.acceptAirlineChange);
    const refunded = ok(answers.refund);
    // Every confirmation of one quote, or of one change, answers the same.
    for (const [first, second] of [["confirmQuote1", "confirmQuote2"], ["confirmChange1", "confirmChange2"]] as const) {
      if (answers[first] && answers[second]) {
        expect(ok(answers[first]), context).toBe(ok(answers[second]));
        if (ok(answers[first])) expect(answers[first]!.body.data, context).toEqual(answers[second]!.body.data);
      }
    }
    expect([quoteConfirmed, refunded].filter(Boolean).length, `one refund at most: ${context}`).toBeLessThanOrEqual(1);
    // A quote made before the order changed is no longer right; the order changes once.
    expect([quoteConfirmed, changed, accepted].filter(Boolean).length, `the quote, the change and the airline's change exclude each other: ${context}`).toBeLessThanOrEqual(1);

    // The order's one state.
    const refunding = quoteConfirmed || refunded;
    if (refunding) await waitForStatus(server, key, booked.id, ["REFUNDED"]);
    const { view, state } = await readOrder(server, key, booked.id);
    expect(state, context).toBe(refunding ? "REFUNDED" : "TICKETED");
    const airlineAnswer = view.airline_initiated_changes[0]?.action_taken ?? null;
    // Answered by what won: accepted, changed (without penalty), or cancelled by the refund of a quote made while it was open; still open otherwise.
    if (airlineChange) expect(airlineAnswer, context).toBe(accepted ? "accepted" : changed ? "changed" : refunding ? "cancelled" : null);
    if (changed) expect(view.slices, context).toEqual(change.slices.add);
    else if (accepted) expect(departures(view.slices), context).toEqual(departures(airlineChange.added));
    else expect(view.slices, context).toEqual(order.before.slices);

    // The ledger: exactly the movements the state implies.
    const movements: Movement[] = [{ type: "ticketing_debit", amount: -order.paid }];
    const changeCost = signedMinor(change.change_total_amount, change.change_total_currency);
    if (changed && changeCost !== 0) movements.push({ type: changeCost > 0 ? "change_debit" : "change_credit", amount: -changeCost });
    // A seat on a flight the airline cancelled is given back when the change is accepted.
    if (accepted && order.airline === "cancel_flight" && order.seatPrice > 0) movements.push({ type: "change_credit", amount: order.seatPrice });
    const confirmedQuotes = (await quotesOf(server, key, booked.id)).filter((candidate) => candidate.confirmed_at !== null);
    if (refunding) {
      // The whole total if the refund answered the airline's change; otherwise the rule, for the order as it stands.
      const refundAmount = airlineAnswer === "cancelled" ? toMinor(view.total_amount, view.total_currency) : expectedRefund(view, 0);
      movements.push({ type: "refund_credit", amount: refundAmount });
      expect(confirmedQuotes.map((candidate) => toMinor(candidate.refund_amount, candidate.refund_currency)), `one confirmed quote, of the refund credited: ${context}`).toEqual([refundAmount]);
    } else {
      expect(confirmedQuotes, context).toEqual([]);
    }
    const { balance, entries } = await checkLedger(server, key);
    expect(movementsOf(entries, booked.id), `the order's ledger: ${context}`).toEqual(sortedMovements(movements));
    expect(balance, context).toBe(order.balanceBefore + movements.slice(1).reduce((sum, movement) => sum + movement.amount, 0));

    // Events: one per change of the order.
    const events = await eventsOf(key, booked.id);
    expect(events.filter((event) => event === "order.changed"), context).toHaveLength(changed || accepted ? 1 : 0);
    expect(events.filter((event) => event === "order.refunded"), context).toHaveLength(refunding ? 1 : 0);

    // Seats: held on the flights the order flies until it is refunded; the booked seat taken while the order keeps it.
    const { held, flown } = await seatsOf(booked.id);
    expect(held, `seats held: ${context}`).toEqual(refunding ? [] : flown);
    // The order's record keeps its seat unless its flight was left (a refunded order still shows what it had).
    const onItsFlight = !changed && !(accepted && order.airline === "cancel_flight");
    expect(view.services.some((service: any) => service.designator === order.seat.designator), context).toBe(onItsFlight);
    expect(await seatTaken(key, order.twin, order.seat.designator), `the booked seat on the seat map: ${context}`).toBe(onItsFlight && !refunding);
    return Object.entries({ quoteConfirmed, refunded, changed, accepted }).filter(([, won]) => won).map(([name]) => name).join("+") || "none";
  }

  it("a ticketed order: cancel, ticket, refund, quote confirmations, change confirmations and the airline's change accepted, at once, leave one state and its ledger", async () => {
    const outcomes: string[] = [];
    for (const [round, setup] of TICKETED_ROUNDS.entries()) {
      const order = await prepareTicketed(setup);
      const requests = ticketedRequests(order);
      for (const name of setup.without ?? []) delete requests[name];
      // Each request starts after a small delay of its own (0–6 ms, the same on every run), so the rounds try other interleavings.
      const delays = Object.fromEntries(shuffled(Object.keys(requests), 50 + round).map((name, index) => [name, (index * 7 + round) % 7]));
      const answers = await race(requests, round + 1, delays);
      outcomes.push(await checkTicketed(order, answers, `round ${round} ${JSON.stringify(setup)}`));
    }
    // Over the rounds, a change and a refund each won somewhere.
    expect(outcomes.some((outcome) => outcome.includes("changed") || outcome.includes("accepted")), outcomes.join(" | ")).toBe(true);
    expect(outcomes.some((outcome) => outcome.includes("refunded") || outcome.includes("quoteConfirmed")), outcomes.join(" | ")).toBe(true);
  }, 240_000);

  /**
   * Holds the next commit of a change to the order (every service commits an order's change
   * through the one OrderCommits of the server) until `release`: the request making it has read
   * the order and priced what it does, and waits to write it.
   */
  function holdNextCommit(orderId: string): { held: () => boolean; release: () => void } {
    const commits = (server.app.services.cancellations as any).commits;
    for (const service of [server.app.services.airlineChanges, server.app.services.ticketing] as any[]) expect(service.commits).toBe(commits);
    const commit = commits.commit;
    let reached = false;
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    commits.commit = async function (this: unknown, orders: Array<{ id: string }>, ...rest: unknown[]) {
      if (!reached && orders.some((candidate) => candidate.id === orderId)) {
        reached = true;
        commits.commit = commit;
        await released;
      }
      return commit.call(this, orders, ...rest);
    };
    return {
      held: () => reached,
      release: () => {
        commits.commit = commit;
        release();
      },
    };
  }

  it("every interleaving of two of them: the first has read the order and waits to write while the second completes", async () => {
    const outcomes: string[] = [];
    for (const [round, { first, second, setup }] of INTERLEAVINGS.entries()) {
      const order = await prepareTicketed(setup);
      const requests = ticketedRequests(order);
      const gate = holdNextCommit(order.booked.id);
      const firstAnswer = requests[first]!();
      await eventually(async () => (gate.held() ? true : undefined), () => `${first} to reach its commit`);
      const secondAnswer = await requests[second]!();
      gate.release();
      outcomes.push(`${first} then ${second}: ` + (await checkTicketed(order, { [first]: await firstAnswer, [second]: secondAnswer }, `interleaving ${round}: ${first} read, ${second} committed, then ${first}`)));
    }
    expect(outcomes.join(" | ")).toContain("refunded+changed");
  }, 240_000);

  it("a hold: cancel, ticket, pay, a quote's confirmation, a bag and a refund, at once, leave it cancelled or ticketed, paid once", async () => {
    for (let round = 0; round < PENDING_ROUNDS; round++) {
      const tenant = await createTenant(server);
      const { key } = tenant;
      const { offer, seat, twin } = await offerWithSeat(key, round % 2 === 0 ? "economy" : "business");
      const booked = await bookWithSeat(tenant, offer, seat);
      const available = await call(server, "GET", `/v1/air/orders/${booked.id}/available_services`, { key });
      const bag = (available.body.data as any[]).find((service) => service.type === "baggage");
      expect(bag, "a bag to add").toBeDefined();
      const quoted = await quoteCancellation(server, key, booked.id);
      expect(quoted.status, brief(quoted)).toBe(201);
      expect(quoted.body.data.refund_amount).toBe("0.00");

      const answers = await race(
        {
          cancel: () => call(server, "POST", `/v1/air/orders/${booked.id}/actions/cancel`, { key }),
          ticket: () => ticketOrder(server, key, booked.id),
          pay: () => call(server, "POST", "/v1/air/payments", { key, headers: { "idempotency-key": newKey("pay") }, body: { order_id: booked.id, payment: { type: "balance", amount: booked.total_amount, currency: booked.total_currency } } }),
          confirmQuote: () => confirmCancellation(server, key, quoted.body.data.id),
          addBag: () => call(server, "POST", `/v1/air/orders/${booked.id}/services`, { key, headers: { "idempotency-key": newKey("bag") }, body: { add_services: [{ id: bag.id, quantity: 1 }] } }),
          refund: () => call(server, "POST", `/v1/air/orders/${booked.id}/actions/refund`, { key }),
        },
        100 + round,
      );
      const context = `hold round ${round}: ${Object.entries(answers)
        .map(([name, answer]) => `${name} ${codeOf(answer)}`)
        .join(", ")}`;
      expect(answers.refund!.status, context).toBe(409);
      const cancelled = ok(answers.cancel) || ok(answers.confirmQuote);
      const paid = ok(answers.ticket) || ok(answers.pay);
      expect([ok(answers.cancel), ok(answers.confirmQuote), ok(answers.ticket), ok(answers.pay)].filter(Boolean), `one way out of PENDING: ${context}`).toHaveLength(1);

      const { state, view } = paid ? await waitForStatus(server, key, booked.id, ["TICKETED"]).then(() => readOrder(server, key, booked.id)) : await readOrder(server, key, booked.id);
      expect(state, context).toBe(cancelled ? "CANCELED" : "TICKETED");
      const bagAdded = ok(answers.addBag);
      expect(view.services.some((service: any) => service.type === "baggage"), context).toBe(bagAdded);

      // The ledger: the total paid once (with the bag, if it was added before the payment, or a
      // services debit of its own if after ticketing), nothing for a cancelled hold.
      const { entries } = await checkLedger(server, key);
      const own = movementsOf(entries, booked.id);
      const total = toMinor(view.total_amount, view.total_currency);
      if (cancelled) {
        expect(own, context).toEqual([]);
        expect(view.cancellation_reason, context).toBe("requested");
      } else {
        expect(own.filter((movement) => movement.type === "ticketing_debit"), context).toHaveLength(1);
        expect(own.every((movement) => movement.type === "ticketing_debit" || movement.type === "services_debit"), context).toBe(true);
        expect(own.reduce((sum, movement) => sum + movement.amount, 0), `what the order cost, paid once: ${context}`).toBe(-total);
        if (ok(answers.pay)) expect(-own.find((movement) => movement.type === "ticketing_debit")!.amount, context).toBe(toMinor(answers.pay!.body.data.amount, answers.pay!.body.data.currency));
      }
      const { held, flown } = await seatsOf(booked.id);
      expect(held, `seats held: ${context}`).toEqual(cancelled ? [] : flown);
      expect(await seatTaken(key, twin, seat.designator), `the booked seat on the seat map: ${context}`).toBe(!cancelled);
      const events = await eventsOf(key, booked.id);
      expect(events.filter((event) => event === "order.cancelled"), context).toHaveLength(cancelled ? 1 : 0);
      expect(events.filter((event) => event === "order.ticketed"), context).toHaveLength(cancelled ? 0 : 1);
    }
  }, 120_000);
});
