import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { convertMinor } from "../../src/money/exchange-rates";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { allTransactions, bookOffer, passengersOf, searchForBooking, signedMinor, ticketOrder, waitForStatus } from "../helpers/orders";
import { credit, creditWallet, getWallet, sumsByCurrency, untouchedWallet } from "../helpers/wallet";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * The prepaid wallet and its ledger (docs/rest-api.md#wallet) and the wallet's side of a tenant's
 * default_currency (docs/rest-api.md#tenant-configuration), through the HTTP API:
 * - a sandbox wallet opens with 100000.00 USD (one opening_balance entry), a live one empty;
 * - the ledger pages newest first; every balance change is an entry with the balance after it;
 * - owner credits: validation, currency, tenant state, role, Idempotency-Key;
 * - ticketing debits once (negative), a rejection reverses it, a refund credits total − penalty;
 * - the balance never goes below zero (402 insufficient_balance);
 * - a sandbox wallet is re-denominated at the static rate table with a closing and an opening
 *   entry; a live tenant's currency is locked while its wallet holds money or an order is open.
 */

const ISO_INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

describe("wallet", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0" } });
  });
  afterAll(() => server.close());

  const transactionsPage = (tenant: TenantFixture, query: Record<string, string> = {}) =>
    call(server, "GET", `/v1/wallet/transactions?${new URLSearchParams(query)}`, { key: tenant.key });
  const patchCurrency = (tenant: TenantFixture, currency: string) => call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { default_currency: currency } });
  const cancelOrder = (tenant: TenantFixture, orderId: string) => call(server, "POST", `/v1/air/orders/${orderId}/actions/cancel`, { key: tenant.key });
  const refundOrder = (tenant: TenantFixture, orderId: string) => call(server, "POST", `/v1/air/orders/${orderId}/actions/refund`, { key: tenant.key });
  const entriesOf = (entries: any[], orderId: string) => entries.filter((entry) => entry.order_id === orderId).map((entry) => entry.type).sort();

  /** Two economy offers; `expensive` costs at least as much as `cheap` (so a wallet that covers one covers the other when booking). */
  async function twoOffers(tenant: TenantFixture): Promise<{ expensive: any; cheap: any }> {
    const offers = await searchForBooking(server, tenant.key);
    expect(offers.length).toBeGreaterThanOrEqual(2);
    const [a, b] = offers;
    return toMinor(a.total_amount, a.total_currency) >= toMinor(b.total_amount, b.total_currency) ? { expensive: a, cheap: b } : { expensive: b, cheap: a };
  }

  async function ticketAndSettle(tenant: TenantFixture, orderId: string, status: "TICKETED" | "FAILED" = "TICKETED") {
    const ticketed = await ticketOrder(server, tenant.key, orderId);
    expect(ticketed.status, JSON.stringify(ticketed.body)).toBe(200);
    const settled = await waitForStatus(server, tenant.key, orderId, ["TICKETED", "FAILED"]);
    expect(settled.body.order.status).toBe(status);
    return settled.body.data;
  }

  describe("GET /v1/wallet", () => {
    it("opens a sandbox wallet with 100000.00 USD, recorded by one opening_balance entry", async () => {
      const tenant = await createTenant(server);
      const response = await call(server, "GET", "/v1/wallet", { key: tenant.key });
      expect(response.status).toBe(200);
      expect(response.body).toMatchObject({ success: true, message: expect.any(String) });
      expect(response.body.data).toEqual(untouchedWallet(tenant.tenantId, "100000.00"));

      const ledger = await transactionsPage(tenant);
      expect(ledger.status).toBe(200);
      expect(ledger.body.data.items).toEqual([
        {
          id: expect.stringMatching(/^wtx_/),
          type: "opening_balance",
          amount: "100000.00",
          currency: "USD",
          balance_after: "100000.00",
          fee_amount: "0.00",
          order_id: null,
          reference: null,
          created_at: expect.stringMatching(ISO_INSTANT),
        },
      ]);
      expect(ledger.body.data.pagination).toMatchObject({ total: 1, hasMore: false, nextCursor: null });
    });

    it("opens a live wallet at 0.00 USD with no ledger entries", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      expect(await getWallet(server, tenant.key)).toEqual(untouchedWallet(tenant.tenantId, "0.00", "live"));
      const ledger = await transactionsPage(tenant);
      expect(ledger.status).toBe(200);
      expect(ledger.body.data.items).toEqual([]);
      expect(ledger.body.data.pagination).toMatchObject({ total: 0, hasMore: false, nextCursor: null });
    });
  });

  describe("GET /v1/wallet/transactions", () => {
    it("pages the ledger newest first with cursors, each entry carrying the running balance", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      const other = await createTenant(server, { environment: "live" });
      const amounts = ["1.00", "2.50", "3.01", "4.00", "5.99", "6.00", "7.10"];
      for (const [index, amount] of amounts.entries()) {
        const response = await creditWallet(server, tenant.tenantId, { amount, currency: "USD", reference: `top-up ${index + 1}` });
        expect(response.status, JSON.stringify(response.body)).toBe(201);
      }
      // Another tenant's entry never shows in this ledger.
      await credit(server, other.tenantId, "999.00");

      const pages: any[] = [];
      let cursor: string | null = null;
      do {
        const response = await transactionsPage(tenant, cursor ? { limit: "3", cursor } : { limit: "3" });
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        pages.push(response.body.data);
        cursor = response.body.data.pagination.nextCursor;
        expect(pages.length).toBeLessThan(10);
      } while (cursor);

      expect(pages.map((page) => page.items.length)).toEqual([3, 3, 1]);
      expect(pages.map((page) => page.pagination.hasMore)).toEqual([true, true, false]);
      for (const page of pages) expect(page.pagination).toMatchObject({ total: amounts.length, limit: 3 });

      const items = pages.flatMap((page) => page.items);
      expect(new Set(items.map((item) => item.id)).size).toBe(amounts.length);
      expect(items.map((item) => item.amount)).toEqual([...amounts].reverse());
      expect(items.map((item) => item.reference)).toEqual(amounts.map((_, index) => `top-up ${index + 1}`).reverse());
      expect(items.every((item) => item.type === "owner_credit" && item.currency === "USD" && item.order_id === null)).toBe(true);
      // Oldest first, each balance_after is the running sum of the credits so far.
      let running = 0;
      for (const [index, item] of [...items].reverse().entries()) {
        running += toMinor(amounts[index]!, "USD");
        expect(toMinor(item.balance_after, "USD")).toBe(running);
      }
      expect(toMinor((await getWallet(server, tenant.key)).balance, "USD")).toBe(running);
      // Newest first by creation time too.
      const stamps = items.map((item) => Date.parse(item.created_at));
      expect([...stamps].sort((a, b) => b - a)).toEqual(stamps);
    });
  });

  describe("owner credits", () => {
    it("credits a wallet: 201 with the owner_credit entry and the wallet after it", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      const response = await creditWallet(server, tenant.tenantId, { amount: "250.00", currency: "USD", reference: "wire 42" });
      expect(response.status, JSON.stringify(response.body)).toBe(201);
      expect(response.body.success).toBe(true);
      expect(response.body.data).toEqual({
        transaction: {
          id: expect.stringMatching(/^wtx_/),
          type: "owner_credit",
          amount: "250.00",
          currency: "USD",
          balance_after: "250.00",
          fee_amount: "0.00",
          order_id: null,
          reference: "wire 42",
          created_at: expect.stringMatching(ISO_INSTANT),
        },
        wallet: untouchedWallet(tenant.tenantId, "250.00", "live"),
      });
      expect(await getWallet(server, tenant.key)).toEqual(response.body.data.wallet);
      expect((await allTransactions(server, tenant.key)).map((entry) => entry.id)).toEqual([response.body.data.transaction.id]);

      // A second credit adds to the first; fewer decimals than the currency's are fine.
      const second = await credit(server, tenant.tenantId, "0.5");
      expect(second.transaction).toMatchObject({ amount: "0.50", balance_after: "250.50", reference: null });
      expect((await getWallet(server, tenant.key)).balance).toBe("250.50");
    });

    it("adds to a sandbox wallet's play money", async () => {
      const tenant = await createTenant(server);
      expect((await credit(server, tenant.tenantId, "0.01")).wallet.balance).toBe("100000.01");
      expect((await getWallet(server, tenant.key)).balance).toBe("100000.01");
    });

    it("refuses a credit in a currency other than the wallet's with 422 currency_mismatch and credits nothing", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      expectError(await creditWallet(server, tenant.tenantId, { amount: "250.00", currency: "EUR" }), 422, "currency_mismatch");
      expect((await getWallet(server, tenant.key)).balance).toBe("0.00");
      expect(await allTransactions(server, tenant.key)).toEqual([]);
    });

    it.each([
      ["zero", "0"],
      ["zero with decimals", "0.00"],
      ["a negative amount", "-1"],
      ["a negative fraction", "-0.50"],
      ["more decimals than USD has", "1.234"],
      ["text", "abc"],
      ["exponent notation", "1e3"],
      ["an empty string", ""],
      ["a number instead of a string", 250],
    ])("refuses %s as the amount with 400 validation_failed naming amount, and credits nothing", async (_case, amount) => {
      const tenant = await createTenant(server, { environment: "live" });
      expectError(await creditWallet(server, tenant.tenantId, { amount, currency: "USD" }), 400, "validation_failed", "amount");
      expect((await getWallet(server, tenant.key)).balance).toBe("0.00");
      expect(await allTransactions(server, tenant.key)).toEqual([]);
    });

    it("allows no decimals in a JPY wallet (after re-denomination)", async () => {
      const tenant = await createTenant(server);
      expect((await patchCurrency(tenant, "JPY")).status).toBe(200);
      const before = await getWallet(server, tenant.key);
      expect(before).toMatchObject({ balance: "15000000", currency: "JPY" });
      expectError(await creditWallet(server, tenant.tenantId, { amount: "1.5", currency: "JPY" }), 400, "validation_failed", "amount");
      expectError(await creditWallet(server, tenant.tenantId, { amount: "1500", currency: "USD" }), 422, "currency_mismatch");
      expect((await getWallet(server, tenant.key)).balance).toBe("15000000");
      expect((await credit(server, tenant.tenantId, "1500", "JPY")).transaction).toMatchObject({ amount: "1500", currency: "JPY", balance_after: "15001500" });
    });

    it("answers 404 tenant_not_found for an unknown tenant", async () => {
      expectError(await creditWallet(server, "ten_00000000000000000000000000", { amount: "10.00", currency: "USD" }), 404, "tenant_not_found");
    });

    it("answers 409 tenant_deleted for a deleted tenant", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      const deleted = await call(server, "DELETE", `/v1/tenants/${tenant.tenantId}`, { key: server.ownerKey });
      expect(deleted.status, JSON.stringify(deleted.body)).toBe(200);
      expectError(await creditWallet(server, tenant.tenantId, { amount: "10.00", currency: "USD" }), 409, "tenant_deleted");
    });

    it("forbids a tenant key, even on its own wallet, with 403 forbidden", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      expectError(await creditWallet(server, tenant.tenantId, { amount: "10.00", currency: "USD" }, { key: tenant.key }), 403, "forbidden");
      expect((await getWallet(server, tenant.key)).balance).toBe("0.00");
    });

    it("replays a credit repeated with the same Idempotency-Key and body, crediting once", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      const headers = { "idempotency-key": `credit-${tenant.tenantId}` };
      const body = { amount: "75.25", currency: "USD", reference: "invoice 7" };
      const first = await creditWallet(server, tenant.tenantId, body, { headers });
      expect(first.status, JSON.stringify(first.body)).toBe(201);
      expect(first.headers.get("idempotent-replayed")).toBeNull();
      const again = await creditWallet(server, tenant.tenantId, body, { headers });
      expect(again.status).toBe(201);
      expect(again.headers.get("idempotent-replayed")).toBe("true");
      expect(again.body).toEqual(first.body);

      expect((await getWallet(server, tenant.key)).balance).toBe("75.25");
      const entries = await allTransactions(server, tenant.key);
      expect(entries.map((entry) => entry.id)).toEqual([first.body.data.transaction.id]);
    });

    it("refuses the same Idempotency-Key with a different body with 422 idempotency_key_reused, crediting once", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      const headers = { "idempotency-key": `credit-${tenant.tenantId}` };
      expect((await creditWallet(server, tenant.tenantId, { amount: "10.00", currency: "USD" }, { headers })).status).toBe(201);
      expectError(await creditWallet(server, tenant.tenantId, { amount: "20.00", currency: "USD" }, { headers }), 422, "idempotency_key_reused");
      expect((await getWallet(server, tenant.key)).balance).toBe("10.00");
      expect(await allTransactions(server, tenant.key)).toHaveLength(1);
    });
  });

  describe("orders move money through the ledger", () => {
    it("booking charges nothing; ticketing debits the total once, negative, with the order id", async () => {
      const tenant = await createTenant(server);
      const [offer] = await searchForBooking(server, tenant.key);
      const total = toMinor(offer.total_amount, offer.total_currency);
      const order = await bookOffer(server, tenant.key, offer);
      expect((await getWallet(server, tenant.key)).balance).toBe("100000.00");

      await ticketAndSettle(tenant, order.id);
      const entries = await allTransactions(server, tenant.key);
      expect(entries).toHaveLength(2);
      expect(entries[0]).toMatchObject({ type: "ticketing_debit", order_id: order.id, amount: `-${offer.total_amount}`, currency: "USD" });
      expect(toMinor(entries[0].balance_after, "USD")).toBe(10_000_000 - total);
      expect(toMinor((await getWallet(server, tenant.key)).balance, "USD")).toBe(10_000_000 - total);
    });

    it("an airline rejection reverses the debit with a positive ticketing_reversal of the same amount", async () => {
      const tenant = await createTenant(server);
      const [offer] = await searchForBooking(server, tenant.key);
      const order = await bookOffer(server, tenant.key, offer, { passengers: passengersOf(offer, { family_name: "Rejected" }) });
      const failed = await ticketAndSettle(tenant, order.id, "FAILED");
      expect(failed.failure_reason).toBe("airline_rejected");

      const entries = await allTransactions(server, tenant.key);
      expect(entriesOf(entries, order.id)).toEqual(["ticketing_debit", "ticketing_reversal"]);
      const debit = entries.find((entry) => entry.type === "ticketing_debit");
      const reversal = entries.find((entry) => entry.type === "ticketing_reversal");
      expect(debit.amount).toBe(`-${offer.total_amount}`);
      expect(reversal).toMatchObject({ amount: offer.total_amount, currency: "USD", order_id: order.id, balance_after: "100000.00" });
      expect(entries[0].id).toBe(reversal.id);
      expect((await getWallet(server, tenant.key)).balance).toBe("100000.00");
    });

    it("a refund credits the total less the fare's penalty, once", async () => {
      const tenant = await createTenant(server);
      const [offer] = await searchForBooking(server, tenant.key, { cabin: "business" });
      const condition = offer.conditions.refund_before_departure;
      expect(condition.allowed).toBe(true);
      const total = toMinor(offer.total_amount, offer.total_currency);
      const penalty = toMinor(condition.penalty_amount, condition.penalty_currency);
      const order = await bookOffer(server, tenant.key, offer);
      await ticketAndSettle(tenant, order.id);

      const refund = await refundOrder(tenant, order.id);
      expect(refund.status, JSON.stringify(refund.body)).toBe(200);
      expect(refund.body.data).toMatchObject({ status: "confirmed", refund_status: "in_progress" });
      const refunded = await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
      expect(refunded.body.data.refund_status).toBe("refunded");

      const entries = await allTransactions(server, tenant.key);
      expect(entriesOf(entries, order.id)).toEqual(["refund_credit", "ticketing_debit"]);
      const refundCredit = entries[0];
      expect(refundCredit).toMatchObject({ type: "refund_credit", order_id: order.id, currency: "USD" });
      expect(signedMinor(refundCredit.amount, "USD")).toBe(Math.max(0, total - penalty));
      const balance = 10_000_000 - total + Math.max(0, total - penalty);
      expect(toMinor(refundCredit.balance_after, "USD")).toBe(balance);
      expect(toMinor((await getWallet(server, tenant.key)).balance, "USD")).toBe(balance);

      // A second refund is refused and credits nothing.
      expectError(await refundOrder(tenant, order.id), 409, "order_state_conflict");
      expect(toMinor((await getWallet(server, tenant.key)).balance, "USD")).toBe(balance);
    });

    it("refuses to refund a non-refundable economy fare with 422 refund_not_allowed, moving no money", async () => {
      const tenant = await createTenant(server);
      const [offer] = await searchForBooking(server, tenant.key, { cabin: "economy" });
      expect(offer.conditions.refund_before_departure.allowed).toBe(false);
      const order = await bookOffer(server, tenant.key, offer);
      await ticketAndSettle(tenant, order.id);
      const before = await getWallet(server, tenant.key);

      expectError(await refundOrder(tenant, order.id), 422, "refund_not_allowed");
      expect((await getWallet(server, tenant.key)).balance).toBe(before.balance);
      expect(entriesOf(await allTransactions(server, tenant.key), order.id)).toEqual(["ticketing_debit"]);
    });

    it("never goes below zero: a second order the wallet cannot cover is refused with 402 and stays pending", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      const { expensive, cheap } = await twoOffers(tenant);
      await credit(server, tenant.tenantId, expensive.total_amount);
      // Both can be booked: the wallet covers each of them on its own.
      const first = await bookOffer(server, tenant.key, expensive);
      const second = await bookOffer(server, tenant.key, cheap);

      await ticketAndSettle(tenant, first.id);
      expect((await getWallet(server, tenant.key)).balance).toBe("0.00");
      expectError(await ticketOrder(server, tenant.key, second.id), 402, "insufficient_balance");

      expect((await getWallet(server, tenant.key)).balance).toBe("0.00");
      expect((await waitForStatus(server, tenant.key, second.id, ["PENDING"])).body.data.ticketing_status).toBe("not_started");
      const entries = await allTransactions(server, tenant.key);
      expect(entries.map((entry) => entry.type)).toEqual(["ticketing_debit", "owner_credit"]);
      expect(entries[0]).toMatchObject({ order_id: first.id, balance_after: "0.00" });
      expect(entries.every((entry) => !entry.balance_after.startsWith("-"))).toBe(true);
    });

    it("cannot be overdrawn by concurrent tickets: of two orders the wallet covers one at a time, exactly one is ticketed", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      const { expensive, cheap } = await twoOffers(tenant);
      await credit(server, tenant.tenantId, expensive.total_amount);
      const orders = [await bookOffer(server, tenant.key, expensive), await bookOffer(server, tenant.key, cheap)];

      const answers = await Promise.all(orders.map((order) => ticketOrder(server, tenant.key, order.id)));
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 402]);
      const refused = answers.find((answer) => answer.status === 402)!;
      expectError(refused, 402, "insufficient_balance");
      const winner = orders[answers.findIndex((answer) => answer.status === 200)]!;
      await waitForStatus(server, tenant.key, winner.id, ["TICKETED"]);

      const entries = await allTransactions(server, tenant.key);
      expect(entries.map((entry) => [entry.type, entry.order_id])).toEqual([
        ["ticketing_debit", winner.id],
        ["owner_credit", null],
      ]);
      const balance = toMinor(expensive.total_amount, "USD") - toMinor(winner === orders[0] ? expensive.total_amount : cheap.total_amount, "USD");
      expect(toMinor((await getWallet(server, tenant.key)).balance, "USD")).toBe(balance);
      expect(toMinor(entries[0].balance_after, "USD")).toBe(balance);
    });
  });

  describe("re-denominating a sandbox wallet", () => {
    it("converts 100000.00 USD to 92000.00 EUR with a closing and an opening redenomination entry", async () => {
      const tenant = await createTenant(server);
      const response = await patchCurrency(tenant, "EUR");
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(response.body.data.default_currency).toBe("EUR");
      expect(await getWallet(server, tenant.key)).toMatchObject({ balance: "92000.00", currency: "EUR" });

      const entries = await allTransactions(server, tenant.key);
      expect(entries.map((entry) => entry.type)).toEqual(["redenomination", "redenomination", "opening_balance"]);
      const redenominations = entries.slice(0, 2).sort((a, b) => a.currency.localeCompare(b.currency));
      expect(redenominations).toEqual([
        expect.objectContaining({ amount: "92000.00", currency: "EUR", balance_after: "92000.00", order_id: null, reference: expect.any(String) }),
        expect.objectContaining({ amount: "-100000.00", currency: "USD", balance_after: "0.00", order_id: null }),
      ]);
      expect(sumsByCurrency(entries)).toEqual({ USD: 0, EUR: 9_200_000 });
    });

    it("lists a re-denomination's opening entry as the newest, so the newest balance_after is always the balance", async () => {
      // The closing and the opening entry are written in one transaction; the ledger must still
      // list the opening one first (newest first), every time. Eight conversions, each checked.
      const tenant = await createTenant(server);
      for (const next of ["EUR", "USD", "GBP", "USD", "CHF", "USD", "EUR", "USD"]) {
        expect((await patchCurrency(tenant, next)).status).toBe(200);
        const wallet = await getWallet(server, tenant.key);
        const [newest, previous] = await allTransactions(server, tenant.key);
        expect({ newest: [newest.currency, newest.balance_after], previous: previous.balance_after }, `after re-denominating to ${next}`).toEqual({
          newest: [next, wallet.balance],
          previous: "0.00",
        });
      }
    });

    it("converts any balance exactly as the static rate table does, through several currencies", async () => {
      const tenant = await createTenant(server);
      await credit(server, tenant.tenantId, "0.37");
      let balance = 10_000_037;
      let currency = "USD";
      for (const next of ["EUR", "JPY", "GBP"]) {
        const response = await patchCurrency(tenant, next);
        expect(response.status, JSON.stringify(response.body)).toBe(200);
        const converted = convertMinor(balance, currency, next);
        const wallet = await getWallet(server, tenant.key);
        expect(wallet.currency).toBe(next);
        expect(toMinor(wallet.balance, next)).toBe(converted);

        const entries = await allTransactions(server, tenant.key);
        // The two newest entries, whichever order they are listed in (the first test asserts that).
        const latest = entries.slice(0, 2);
        const closing = latest.find((entry) => entry.currency === currency);
        const opening = latest.find((entry) => entry.currency === next);
        expect(closing).toMatchObject({ type: "redenomination", currency, balance_after: currency === "JPY" ? "0" : "0.00" });
        expect(signedMinor(closing.amount, currency)).toBe(-balance);
        expect(opening).toMatchObject({ type: "redenomination", currency: next, amount: wallet.balance, balance_after: wallet.balance });
        // Each currency's entries sum to what the wallet holds in it: everything in the current one, nothing in the others.
        const sums = sumsByCurrency(entries);
        expect(sums[next]).toBe(converted);
        for (const [other, sum] of Object.entries(sums)) if (other !== next) expect(sum, other).toBe(0);
        balance = converted;
        currency = next;
      }
      // 100000.37 USD → 92000.34 EUR → 15000055 JPY → 79000.29 GBP (half up at each step).
      expect(balance).toBe(7_900_029);
    });

    it("debits later tickets in the new currency", async () => {
      const tenant = await createTenant(server);
      expect((await patchCurrency(tenant, "EUR")).status).toBe(200);
      const [offer] = await searchForBooking(server, tenant.key);
      expect(offer.total_currency).toBe("EUR");
      const order = await bookOffer(server, tenant.key, offer);
      await ticketAndSettle(tenant, order.id);
      const [debit] = await allTransactions(server, tenant.key);
      expect(debit).toMatchObject({ type: "ticketing_debit", order_id: order.id, currency: "EUR", amount: `-${offer.total_amount}` });
      expect(toMinor((await getWallet(server, tenant.key)).balance, "EUR")).toBe(9_200_000 - toMinor(offer.total_amount, "EUR"));
    });
  });

  describe("a live tenant's currency lock", () => {
    it("locks default_currency with 422 currency_locked while the wallet holds money", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      await credit(server, tenant.tenantId, "10.00");
      expectError(await patchCurrency(tenant, "EUR"), 422, "currency_locked", "default_currency");
      expect(await getWallet(server, tenant.key)).toMatchObject({ balance: "10.00", currency: "USD" });
      expect((await call(server, "GET", "/v1/tenant", { key: tenant.key })).body.data.default_currency).toBe("USD");
      expect((await allTransactions(server, tenant.key)).map((entry) => entry.type)).toEqual(["owner_credit"]);
    });

    it("locks it while an order is pending even when the wallet is empty, and frees it once the order is cancelled", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      const { expensive, cheap } = await twoOffers(tenant);
      await credit(server, tenant.tenantId, expensive.total_amount);
      const first = await bookOffer(server, tenant.key, expensive);
      const pending = await bookOffer(server, tenant.key, cheap);
      expectError(await patchCurrency(tenant, "EUR"), 422, "currency_locked", "default_currency");

      // Spend the money: the wallet is empty, but the second order is still pending.
      await ticketAndSettle(tenant, first.id);
      expect((await getWallet(server, tenant.key)).balance).toBe("0.00");
      expectError(await patchCurrency(tenant, "EUR"), 422, "currency_locked", "default_currency");
      expect((await getWallet(server, tenant.key)).currency).toBe("USD");

      expect((await cancelOrder(tenant, pending.id)).status).toBe(200);
      const changed = await patchCurrency(tenant, "EUR");
      expect(changed.status, JSON.stringify(changed.body)).toBe(200);
      expect(await getWallet(server, tenant.key)).toMatchObject({ balance: "0.00", currency: "EUR" });
      // A live wallet is not re-denominated: nothing is written to the ledger.
      expect((await allTransactions(server, tenant.key)).map((entry) => entry.type)).toEqual(["ticketing_debit", "owner_credit"]);
    });

    it("lets an empty live wallet with no open orders change currency, and then credits only in the new one", async () => {
      const tenant = await createTenant(server, { environment: "live" });
      const response = await patchCurrency(tenant, "EUR");
      expect(response.status, JSON.stringify(response.body)).toBe(200);
      expect(await getWallet(server, tenant.key)).toMatchObject({ balance: "0.00", currency: "EUR" });
      expect(await allTransactions(server, tenant.key)).toEqual([]);
      expectError(await creditWallet(server, tenant.tenantId, { amount: "5.00", currency: "USD" }), 422, "currency_mismatch");
      expect((await credit(server, tenant.tenantId, "5.00", "EUR")).wallet).toMatchObject({ balance: "5.00", currency: "EUR" });
    });
  });
});
