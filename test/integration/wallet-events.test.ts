import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { toMinor } from "../helpers/flight-checks";
import { bookOffer, createOrderA, searchForBooking } from "../helpers/orders";
import { subscribe, wsClient } from "../helpers/subscriptions";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { credit, getWallet } from "../helpers/wallet";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

/**
 * The wallet's events (docs/webhooks.md#wallet-events): `wallet.credited` when an owner credit lands,
 * `wallet.low_balance` when `available` falls below the low-balance threshold, once per crossing
 * (again only after it was at or above the threshold in between), decided in the transaction of
 * the change, so racing bookings send one. Each is stored, listed by the events API, delivered to
 * the endpoints that take it and told to walletEvents subscribers.
 */

describe("wallet events", () => {
  let server: TestServer;
  let receiver: Receiver;
  beforeAll(async () => {
    server = await startTestServer({
      env: { WEBHOOK_RETRY_SCHEDULE: "0,0.05", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", TICKETING_DELAY_MS: "60000", JOB_POLL_MS: "50" },
    });
    receiver = await startReceiver();
  });
  afterAll(async () => {
    await server?.close();
    await receiver?.close();
  });

  const setWallet = (tenantId: string, body: unknown) => call(server, "PATCH", `/v1/tenants/${tenantId}/wallet`, { key: server.ownerKey, body });
  const events = async (tenant: TenantFixture, type: string) => (await call(server, "GET", `/v1/events?type=${type}`, { key: tenant.key })).body.data.items as any[];
  const hooksOf = (tenant: TenantFixture, type: string) => receiver.received.filter((hook) => hook.json.event === type && hook.json.data.tenant_id === tenant.tenantId);

  it("an owner credit sends wallet.credited: the wallet as the credit left it and its ledger entry", async () => {
    const tenant = await createTenant(server, { environment: "live" });
    const credited = await credit(server, tenant.tenantId, "120.50");
    const [event] = await events(tenant, "wallet.credited");
    expect(event).toEqual({
      id: expect.stringMatching(/^evt_/),
      event: "wallet.credited",
      created_at: expect.any(String),
      data: {
        tenant_id: tenant.tenantId,
        balance: "120.50",
        currency: "USD",
        credit_limit: "0.00",
        reserved: "0.00",
        available: "120.50",
        low_balance_threshold: null,
        transaction: { id: credited.transaction.id, amount: "120.50", currency: "USD", reference: null },
      },
    });
  });

  /** A live tenant (no play money) holding `count` offers on flights no other test booked, and their totals in minor units. */
  const tenantWithOffers = async (count: number) => {
    const tenant = await createTenant(server, { environment: "live" });
    const offers: any[] = [];
    while (offers.length < count) offers.push(...(await searchForBooking(server, tenant.key)));
    offers.length = count;
    return { tenant, offers, totals: offers.map((offer) => toMinor(offer.total_amount, offer.total_currency)) };
  };
  const usd = (minor: number) => (minor / 100).toFixed(2);
  const sum = (values: number[]) => values.reduce((total, value) => total + value, 0);

  it("booking below the threshold sends wallet.low_balance once; again only after available was back at or above it", async () => {
    const { tenant, offers, totals } = await tenantWithOffers(3);
    await credit(server, tenant.tenantId, usd(sum(totals)));
    // Below it whichever of the first and third orders is booked alone.
    const threshold = usd(sum(totals) - Math.min(totals[0]!, totals[2]!) + 1);
    expect((await setWallet(tenant.tenantId, { low_balance_threshold: threshold })).status).toBe(200);
    expect(await events(tenant, "wallet.low_balance")).toEqual([]);
    const first = await bookOffer(server, tenant.key, offers[0]);
    const [alert] = await events(tenant, "wallet.low_balance");
    expect(alert).toEqual({
      id: expect.stringMatching(/^evt_/),
      event: "wallet.low_balance",
      created_at: expect.any(String),
      data: {
        tenant_id: tenant.tenantId,
        balance: usd(sum(totals)),
        currency: "USD",
        credit_limit: "0.00",
        reserved: first.total_amount,
        available: usd(totals[1]! + totals[2]!),
        low_balance_threshold: threshold,
      },
    });
    // Further down: still the one alert.
    const second = await bookOffer(server, tenant.key, offers[1]);
    expect(await events(tenant, "wallet.low_balance")).toHaveLength(1);
    // Both cancelled: available is the whole balance again, at or above the threshold, so the alert is armed again.
    for (const order of [first, second]) expect((await call(server, "POST", `/v1/air/orders/${order.id}/cancel`, { key: tenant.key })).status).toBe(200);
    expect(await events(tenant, "wallet.low_balance")).toHaveLength(1);
    await bookOffer(server, tenant.key, offers[2]);
    const alerts = await events(tenant, "wallet.low_balance");
    expect(alerts).toHaveLength(2);
    expect(alerts[0].data).toMatchObject({ available: usd(totals[0]! + totals[1]!), reserved: usd(totals[2]!) });
  });

  it("a credit brings available back above the threshold and arms the alert again; a lowered credit limit can send it", async () => {
    const { tenant, offers, totals } = await tenantWithOffers(1);
    await setWallet(tenant.tenantId, { credit_limit: usd(totals[0]!), low_balance_threshold: "1.00" });
    await bookOffer(server, tenant.key, offers[0]);
    // available = 0: below 1.00.
    expect(await events(tenant, "wallet.low_balance")).toHaveLength(1);
    await credit(server, tenant.tenantId, "5.00");
    expect(await events(tenant, "wallet.low_balance")).toHaveLength(1);
    // The owner lowers the credit limit by 4.01: available 0.99 < 1.00, a new crossing.
    expect((await setWallet(tenant.tenantId, { credit_limit: usd(totals[0]! - 401) })).status).toBe(200);
    const [alert] = await events(tenant, "wallet.low_balance");
    expect(alert.data).toMatchObject({ available: "0.99", credit_limit: usd(totals[0]! - 401), low_balance_threshold: "1.00" });
    expect(await events(tenant, "wallet.low_balance")).toHaveLength(2);
  });

  it("each webhook endpoint gets the wallet events its enabled_events take, the body the events API lists", async () => {
    const { tenant, offers, totals } = await tenantWithOffers(1);
    const onlyAlerts = await startReceiver();
    const onlyOrders = await startReceiver();
    try {
      for (const [url, enabledEvents] of [[onlyAlerts.url, ["wallet.low_balance"]], [onlyOrders.url, ["order.created"]]] as const) {
        const created = await call(server, "POST", "/v1/webhook_endpoints", { key: tenant.key, body: { url, enabled_events: enabledEvents } });
        expect(created.status, JSON.stringify(created.body)).toBe(201);
      }
      expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: receiver.url, webhook_enabled: true } })).status).toBe(200);
      await credit(server, tenant.tenantId, usd(totals[0]!));
      await setWallet(tenant.tenantId, { low_balance_threshold: "0.01" });
      const order = await bookOffer(server, tenant.key, offers[0]);
      const [alert] = await events(tenant, "wallet.low_balance");
      const [alertHook] = await eventually(async () => (onlyAlerts.received.length > 0 ? onlyAlerts.received : undefined), () => "no wallet.low_balance delivery");
      expect(alertHook!.json).toEqual(alert);
      expect(alertHook!.headers["webhook-id"]).toBe(alert.id);
      await onlyOrders.waitFor(order.id, "order.created");
      await eventually(async () => (hooksOf(tenant, "wallet.low_balance").length === 1 && hooksOf(tenant, "wallet.credited").length === 1 ? true : undefined), () => "the default endpoint lacks a wallet event");
      expect(onlyAlerts.received.map((hook) => hook.json.event)).toEqual(["wallet.low_balance"]);
      expect(onlyOrders.received.map((hook) => hook.json.event)).toEqual(["order.created"]);
      // The delivery log shows the event's two deliveries (the default endpoint's, the alerts endpoint's), of no order.
      const deliveries = await eventually(async () => {
        const items = ((await call(server, "GET", "/v1/webhooks/deliveries", { key: tenant.key })).body.data.items as any[]).filter((delivery) => delivery.event_id === alert.id);
        return items.length === 2 && items.every((delivery) => delivery.status === "succeeded") ? items : undefined;
      }, () => "the alert's deliveries did not both succeed");
      for (const delivery of deliveries) expect(delivery).toMatchObject({ event: "wallet.low_balance", order_id: null });
    } finally {
      await Promise.all([onlyAlerts.close(), onlyOrders.close()]);
    }
  });

  it("walletEvents tells a subscriber each wallet event of its tenant, with the wallet after it", async () => {
    const { tenant, offers, totals } = await tenantWithOffers(1);
    const other = await createTenant(server, { environment: "live" });
    const client = wsClient(server.wsUrl, { authorization: `Bearer ${tenant.key}` });
    try {
      const subscription = subscribe(client, "subscription { walletEvents { id type createdAt wallet { balance reserved available lowBalanceThreshold } } }");
      // The subscription is open once a credit of the tenant's reaches it (credits before may not).
      const credits = await eventually(async () => {
        await credit(server, tenant.tenantId, "1.00");
        return subscription.results.length > 0 ? subscription.results : undefined;
      }, () => "no credit reached the subscription");
      expect(credits[0]!.data.walletEvents).toMatchObject({ type: "wallet.credited", wallet: { lowBalanceThreshold: null } });
      await credit(server, other.tenantId, "1.00");
      await credit(server, tenant.tenantId, usd(totals[0]!));
      const balance = toMinor((await getWallet(server, tenant.key)).balance, "USD") - totals[0]!;
      await setWallet(tenant.tenantId, { low_balance_threshold: usd(balance + 1) });
      await bookOffer(server, tenant.key, offers[0]);
      const [alert] = await events(tenant, "wallet.low_balance");
      const told = await eventually(async () => subscription.results.find((result) => result.data?.walletEvents.type === "wallet.low_balance"), () => JSON.stringify(subscription.results));
      expect(told.data.walletEvents).toEqual({ id: alert.id, type: "wallet.low_balance", createdAt: alert.created_at, wallet: { balance: usd(balance + totals[0]!), reserved: usd(totals[0]!), available: usd(balance), lowBalanceThreshold: usd(balance + 1) } });
      const creditedIds = (await events(tenant, "wallet.credited")).map((event) => event.id);
      for (const result of subscription.results) expect(result.errors).toBeUndefined();
      // Only the tenant's own events: the other tenant's credit is not among them.
      expect(subscription.results.filter((result) => result.data.walletEvents.type === "wallet.credited").every((result) => creditedIds.includes(result.data.walletEvents.id))).toBe(true);
    } finally {
      await client.dispose();
    }
  });

  it("the events API shows wallet events only to keys that may read the wallet", async () => {
    const tenant = await createTenant(server, { environment: "live" });
    await credit(server, tenant.tenantId, "3.00");
    const issued = await call(server, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: server.ownerKey, body: { label: "hooks", permissions: { webhooks: "read", orders: "read" } } });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    const withoutWallet = issued.body.data.apiKey as string;
    const [event] = await events(tenant, "wallet.credited");
    const listed = await call(server, "GET", "/v1/events", { key: withoutWallet });
    expect(listed.status).toBe(200);
    expect(listed.body.data.items).toEqual([]);
    expect((await call(server, "GET", `/v1/events?type=wallet.credited`, { key: withoutWallet })).body.data.items).toEqual([]);
    expect((await call(server, "GET", `/v1/events/${event.id}`, { key: withoutWallet })).status).toBe(404);
    expect((await call(server, "GET", `/v1/events/${event.id}`, { key: tenant.key })).body.data).toEqual(event);
  });

  it("ten bookings racing across the threshold send exactly one wallet.low_balance", async () => {
    const { tenant, offers, totals } = await tenantWithOffers(10);
    await credit(server, tenant.tenantId, usd(sum(totals)));
    // Crossed once about half of them are booked, whichever half. No hold limits: those serialize a
    // tenant's bookings on its wallet's row by themselves, and the check must hold without them.
    const set = await setWallet(tenant.tenantId, { low_balance_threshold: usd(Math.round(sum(totals) / 2)), hold_limits: { max_unpaid_orders: null, max_unpaid_seats_per_flight: null } });
    expect(set.status).toBe(200);
    const answers = await Promise.all(offers.map((offer) => createOrderA(server, tenant.key, offer)));
    expect(answers.map((answer) => answer.status)).toEqual(offers.map(() => 201));
    const alerts = await events(tenant, "wallet.low_balance");
    expect(alerts).toHaveLength(1);
    expect(toMinor(alerts[0].data.available, "USD")).toBeLessThan(Math.round(sum(totals) / 2));
    expect(toMinor(alerts[0].data.available, "USD")).toBeGreaterThanOrEqual(0);
  });
});
