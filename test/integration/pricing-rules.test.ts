import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { daysAhead } from "../helpers/offers";
import { allTransactions, bookOffer, searchForBooking, signedMinor, ticketOrder, waitForStatus } from "../helpers/orders";
import { subscribe, wsClient } from "../helpers/subscriptions";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * The owner's pricing rules (docs/running-the-platform.md#fees), through the HTTP API, GraphQL and
 * graphql-ws:
 * - owner only (a tenant key gets 403 forbidden on every path); every bad value is 422
 *   invalid_field_value naming the field, and nothing is stored;
 * - every offer carries fee_amount and fee_currency, in total_amount = base + tax + fee: both
 *   search variants, offer reads, batch offer requests, searchOffers, GraphQL;
 * - a tenant's own rule wins over platform-wide ones; matching by carrier and route;
 * - the fee is fixed at search time, kept in the order, debited with it and ledgered as fee_amount;
 * - a refund gives the fee back only when the rule said refundable;
 * - the fare calendar shows prices with the fee.
 */

describe("pricing rules", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "0" } });
  });
  afterAll(() => server.close());

  const asOwner = (method: string, path: string, body?: unknown) => call(server, method, path, { key: server.ownerKey, body });
  const createRule = async (body: Record<string, unknown>) => {
    const response = await asOwner("POST", "/v1/pricing_rules", { name: "Fee", ...body });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    return response.body.data;
  };
  const ruleCount = async () => (await asOwner("GET", "/v1/pricing_rules?limit=1")).body.data.pagination.total as number;
  const minor = (offer: any, field: string) => toMinor(offer[field], offer.total_currency ?? offer.currency);
  /** base + tax + fee is the total, exactly. */
  const expectSplit = (offer: any) => {
    expect(offer.fee_currency).toBe(offer.total_currency);
    expect(minor(offer, "base_amount") + minor(offer, "tax_amount") + minor(offer, "fee_amount"), offer.id).toBe(minor(offer, "total_amount"));
  };
  const beforeFee = (offer: any) => minor(offer, "total_amount") - minor(offer, "fee_amount");
  /** 10 % of the total before the fee, rounded half up. */
  const tenPercent = (offer: any) => Math.round(beforeFee(offer) / 10);

  describe("managing rules", () => {
    it("creates, reads, lists by tenant, changes and deletes a rule, as the owner", async () => {
      const tenant = await createTenant(server);
      const created = await createRule({ tenant_id: tenant.tenantId, name: "Agency markup", match: { origin: "GB", cabin_class: "business" }, fee: { percent: "2.50", fixed_amount: "5", fixed_currency: "EUR", per: "passenger" }, priority: 7 });
      expect(created).toEqual({
        id: expect.stringMatching(/^prr_/),
        tenant_id: tenant.tenantId,
        name: "Agency markup",
        match: { supplier: null, carrier: null, origin: "GB", destination: null, cabin_class: "business", environment: null },
        fee: { percent: "2.5", fixed_amount: "5.00", fixed_currency: "EUR", per: "passenger" },
        priority: 7,
        refundable: false,
        active: true,
        created_at: expect.any(String),
        updated_at: expect.any(String),
      });
      expect((await asOwner("GET", `/v1/pricing_rules/${created.id}`)).body.data).toEqual(created);
      const listed = await asOwner("GET", `/v1/pricing_rules?tenant_id=${tenant.tenantId}`);
      expect(listed.body.data.items.map((rule: any) => rule.id)).toEqual([created.id]);

      const patched = await asOwner("PATCH", `/v1/pricing_rules/${created.id}`, { fee: { percent: "3" }, active: false });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body.data).toMatchObject({ fee: { percent: "3", fixed_amount: null, fixed_currency: null, per: "order" }, active: false, match: created.match, priority: 7 });

      const deleted = await asOwner("DELETE", `/v1/pricing_rules/${created.id}`);
      expect(deleted.body.data.id).toBe(created.id);
      expectError(await asOwner("GET", `/v1/pricing_rules/${created.id}`), 404, "not_found");
      expectError(await asOwner("PATCH", `/v1/pricing_rules/${created.id}`, { active: true }), 404, "not_found");
      expectError(await asOwner("DELETE", `/v1/pricing_rules/${created.id}`), 404, "not_found");
    });

    it("answers a tenant key 403 forbidden on every pricing rule path", async () => {
      const tenant = await createTenant(server);
      const rule = await createRule({ tenant_id: tenant.tenantId, fee: { percent: "1" } });
      const paths: Array<[string, string, unknown?]> = [
        ["GET", "/v1/pricing_rules"],
        ["POST", "/v1/pricing_rules", { name: "Mine", fee: { percent: "1" } }],
        ["GET", `/v1/pricing_rules/${rule.id}`],
        ["PATCH", `/v1/pricing_rules/${rule.id}`, { active: false }],
        ["DELETE", `/v1/pricing_rules/${rule.id}`],
      ];
      for (const [method, path, body] of paths) expectError(await call(server, method, path, { key: tenant.key, body }), 403, "forbidden");
      expect((await asOwner("GET", `/v1/pricing_rules/${rule.id}`)).body.data).toEqual(rule);
      expectGraphQLError(await graphql(server, "{ pricingRules { totalCount } }", {}, { key: tenant.key }), "forbidden");
    });

    it("refuses every bad value with 422 invalid_field_value naming the field, and stores nothing", async () => {
      const tenant = await createTenant(server);
      const before = await ruleCount();
      const bad: Array<[Record<string, unknown>, string]> = [
        [{ fee: { percent: "100.5" } }, "fee.percent"],
        [{ fee: { percent: "0" } }, "fee.percent"],
        [{ fee: { percent: "-2" } }, "fee.percent"],
        [{ fee: { percent: 5 } }, "fee.percent"],
        [{ fee: { percent: "2.00001" } }, "fee.percent"],
        [{ fee: { fixed_amount: "0", fixed_currency: "USD" } }, "fee.fixed_amount"],
        [{ fee: { fixed_amount: "-3.00", fixed_currency: "USD" } }, "fee.fixed_amount"],
        [{ fee: { fixed_amount: "3.001", fixed_currency: "USD" } }, "fee.fixed_amount"],
        [{ fee: { fixed_amount: "3.00", fixed_currency: "XYZ" } }, "fee.fixed_currency"],
        [{ fee: { fixed_amount: "3.00" } }, "fee.fixed_currency"],
        [{ fee: {} }, "fee"],
        [{ fee: { percent: "1", per: "seat" } }, "fee.per"],
        [{ fee: { percent: "1" }, match: { supplier: "acme_air" } }, "match.supplier"],
        [{ fee: { percent: "1" }, match: { origin: "ZZZ" } }, "match.origin"],
        [{ fee: { percent: "1" }, match: { destination: "QQ" } }, "match.destination"],
        [{ fee: { percent: "1" }, match: { origin: "london" } }, "match.origin"],
        [{ fee: { percent: "1" }, match: { carrier: "BAW" } }, "match.carrier"],
        [{ fee: { percent: "1" }, match: { cabin_class: "coach" } }, "match.cabin_class"],
        [{ fee: { percent: "1" }, match: { environment: "production" } }, "match.environment"],
        [{ fee: { percent: "1" }, match: { terminal: "5" } }, "match.terminal"],
        [{ fee: { percent: "1" }, tenant_id: "ten_doesnotexist" }, "tenant_id"],
        [{ fee: { percent: "1" }, priority: 1.5 }, "priority"],
        [{ fee: { percent: "1" }, name: "" }, "name"],
      ];
      for (const [body, field] of bad) {
        const response = await asOwner("POST", "/v1/pricing_rules", { name: "Bad", ...body });
        expectError(response, 422, "invalid_field_value", field);
      }
      const rule = await createRule({ tenant_id: tenant.tenantId, fee: { percent: "1" } });
      for (const [patch, field] of [
        [{ fee: { percent: "101" } }, "fee.percent"],
        [{ match: { origin: "XXX" } }, "match.origin"],
        [{ tenant_id: null }, "tenant_id"],
        [{}, ""],
      ] as Array<[Record<string, unknown>, string]>) {
        const response = await asOwner("PATCH", `/v1/pricing_rules/${rule.id}`, patch);
        expect(response.status, JSON.stringify(patch)).toBe(422);
        expect(response.body.errors[0].code).toBe("invalid_field_value");
        if (field) expect(response.body.errors[0].field).toBe(field);
      }
      expect((await asOwner("GET", `/v1/pricing_rules/${rule.id}`)).body.data).toEqual(rule);
      expect(await ruleCount()).toBe(before + 1);
      const graphqlBad = await graphql(server, `mutation { createPricingRule(input: { name: "Bad", fee: { percent: "250" } }) { id } }`, {}, { key: server.ownerKey });
      expectGraphQLError(graphqlBad, "invalid_field_value", { field: "fee.percent" });
      expect(await ruleCount()).toBe(before + 1);
    });
  });

  describe("fees on offers", () => {
    it("adds nothing without a rule: fee_amount 0.00 on every offer, base + tax the total", async () => {
      const tenant = await createTenant(server);
      const offers = await searchForBooking(server, tenant.key);
      for (const offer of offers) {
        expect(offer.fee_amount).toBe("0.00");
        expectSplit(offer);
      }
    });

    it("shows the fee on every offer of both search variants, offer reads, GraphQL and batch offer requests, in the total", async () => {
      const tenant = await createTenant(server);
      await createRule({ tenant_id: tenant.tenantId, fee: { percent: "10" } });
      const offers = await searchForBooking(server, tenant.key);
      for (const offer of offers) {
        expectSplit(offer);
        expect(minor(offer, "fee_amount")).toBe(tenPercent(offer));
      }
      const [offer] = offers;
      const read = await call(server, "GET", `/v1/air/offers/${offer.id}`, { key: tenant.key });
      expect(read.body.data).toMatchObject({ total_amount: offer.total_amount, fee_amount: offer.fee_amount, base_amount: offer.base_amount });
      const listed = await call(server, "GET", `/v1/air/offers?limit=5`, { key: tenant.key });
      for (const each of listed.body.data.items) expect(minor(each, "fee_amount")).toBe(tenPercent(each));

      const variantB = await call(server, "POST", "/v1/air/search", {
        key: tenant.key,
        body: { data: { slices: [{ origin: "LHR", destination: "JFK", departure_date: daysAhead(40) }], passengers: [{ type: "adult" }], cabin_class: "economy" }, return_offers: true },
      });
      expect(variantB.status).toBe(200);
      expect(variantB.body.data.length).toBeGreaterThan(0);
      for (const each of variantB.body.data) expect(toMinor(each.fee_amount, each.currency)).toBe(Math.round((toMinor(each.total_amount, each.currency) - toMinor(each.fee_amount, each.currency)) / 10));

      const viaGraphql = await graphql(server, `query ($id: ID!) { offer(id: $id) { totalAmount baseAmount taxAmount feeAmount feeCurrency } }`, { id: offer.id }, { key: tenant.key });
      expect(viaGraphql.body.data!.offer).toEqual({ totalAmount: offer.total_amount, baseAmount: offer.base_amount, taxAmount: offer.tax_amount, feeAmount: offer.fee_amount, feeCurrency: "USD" });

      const batch = await call(server, "POST", "/v1/air/batch_offer_requests", { key: tenant.key, body: { slices: [{ origin: "LON", destination: "BCN", departure_date: daysAhead(41) }], passengers: [{ type: "adult", id: "p1" }] } });
      expect(batch.status).toBe(201);
      const batchOffers: any[] = [];
      for (let read = 0; read < 2; read++) batchOffers.push(...(await call(server, "GET", `/v1/air/batch_offer_requests/${batch.body.data.id}`, { key: tenant.key })).body.data.offers);
      expect(batchOffers.length).toBeGreaterThan(0);
      for (const each of batchOffers) {
        expectSplit(each);
        expect(minor(each, "fee_amount")).toBe(tenPercent(each));
      }
    });

    it("carries the fee in the searchOffers subscription's offers", async () => {
      const tenant = await createTenant(server);
      await createRule({ tenant_id: tenant.tenantId, fee: { fixed_amount: "12.34", fixed_currency: "USD" } });
      const client = wsClient(server.wsUrl, { authorization: `Bearer ${tenant.key}` });
      try {
        const subscription = subscribe(client, `subscription ($input: SearchFlightsInput!) { searchOffers(input: $input) { offers { totalAmount baseAmount taxAmount feeAmount feeCurrency } } }`, {
          input: { slices: [{ origin: "LON", destination: "BCN", departureDate: daysAhead(42) }], passengers: [{ type: "ADULT", id: "p1" }] },
        });
        await subscription.waitForEnd();
        const offers = subscription.results.flatMap((result) => result.data.searchOffers.offers);
        expect(offers.length).toBeGreaterThan(0);
        for (const offer of offers) {
          expect(offer).toMatchObject({ feeAmount: "12.34", feeCurrency: "USD" });
          expect(toMinor(offer.baseAmount, "USD") + toMinor(offer.taxAmount, "USD") + 1234).toBe(toMinor(offer.totalAmount, "USD"));
        }
      } finally {
        await client.dispose();
      }
    });

    it("applies the tenant's own rule over a platform-wide one of higher priority, and the platform-wide one to other tenants", async () => {
      const own = await createTenant(server);
      const other = await createTenant(server);
      // Platform-wide: removed at the end, so the other tests' tenants are not priced by it.
      const platform = await createRule({ name: "Platform", fee: { fixed_amount: "1.00", fixed_currency: "USD" }, priority: 100, match: { destination: "NYC" } });
      try {
        await createRule({ tenant_id: own.tenantId, fee: { fixed_amount: "7.00", fixed_currency: "USD" }, priority: -1 });
        for (const offer of await searchForBooking(server, own.key)) expect(offer.fee_amount).toBe("7.00");
        for (const offer of await searchForBooking(server, other.key)) expect(offer.fee_amount).toBe("1.00");
        // The platform-wide rule names New York: a search elsewhere has no fee.
        for (const offer of await searchForBooking(server, other.key, { origin: "LHR", destination: "CDG" })) expect(offer.fee_amount).toBe("0.00");
      } finally {
        await asOwner("DELETE", `/v1/pricing_rules/${platform.id}`);
      }
    });

    it("matches by carrier: only the offers its airline owns carry the fee", async () => {
      const tenant = await createTenant(server);
      const offers = await searchForBooking(server, tenant.key, { reuseFlights: true, days: 50 });
      const carriers = [...new Set(offers.map((offer) => offer.owner.iata_code))];
      expect(carriers.length).toBeGreaterThan(1);
      await createRule({ tenant_id: tenant.tenantId, match: { carrier: carriers[0] }, fee: { percent: "10" } });
      const again = await searchForBooking(server, tenant.key, { reuseFlights: true, days: 50 });
      for (const offer of again) expect(minor(offer, "fee_amount"), offer.owner.iata_code).toBe(offer.owner.iata_code === carriers[0] ? tenPercent(offer) : 0);
    });

    it("shows fare calendar prices with the fee an offer would carry", async () => {
      const tenant = await createTenant(server);
      const calendar = async () => (await call(server, "GET", `/v1/air/fare_calendar?origin=LHR&destination=JFK&from=${daysAhead(60)}&to=${daysAhead(62)}`, { key: tenant.key })).body.data as any[];
      const before = await calendar();
      expect(before.length).toBeGreaterThan(0);
      await createRule({ tenant_id: tenant.tenantId, fee: { fixed_amount: "25.00", fixed_currency: "USD" } });
      const after = await calendar();
      expect(after.map((day) => [day.departure_date, toMinor(day.lowest_total_amount, "USD")])).toEqual(before.map((day) => [day.departure_date, toMinor(day.lowest_total_amount, "USD") + 2500]));
      const ideas = (await call(server, "GET", `/v1/air/destinations?origin=LHR&month=${daysAhead(60).slice(0, 7)}`, { key: tenant.key })).body.data as any[];
      expect(ideas.length).toBeGreaterThan(0);
      const [cheapest] = ideas;
      const search = await searchForBooking(server, tenant.key, { destination: cheapest.destination.iata_code, days: Math.round((Date.parse(cheapest.departure_date) - Date.parse(daysAhead(0))) / 86_400_000), reuseFlights: true });
      expect(search.every((offer) => offer.fee_amount === "25.00")).toBe(true);
    });
  });

  describe("the fee in orders and the ledger", () => {
    it("keeps the fee fixed at search time: a rule changed later changes neither the offer nor the order, and the debit is the offer's total with its fee", async () => {
      const tenant = await createTenant(server);
      const rule = await createRule({ tenant_id: tenant.tenantId, fee: { percent: "10" } });
      const [offer] = await searchForBooking(server, tenant.key);
      expect(minor(offer, "fee_amount")).toBe(tenPercent(offer));
      await asOwner("PATCH", `/v1/pricing_rules/${rule.id}`, { fee: { fixed_amount: "99.00", fixed_currency: "USD" } });
      const reread = await call(server, "GET", `/v1/air/offers/${offer.id}`, { key: tenant.key });
      expect(reread.body.data).toMatchObject({ total_amount: offer.total_amount, fee_amount: offer.fee_amount });

      const order = await bookOffer(server, tenant.key, offer);
      expect(order).toMatchObject({ total_amount: offer.total_amount, fee_amount: offer.fee_amount, fee_currency: "USD", base_amount: offer.base_amount, tax_amount: offer.tax_amount });
      await asOwner("DELETE", `/v1/pricing_rules/${rule.id}`);
      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
      const ticketed = await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
      expect(ticketed.body.data.fee_amount).toBe(offer.fee_amount);
      const debit = (await allTransactions(server, tenant.key)).find((entry) => entry.order_id === order.id && entry.type === "ticketing_debit");
      expect(signedMinor(debit.amount, "USD")).toBe(-minor(offer, "total_amount"));
      expect(debit.fee_amount).toBe(offer.fee_amount);
      const viaGraphql = await graphql(server, `query ($id: ID!) { order(id: $id) { totalAmount feeAmount feeCurrency } wallet { transactions(first: 5) { nodes { type orderId feeAmount } } } }`, { id: order.id }, { key: tenant.key });
      expect(viaGraphql.body.data!.order).toEqual({ totalAmount: offer.total_amount, feeAmount: offer.fee_amount, feeCurrency: "USD" });
      expect(viaGraphql.body.data!.wallet.transactions.nodes).toContainEqual({ type: "TICKETING_DEBIT", orderId: order.id, feeAmount: offer.fee_amount });
      // Other entries carry no fee.
      expect((await allTransactions(server, tenant.key)).find((entry) => entry.type === "opening_balance").fee_amount).toBe("0.00");
    });

    async function refundedWith(refundable: boolean) {
      const tenant = await createTenant(server);
      await createRule({ tenant_id: tenant.tenantId, fee: { fixed_amount: "20.00", fixed_currency: "USD" }, refundable });
      const [offer] = await searchForBooking(server, tenant.key, { cabin: "business" });
      const condition = offer.conditions.refund_before_departure;
      expect(condition.allowed).toBe(true);
      const order = await bookOffer(server, tenant.key, offer);
      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
      await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
      const refund = await call(server, "POST", `/v1/air/orders/${order.id}/actions/refund`, { key: tenant.key });
      expect(refund.status, JSON.stringify(refund.body)).toBe(200);
      await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
      const credit = await eventually(
        async () => (await allTransactions(server, tenant.key)).find((entry) => entry.order_id === order.id && entry.type === "refund_credit"),
        () => "no refund credit",
      );
      const penalty = toMinor(condition.penalty_amount, condition.penalty_currency);
      return { credit, paidBeforeFee: beforeFee(offer), penalty };
    }

    it("keeps a non-refundable fee on a refund: the wallet gets back the fare less its penalty, no fee", async () => {
      const { credit, paidBeforeFee, penalty } = await refundedWith(false);
      expect(signedMinor(credit.amount, "USD")).toBe(Math.max(0, paidBeforeFee - penalty));
      expect(credit.fee_amount).toBe("0.00");
    });

    it("gives a refundable fee back with the refund, and says so on the ledger entry", async () => {
      const { credit, paidBeforeFee, penalty } = await refundedWith(true);
      expect(signedMinor(credit.amount, "USD")).toBe(Math.max(0, paidBeforeFee - penalty) + 2000);
      expect(credit.fee_amount).toBe("20.00");
    });
  });

  describe("GraphQL twin", () => {
    it("creates, lists, changes and deletes rules as the owner", async () => {
      const tenant = await createTenant(server);
      const fields = "id tenantId name priority refundable active match { supplier carrier origin destination cabinClass environment } fee { percent fixedAmount fixedCurrency per }";
      const created = await graphql(
        server,
        `mutation ($input: CreatePricingRuleInput!) { createPricingRule(input: $input) { ${fields} } }`,
        { input: { tenantId: tenant.tenantId, name: "GraphQL rule", match: { carrier: "ZA", cabinClass: "FIRST", environment: "SANDBOX" }, fee: { percent: "4", per: "PASSENGER" }, refundable: true } },
        { key: server.ownerKey },
      );
      expect(created.body.errors).toBeUndefined();
      const rule = created.body.data!.createPricingRule;
      expect(rule).toMatchObject({ tenantId: tenant.tenantId, priority: 0, refundable: true, active: true, match: { carrier: "ZA", cabinClass: "FIRST", environment: "SANDBOX", origin: null }, fee: { percent: "4", fixedAmount: null, per: "PASSENGER" } });
      const rest = await asOwner("GET", `/v1/pricing_rules/${rule.id}`);
      expect(rest.body.data).toMatchObject({ match: { carrier: "ZA", cabin_class: "first", environment: "sandbox" }, fee: { percent: "4", per: "passenger" }, refundable: true });

      const listed = await graphql(server, `query ($tenantId: ID) { pricingRules(tenantId: $tenantId) { totalCount nodes { id } } }`, { tenantId: tenant.tenantId }, { key: server.ownerKey });
      expect(listed.body.data!.pricingRules).toEqual({ totalCount: 1, nodes: [{ id: rule.id }] });
      const updated = await graphql(server, `mutation ($id: ID!) { updatePricingRule(id: $id, input: { priority: 3, fee: { fixedAmount: "2.00", fixedCurrency: "GBP" } }) { priority fee { percent fixedAmount fixedCurrency per } } }`, { id: rule.id }, { key: server.ownerKey });
      expect(updated.body.data!.updatePricingRule).toEqual({ priority: 3, fee: { percent: null, fixedAmount: "2.00", fixedCurrency: "GBP", per: "ORDER" } });
      const deleted = await graphql(server, `mutation ($id: ID!) { deletePricingRule(id: $id) { id } }`, { id: rule.id }, { key: server.ownerKey });
      expect(deleted.body.data!.deletePricingRule.id).toBe(rule.id);
      const gone = await graphql(server, `query ($id: ID!) { pricingRule(id: $id) { id } }`, { id: rule.id }, { key: server.ownerKey });
      expect(gone.body.data!.pricingRule).toBeNull();
    });
  });
});
