import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock } from "../../src/clock";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { connectDuffel, fakeToken } from "../helpers/duffel";
import { deliverDuffelEvent, duffelEvent, ticketedOnChangingRoute } from "../helpers/duffel-events";
import { startDuffelFake, type DuffelFake } from "../helpers/duffel-fake";
import { duffelOffer, duffelOrdersOf, expectLedgerOf, searchLondonBarcelona, startDuffelServer, WITH_DUFFEL } from "../helpers/duffel-gateway";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { allTransactions, bookOffer, createOrderA, getOrder, newKey, signedMinor, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import { whereStored } from "../helpers/stored-secrets";
import type { TestServer } from "../helpers/test-server";
import { getWallet } from "../helpers/wallet";

/**
 * The owner's platform Duffel account (docs/duffel.md#the-owners-platform-account): the owner
 * connects one account per mode and chooses the tenants that may book through it. Such a tenant,
 * without a Duffel connection of its own, searches and books Duffel's offers through it, its
 * orders are `wallet`-settled (the wallet pays the order's total at ticketing and gets the refund
 * back), and Duffel is paid by the platform's token; an order keeps the account it was booked
 * with. A tenant with its own connection stays `supplier`-settled; one not granted sees no Duffel.
 */

const WEBHOOK_SECRET = randomBytes(24).toString("base64url");

describe("the owner's platform Duffel account", { timeout: 90_000 }, () => {
  let fake: DuffelFake;
  let server: TestServer;
  let platformToken: string;

  const asOwner = (method: string, path: string, body?: unknown) => call(server, method, path, { key: server.ownerKey, ...(body !== undefined && { body }) });

  /** A sandbox tenant searching Duffel too, granted the platform account unless `granted` is false. */
  async function platformTenant(granted = true): Promise<TenantFixture> {
    const tenant = await createTenant(server);
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: WITH_DUFFEL } })).status).toBe(200);
    if (granted) {
      const patched = await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, { platform_accounts: ["duffel"] });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
      expect(patched.body.data.platform_accounts).toEqual(["duffel"]);
    }
    return tenant;
  }

  /** The Authorization header of Duffel's calls matching `path` (e.g. `/air/payments`) for the Duffel order `duffelOrderId`. */
  const tokensOf = (method: string, path: string, duffelOrderId: string) =>
    fake.requests.filter((request) => request.method === method && request.path.startsWith(path) && JSON.stringify(request.body ?? "").includes(duffelOrderId)).map((request) => request.authorization);

  beforeAll(async () => {
    fake = await startDuffelFake();
    server = await startDuffelServer(fake, { DUFFEL_WEBHOOK_SECRET: WEBHOOK_SECRET });
    platformToken = fakeToken(fake);
    const created = await asOwner("POST", "/v1/platform_accounts", { supplier: "duffel", access_token: platformToken });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
    await fake?.close();
  });

  it("the owner connects it (one per mode), lists it in REST and GraphQL without its token, and the change is audit-logged", async () => {
    const listed = await asOwner("GET", "/v1/platform_accounts");
    expect(listed.status).toBe(200);
    expect(listed.body.data).toEqual([{ id: expect.stringMatching(/^spa_/), supplier: "duffel", mode: "test", status: "active", created_at: expect.any(String), last_used_at: null }]);
    expect(JSON.stringify(listed.body)).not.toContain(platformToken);
    expect(await whereStored(server, platformToken)).toEqual([]);

    const read = await graphql(server, "{ platformAccounts { id supplier mode status } }", {}, { key: server.ownerKey });
    expect(read.body).toEqual({ data: { platformAccounts: [{ id: listed.body.data[0].id, supplier: "duffel", mode: "TEST", status: "ACTIVE" }] } });

    const audit = await asOwner("GET", "/v1/audit_events?limit=100");
    expect(audit.body.data.items).toContainEqual(expect.objectContaining({ action: "platform_account.created", target: { type: "platform_account", id: listed.body.data[0].id } }));
    expect(JSON.stringify(audit.body)).not.toContain(platformToken);
  });

  it("keeps the token out of the Idempotency-Key record: a repeat replays, the same key with another token is refused, and the deletion answers the account as it was", async () => {
    const liveToken = fakeToken(fake).replace("duffel_test_", "duffel_live_");
    const headers = { "idempotency-key": newKey("platform") };
    const first = await call(server, "POST", "/v1/platform_accounts", { key: server.ownerKey, headers, body: { supplier: "duffel", access_token: liveToken } });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    expect(first.body.data).toMatchObject({ supplier: "duffel", mode: "live", status: "active" });
    const replay = await call(server, "POST", "/v1/platform_accounts", { key: server.ownerKey, headers, body: { supplier: "duffel", access_token: liveToken } });
    expect({ status: replay.status, id: replay.body.data?.id, replayed: replay.headers.get("idempotent-replayed") }).toEqual({ status: 201, id: first.body.data.id, replayed: "true" });
    expectError(await call(server, "POST", "/v1/platform_accounts", { key: server.ownerKey, headers, body: { supplier: "duffel", access_token: `${liveToken}x` } }), 422, "idempotency_key_reused");
    expect(await whereStored(server, liveToken)).toEqual([]);

    const deleted = await graphql(server, `mutation($id: ID!) { deletePlatformAccount(id: $id) { id mode } }`, { id: first.body.data.id }, { key: server.ownerKey });
    expect(deleted.body).toEqual({ data: { deletePlatformAccount: { id: first.body.data.id, mode: "LIVE" } } });
    expect((await asOwner("GET", "/v1/platform_accounts")).body.data.map((account: any) => account.mode)).toEqual(["test"]);
    const audit = await asOwner("GET", "/v1/audit_events?limit=100");
    expect(audit.body.data.items).toContainEqual(expect.objectContaining({ action: "platform_account.deleted", target: { type: "platform_account", id: first.body.data.id } }));
  });

  it("refuses bad input with a clear 4xx and changes nothing: a second account of the same mode, a token of another shape, another supplier, a tenant's key", async () => {
    const before = await server.db.prisma.platformAccount.count();
    expectError(await asOwner("POST", "/v1/platform_accounts", { supplier: "duffel", access_token: fakeToken(fake) }), 409, "platform_account_exists");
    expectError(await asOwner("POST", "/v1/platform_accounts", { supplier: "duffel", access_token: "sk_test_notduffel123456" }), 422, "invalid_field_value", "access_token");
    expectError(await asOwner("POST", "/v1/platform_accounts", { supplier: "simulated", access_token: fakeToken(fake) }), 422, "invalid_field_value", "supplier");
    const tenant = await createTenant(server);
    expectError(await call(server, "POST", "/v1/platform_accounts", { key: tenant.key, body: { supplier: "duffel", access_token: fakeToken(fake) } }), 403, "forbidden");
    expectError(await call(server, "GET", "/v1/platform_accounts", { key: tenant.key }), 403, "forbidden");
    expectError(await asOwner("DELETE", "/v1/platform_accounts/spa_unknown"), 404, "not_found");
    const mutation = await graphql(server, `mutation($input: CreateSupplierConnectionInput!) { createPlatformAccount(input: $input) { id } }`, { input: { supplier: "duffel", accessToken: fakeToken(fake) } }, { key: tenant.key });
    expect(mutation.body.errors?.[0]?.extensions?.code).toBe("forbidden");
    const badToken = await graphql(server, `mutation($input: CreateSupplierConnectionInput!) { createPlatformAccount(input: $input) { id } }`, { input: { supplier: "duffel", accessToken: "sk_test_notduffel123456" } }, { key: server.ownerKey });
    expect(badToken.body.errors?.[0]?.extensions).toMatchObject({ code: "invalid_field_value", field: "accessToken" });
    expect(await server.db.prisma.platformAccount.count()).toBe(before);
  });

  it("the owner grants tenants one by one: an unknown tenant, a supplier without accounts or a tenant's own key are refused; a tenant not granted is not searched at Duffel", async () => {
    const tenant = await platformTenant(false);
    expectError(await asOwner("PATCH", "/v1/tenants/ten_unknown", { platform_accounts: ["duffel"] }), 404, "tenant_not_found");
    expectError(await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, { platform_accounts: ["simulated"] }), 422, "invalid_field_value", "platform_accounts[0]");
    expectError(await call(server, "PATCH", `/v1/tenants/${tenant.tenantId}`, { key: tenant.key, body: { platform_accounts: ["duffel"] } }), 403, "forbidden");
    expect((await asOwner("GET", `/v1/tenants/${tenant.tenantId}`)).body.data.platform_accounts).toEqual([]);

    const search = await searchLondonBarcelona(server, tenant.key);
    expect(search.status).toBe(200);
    expect(search.body.data.offers.filter((offer: any) => offer.supplier.id === "duffel")).toEqual([]);

    const granted = await graphql(server, `mutation($id: ID!) { updateTenant(id: $id, input: { platformAccounts: ["duffel"] }) { platformAccounts } }`, { id: tenant.tenantId }, { key: server.ownerKey });
    expect(granted.body).toEqual({ data: { updateTenant: { platformAccounts: ["duffel"] } } });
    const audit = await asOwner("GET", `/v1/audit_events?tenant_id=${tenant.tenantId}&limit=100`);
    expect(audit.body.data.items).toContainEqual(expect.objectContaining({ action: "tenant.updated", changes: { platform_accounts: { from: [], to: ["duffel"] } } }));
    expect((await searchLondonBarcelona(server, tenant.key)).body.data.offers.some((offer: any) => offer.supplier.id === "duffel")).toBe(true);

    expect((await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, { platform_accounts: [] })).status).toBe(200);
    expect((await searchLondonBarcelona(server, tenant.key)).body.data.offers.filter((offer: any) => offer.supplier.id === "duffel")).toEqual([]);
  });

  it("a granted tenant without its own connection books through the platform: `wallet`, the whole total reserved, then debited at ticketing, Duffel paid with the platform's token; the refund credits Duffel's refund back", async () => {
    const tenant = await platformTenant();
    const before = (await walletBalance(server, tenant.key)).minor;
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
    const total = toMinor(order.total_amount, order.total_currency);
    expect(order.settlement).toBe("wallet");
    const read = await graphql(server, `query($id: ID!) { order(id: $id) { settlement } }`, { id: order.id }, { key: tenant.key });
    expect(read.body).toEqual({ data: { order: { settlement: "WALLET" } } });
    expect(await getWallet(server, tenant.key)).toMatchObject({ reserved: order.total_amount, available: ((before - total) / 100).toFixed(2) });

    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    const [held] = duffelOrdersOf(fake, order.id);
    expect(held).toMatchObject({ type: "hold", paid: true });
    expect(tokensOf("POST", "/air/payments", held!.id)).toEqual([`Bearer ${platformToken}`]);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(before - total);
    expect(await getWallet(server, tenant.key)).toMatchObject({ reserved: "0.00" });

    const refunded = await call(server, "POST", `/v1/air/orders/${order.id}/actions/refund`, { key: tenant.key });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["REFUNDED"]);
    expect(duffelOrdersOf(fake, order.id)[0]!.cancelled).toBe(true);
    const entries = (await allTransactions(server, tenant.key)).filter((entry) => entry.order_id === order.id);
    const credit = entries.find((entry) => entry.type === "refund_credit")!;
    // The fake refunds a paid order's whole total: the wallet gets the order's total back.
    expect(signedMinor(credit.amount, credit.currency)).toBe(total);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit", "refund_credit"])).toBe(before);

    // The month's statement says the same: the total paid, and given back.
    const statement = await call(server, "GET", `/v1/statements/${clock.now().toISOString().slice(0, 7)}`, { key: tenant.key });
    expect(statement.status, JSON.stringify(statement.body)).toBe(200);
    expect(statement.body.data.lines.filter((line: any) => line.order_id === order.id).map((line: any) => [line.type, line.amount])).toEqual([
      ["ticketing_debit", `-${order.total_amount}`],
      ["refund_credit", order.total_amount],
    ]);
    expect(statement.body.data.closing_balance).toBe((await walletBalance(server, tenant.key)).balance);
  });

  it("a granted tenant with its own connection books through its own: `supplier`, the wallet moved by Aerogate's fee alone (none here), Duffel paid with its token", async () => {
    const tenant = await platformTenant();
    const ownToken = fakeToken(fake);
    await connectDuffel(server, tenant, ownToken);
    const before = (await walletBalance(server, tenant.key)).minor;
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
    expect(order.settlement).toBe("supplier");
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    const [held] = duffelOrdersOf(fake, order.id);
    expect(tokensOf("POST", "/air/payments", held!.id)).toEqual([`Bearer ${ownToken}`]);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(before);
  });

  it("an order booked through the platform keeps the platform's account after the tenant connects its own: paid with the platform's token, debited its total", async () => {
    const tenant = await platformTenant();
    const before = (await walletBalance(server, tenant.key)).minor;
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
    await connectDuffel(server, tenant, fakeToken(fake));
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    const [held] = duffelOrdersOf(fake, order.id);
    expect(tokensOf("POST", "/air/payments", held!.id)).toEqual([`Bearer ${platformToken}`]);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(before - toMinor(order.total_amount, order.total_currency));
  });

  it("an offer Duffel cannot hold is booked at ticketing with the platform's token, the wallet debited its total once", async () => {
    const tenant = await platformTenant();
    const before = (await walletBalance(server, tenant.key)).minor;
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "BA"));
    expect(order.settlement).toBe("wallet");
    expect(duffelOrdersOf(fake, order.id)).toEqual([]);
    expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    const booked = fake.requests.filter((request) => request.method === "POST" && request.path === "/air/orders" && JSON.stringify(request.body).includes(order.id));
    expect(booked.map((request) => request.authorization)).toEqual([`Bearer ${platformToken}`]);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(before - toMinor(order.total_amount, order.total_currency));
  });

  it("concurrent ticketing requests of a platform order debit the wallet once and pay Duffel once", async () => {
    const tenant = await platformTenant();
    const before = (await walletBalance(server, tenant.key)).minor;
    const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
    const answers = await Promise.all(Array.from({ length: 6 }, () => ticketOrder(server, tenant.key, order.id)));
    expect(answers.filter((answer) => answer.status === 200).length).toBeGreaterThanOrEqual(1);
    for (const answer of answers) expect([200, 409, 422], JSON.stringify(answer.body)).toContain(answer.status);
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    const [held] = duffelOrdersOf(fake, order.id);
    expect(tokensOf("POST", "/air/payments", held!.id)).toHaveLength(1);
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(before - toMinor(order.total_amount, order.total_currency));
  });

  it("an offer found through the platform is not booked once the owner took the grant back (422 supplier_not_allowed, nothing booked or reserved); the orders booked before keep the platform's account", async () => {
    const tenant = await platformTenant();
    const booked = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
    const offer = await duffelOffer(server, tenant.key, "AA");
    expect((await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, { platform_accounts: [] })).status).toBe(200);
    const wallet = await getWallet(server, tenant.key);
    expectError(await createOrderA(server, tenant.key, offer), 422, "supplier_not_allowed", "selected_offers[0]");
    expect(await getWallet(server, tenant.key)).toEqual(wallet);
    expect(fake.requests.filter((request) => request.method === "POST" && request.path === "/air/orders" && JSON.stringify(request.body).includes(offer.id))).toEqual([]);

    expect((await ticketOrder(server, tenant.key, booked.id)).status).toBe(200);
    await waitForStatus(server, tenant.key, booked.id, ["TICKETED"]);
    expect(tokensOf("POST", "/air/payments", duffelOrdersOf(fake, booked.id)[0]!.id)).toEqual([`Bearer ${platformToken}`]);
  });

  it("reads and accepts the airline's change of a platform order with the platform's token, the wallet unmoved", async () => {
    const tenant = await platformTenant();
    const { order, duffelOrderId } = await ticketedOnChangingRoute(server, fake, tenant.key);
    const balance = await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"]);
    const change = fake.airlineChangeOf(duffelOrderId)!;
    expect((await deliverDuffelEvent(server, WEBHOOK_SECRET, duffelEvent("order.airline_initiated_change_detected", change))).status).toBe(200);
    const [recorded] = (await getOrder(server, tenant.key, order.id)).body.data.airline_initiated_changes;
    expect(recorded).toMatchObject({ order_id: order.id, action_taken: null });
    const accepted = await call(server, "POST", `/v1/air/airline_initiated_changes/${recorded.id}/actions/accept`, { key: tenant.key });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(change.action_taken).toBe("accepted");
    const changeCalls = fake.requests.filter((request) => request.path.startsWith("/air/airline_initiated_changes") && (request.path.includes(duffelOrderId) || request.path.includes(String(change.id))));
    expect(changeCalls.length).toBeGreaterThanOrEqual(2);
    expect(new Set(changeCalls.map((request) => request.authorization))).toEqual(new Set([`Bearer ${platformToken}`]));
    expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(balance);
  });

  it("a live tenant granted the platform is not searched at Duffel while the platform has no live account", async () => {
    const tenant = await createTenant(server, { environment: "live" });
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { suppliers: WITH_DUFFEL } })).status).toBe(200);
    expect((await asOwner("PATCH", `/v1/tenants/${tenant.tenantId}`, { platform_accounts: ["duffel"] })).status).toBe(200);
    const search = await searchLondonBarcelona(server, tenant.key);
    expect(search.status).toBe(200);
    expect(search.body.data.offers.filter((offer: any) => offer.supplier.id === "duffel")).toEqual([]);
  });
});
