import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { bookSeparateOrders, expectCreditHoldsUnderRace, walletFigures } from "../helpers/credit";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { createOrderA, searchForBooking, ticketOrder } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { credit } from "../helpers/wallet";

/**
 * The wallet's credit limit and low-balance threshold (docs/rest-api.md#credit-and-low-balance-alerts):
 * the owner lets a tenant's balance go down to −credit_limit; booking, paying and ticketing need
 * balance + credit_limit to cover the total (402 insufficient_balance otherwise), and concurrent
 * ticketings never take the balance below −credit_limit. The owner sets both on PATCH
 * /v1/tenants/:id/wallet, the tenant its threshold on PATCH /v1/wallet (wallet: write); each change
 * is audited as wallet.settings_updated.
 */

describe("credit limits and low-balance thresholds", () => {
  let server: TestServer;
  beforeAll(async () => {
    // Ticketing jobs wait: the race below is about the debits, not the airline's answers.
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "60000" } });
  });
  afterAll(() => server?.close());

  const setWallet = (tenantId: string, body: unknown, key = server.ownerKey) => call(server, "PATCH", `/v1/tenants/${tenantId}/wallet`, { key, body });
  const wallet = async (tenant: TenantFixture) => (await call(server, "GET", "/v1/wallet", { key: tenant.key })).body.data;
  const liveTenant = () => createTenant(server, { environment: "live" });
  const auditEvents = async (tenantId: string) =>
    (await call(server, "GET", `/v1/audit_events?tenant_id=${tenantId}&action=wallet.settings_updated`, { key: server.ownerKey })).body.data.items as any[];

  describe("the owner sets the credit limit", () => {
    it("shows it on the wallet, in available, and audits the change with before and after", async () => {
      const tenant = await liveTenant();
      const set = await setWallet(tenant.tenantId, { credit_limit: "2500.5" });
      expect(set.status, JSON.stringify(set.body)).toBe(200);
      expect(set.body.data).toMatchObject({ balance: "0.00", credit_limit: "2500.50", available: "2500.50", low_balance_threshold: null });
      expect(await wallet(tenant)).toMatchObject({ credit_limit: "2500.50", available: "2500.50" });
      const [event] = await auditEvents(tenant.tenantId);
      expect(event).toMatchObject({ action: "wallet.settings_updated", target: { type: "wallet", id: tenant.tenantId }, changes: { credit_limit: { from: "0.00", to: "2500.50" } } });
      expect(Object.keys(event.changes)).toEqual(["credit_limit"]);
    });

    it.each([["-1"], ["abc"], ["1.001"], [""], [12], [null], ["99999999999999"]])("refuses credit_limit %j with 422 invalid_field_value naming it, changing nothing", async (value) => {
      const tenant = await liveTenant();
      await setWallet(tenant.tenantId, { credit_limit: "100.00" });
      const before = await wallet(tenant);
      expectError(await setWallet(tenant.tenantId, { credit_limit: value, hold_limits: { max_unpaid_orders: 3 } }), 422, "invalid_field_value", "credit_limit");
      expect(await wallet(tenant)).toEqual(before);
      expect(await auditEvents(tenant.tenantId)).toHaveLength(1);
    });

    it("a tenant key cannot set it (403), nor name it on PATCH /v1/wallet (422)", async () => {
      const tenant = await liveTenant();
      expect((await setWallet(tenant.tenantId, { credit_limit: "100.00" }, tenant.key)).status).toBe(403);
      expectError(await call(server, "PATCH", "/v1/wallet", { key: tenant.key, body: { credit_limit: "100.00" } }), 422, "invalid_field_value");
      expect((await wallet(tenant)).credit_limit).toBe("0.00");
    });

    it("GraphQL updateTenantWallet sets it; a bad one is invalid_field_value naming creditLimit", async () => {
      const tenant = await liveTenant();
      const mutation = "mutation ($id: ID!, $input: UpdateTenantWalletInput!) { updateTenantWallet(tenantId: $id, input: $input) { creditLimit available lowBalanceThreshold } }";
      const set = await graphql(server, mutation, { id: tenant.tenantId, input: { creditLimit: "40.00", lowBalanceThreshold: "10.00" } }, { key: server.ownerKey });
      expect(set.body.data.updateTenantWallet).toEqual({ creditLimit: "40.00", available: "40.00", lowBalanceThreshold: "10.00" });
      const refused = await graphql(server, mutation, { id: tenant.tenantId, input: { creditLimit: "1.234" } }, { key: server.ownerKey });
      expectGraphQLError(refused, "invalid_field_value", { field: "creditLimit" });
      expect((await wallet(tenant)).credit_limit).toBe("40.00");
    });
  });

  describe("money rules with credit", () => {
    it("booking and ticketing need balance + credit_limit to cover the total; ticketing takes the balance below zero", async () => {
      const tenant = await liveTenant();
      const [offer, second] = await searchForBooking(server, tenant.key, { atLeast: 2 });
      const total = toMinor(offer.total_amount, offer.total_currency);
      expectError(await createOrderA(server, tenant.key, offer), 402, "insufficient_balance");
      await credit(server, tenant.tenantId, "1.00");
      await setWallet(tenant.tenantId, { credit_limit: ((total - 100) / 100).toFixed(2) });
      const booked = await createOrderA(server, tenant.key, offer);
      expect(booked.status, JSON.stringify(booked.body).slice(0, 300)).toBe(201);
      expect(await wallet(tenant)).toMatchObject({ balance: "1.00", reserved: offer.total_amount, available: "0.00" });
      expect((await ticketOrder(server, tenant.key, booked.body.data.id)).status).toBe(200);
      expect(await walletFigures(server, tenant.key)).toEqual({ balance: 100 - total, creditLimit: total - 100 });
      // The credit is used up: the next booking is refused, and the message names the credit to a key that may read the wallet.
      const refused = await createOrderA(server, tenant.key, second);
      expectError(refused, 402, "insufficient_balance");
      expect(JSON.stringify(refused.body)).toContain(`credit limit of ${((total - 100) / 100).toFixed(2)}`);
    });

    it("a lowered credit limit below what is used is allowed: the balance stays, available goes negative, and credits still land", async () => {
      const tenant = await liveTenant();
      const [offer] = await searchForBooking(server, tenant.key);
      await setWallet(tenant.tenantId, { credit_limit: offer.total_amount });
      const booked = await createOrderA(server, tenant.key, offer);
      expect((await ticketOrder(server, tenant.key, booked.body.data.id)).status).toBe(200);
      const lowered = await setWallet(tenant.tenantId, { credit_limit: "0" });
      expect(lowered.status).toBe(200);
      expect(lowered.body.data).toMatchObject({ balance: `-${offer.total_amount}`, credit_limit: "0.00", available: `-${offer.total_amount}` });
      await credit(server, tenant.tenantId, "1.00");
      expect((await wallet(tenant)).balance).toBe(`-${((toMinor(offer.total_amount, "USD") - 100) / 100).toFixed(2)}`);
    });

    it("concurrent ticketings of separate orders never take the balance below −credit_limit", async () => {
      const tenant = await liveTenant();
      await setWallet(tenant.tenantId, { credit_limit: "100000.00" });
      const orders = await bookSeparateOrders(server, tenant.key, 12);
      const sum = orders.reduce((total, order) => total + order.totalMinor, 0);
      // Balance and credit together cover about half of them.
      await setWallet(tenant.tenantId, { credit_limit: (Math.floor(sum / 4) / 100).toFixed(2) });
      await credit(server, tenant.tenantId, (Math.floor(sum / 4) / 100).toFixed(2));
      await expectCreditHoldsUnderRace(orders, tenant.key, () => server);
    });
  });

  describe("the low-balance threshold", () => {
    it("the owner and the tenant (wallet: write) set it; null removes it; each change is audited", async () => {
      const tenant = await liveTenant();
      expect((await setWallet(tenant.tenantId, { low_balance_threshold: "500" })).body.data.low_balance_threshold).toBe("500.00");
      const byTenant = await call(server, "PATCH", "/v1/wallet", { key: tenant.key, body: { low_balance_threshold: "250.75" } });
      expect(byTenant.status, JSON.stringify(byTenant.body)).toBe(200);
      expect(byTenant.body.data.low_balance_threshold).toBe("250.75");
      expect((await call(server, "PATCH", "/v1/wallet", { key: tenant.key, body: { low_balance_threshold: null } })).body.data.low_balance_threshold).toBeNull();
      expect((await wallet(tenant)).low_balance_threshold).toBeNull();
      const events = await auditEvents(tenant.tenantId);
      expect(events.map((event) => event.changes.low_balance_threshold)).toEqual([
        { from: "250.75", to: null },
        { from: "500.00", to: "250.75" },
        { from: null, to: "500.00" },
      ]);
      expect(events[1].actor.type).toBe("api_key");
    });

    it("a key with wallet: read only is 403; bad values are 422 naming the field, changing nothing", async () => {
      const tenant = await liveTenant();
      const reader = (await call(server, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: server.ownerKey, body: { label: "reader", permissions: { wallet: "read" } } })).body.data.apiKey;
      expectError(await call(server, "PATCH", "/v1/wallet", { key: reader, body: { low_balance_threshold: "10.00" } }), 403, "insufficient_permissions");
      for (const value of ["-5", "1.234", "ten", 10]) {
        expectError(await call(server, "PATCH", "/v1/wallet", { key: tenant.key, body: { low_balance_threshold: value } }), 422, "invalid_field_value", "low_balance_threshold");
      }
      expectError(await call(server, "PATCH", "/v1/wallet", { key: tenant.key, body: {} }), 422, "invalid_field_value", "low_balance_threshold");
      expect((await wallet(tenant)).low_balance_threshold).toBeNull();
      expect(await auditEvents(tenant.tenantId)).toEqual([]);
    });

    it("GraphQL updateWallet sets it", async () => {
      const tenant = await liveTenant();
      const set = await graphql(server, "mutation ($input: UpdateWalletInput!) { updateWallet(input: $input) { lowBalanceThreshold } }", { input: { lowBalanceThreshold: "12.50" } }, { key: tenant.key });
      expect(set.body, JSON.stringify(set.body)).toEqual({ data: { updateWallet: { lowBalanceThreshold: "12.50" } } });
    });
  });
});
