import { isNonNullType } from "graphql";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { operations, type Operation, type OperationRule } from "../../src/context/operations";
import { FULL_ACCESS, type KeyPermissions, type PermissionLevel, type PermissionResource } from "../../src/tenancy/key-permissions";
import { call, createTenant, graphql, type ApiResponse, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { bookOffer, getOrder, newKey, searchForBooking, ticketOrder } from "../helpers/orders";
import { restRoutes, routeName } from "../helpers/route-table";
import { servedSchema } from "../helpers/schema-operations";
import { openOrderSubscriptions, openWalletSubscriptions, ORDER_EVENTS, ORDER_STATUS_CHANGED, subscribe, waitForOpenSubscriptions, wsClient, type Subscription } from "../helpers/subscriptions";
import { startTestServer, type TestServer } from "../helpers/test-server";

/**
 * Key permissions (docs/authentication.md#key-permissions): keys issued with permissions per resource, and the
 * one guard enforcing the level each operation names in the permission table, on REST, GraphQL
 * and subscriptions. The walk below takes its operations from the table itself.
 */

type Permissions = Partial<Record<PermissionResource, "none" | PermissionLevel>>;

/**
 * One request performing an operation: on a REST route of the server's table when the operation
 * has one (named "METHOD /path"; path ids are ones that never existed, the body and query string
 * as given), else a GraphQL subscription over graphql-ws. `alsoNeeds`: what else the request
 * needs besides the operation's own permission.
 */
type Probe = ({ rest: string; body?: unknown; query?: string } | { subscription: string; variables?: Record<string, unknown> }) & { alsoNeeds?: Permissions };

const UNKNOWN_ORDER = "ord_00000000000000000000000000";

/** Every operation of the table that needs a permission, and how the walk performs it. */
const probes: Record<string, Probe> = {
  tenantConfig: { rest: "GET /v1/tenant" },
  updateTenantConfig: { rest: "PATCH /v1/tenant", body: { timezone: "Europe/Paris" } },
  // The webhook fields of the same patch: webhooks:write on top of tenant:write.
  updateWebhookSettings: { rest: "PATCH /v1/tenant", body: { webhook_enabled: false }, alsoNeeds: { tenant: "write" } },
  rotateWebhookSecret: { rest: "POST /v1/tenant/webhook_secret/rotate" },
  webhookDeliveries: { rest: "GET /v1/webhooks/deliveries" },
  redeliverWebhook: { rest: "POST /v1/webhooks/deliveries/:id/redeliver" },
  webhookEndpoints: { rest: "GET /v1/webhook_endpoints" },
  webhookEndpoint: { rest: "GET /v1/webhook_endpoints/:id" },
  createWebhookEndpoint: { rest: "POST /v1/webhook_endpoints", body: { url: "https://hooks.acme.example/x", enabled_events: ["*"] } },
  updateWebhookEndpoint: { rest: "PATCH /v1/webhook_endpoints/:id", body: { enabled: false } },
  deleteWebhookEndpoint: { rest: "DELETE /v1/webhook_endpoints/:id" },
  rotateWebhookEndpointSecret: { rest: "POST /v1/webhook_endpoints/:id/secret/rotate" },
  pingWebhookEndpoint: { rest: "POST /v1/webhook_endpoints/:id/actions/ping" },
  supplierConnections: { rest: "GET /v1/supplier_connections" },
  createSupplierConnection: { rest: "POST /v1/supplier_connections", body: {} },
  deleteSupplierConnection: { rest: "DELETE /v1/supplier_connections/:id" },
  setSupplierConnectionWebhookSecret: { rest: "PATCH /v1/supplier_connections/:id", body: { webhook_secret: null } },
  registerSupplierConnectionWebhook: { rest: "POST /v1/supplier_connections/:id/actions/register_webhook" },
  // Events show orders' contents: orders:read on top of webhooks:read.
  events: { rest: "GET /v1/events", alsoNeeds: { orders: "read" } },
  event: { rest: "GET /v1/events/:id", alsoNeeds: { orders: "read" } },
  locations: { rest: "GET /v1/air/locations" },
  searchFlights: { rest: "POST /v1/air/search", body: {} },
  createBatchOfferRequest: { rest: "POST /v1/air/batch_offer_requests", body: {} },
  batchOfferRequest: { rest: "GET /v1/air/batch_offer_requests/:id" },
  fareCalendar: { rest: "GET /v1/air/fare_calendar" },
  destinations: { rest: "GET /v1/air/destinations" },
  offer: { rest: "GET /v1/air/offers/:id" },
  offers: { rest: "GET /v1/air/offers" },
  offerRequests: { rest: "GET /v1/air/search" },
  seatMaps: { rest: "GET /v1/air/seat_maps" },
  // A seat map of an order: the route of seatMaps, given an order.
  orderSeatMaps: { rest: "GET /v1/air/seat_maps", query: `order_id=${UNKNOWN_ORDER}`, alsoNeeds: { search: "read" } },
  orders: { rest: "GET /v1/air/orders" },
  order: { rest: "GET /v1/air/orders/:id" },
  bookings: { rest: "GET /v1/bookings" },
  createOrder: { rest: "POST /v1/air/orders", body: {} },
  updateOrderPassengers: { rest: "PUT /v1/air/orders/:id/passengers", body: {} },
  ticketOrder: { rest: "POST /v1/air/orders/:id/actions/ticket" },
  payOrder: { rest: "POST /v1/air/payments", body: {} },
  cancelOrder: { rest: "POST /v1/air/orders/:id/actions/cancel" },
  refundOrder: { rest: "POST /v1/air/orders/:id/actions/refund" },
  orderAvailableServices: { rest: "GET /v1/air/orders/:id/available_services" },
  addOrderServices: { rest: "POST /v1/air/orders/:id/services", body: {} },
  quoteOrderCancellation: { rest: "POST /v1/air/order_cancellations", body: {} },
  confirmOrderCancellation: { rest: "POST /v1/air/order_cancellations/:id/actions/confirm" },
  orderCancellation: { rest: "GET /v1/air/order_cancellations/:id" },
  orderCancellations: { rest: "GET /v1/air/order_cancellations" },
  airlineCredits: { rest: "GET /v1/airline_credits" },
  requestOrderChange: { rest: "POST /v1/air/order_change_requests", body: {} },
  orderChangeRequest: { rest: "GET /v1/air/order_change_requests/:id" },
  orderChangeOffer: { rest: "GET /v1/air/order_change_offers/:id" },
  createOrderChange: { rest: "POST /v1/air/order_changes", body: {} },
  orderChange: { rest: "GET /v1/air/order_changes/:id" },
  confirmOrderChange: { rest: "POST /v1/air/order_changes/:id/actions/confirm", body: {} },
  acceptAirlineInitiatedChange: { rest: "POST /v1/air/airline_initiated_changes/:id/actions/accept" },
  simulateAirlineInitiatedChange: { rest: "POST /v1/sandbox/orders/:id/airline_initiated_change", body: { kind: "retime" } },
  sandboxClock: { rest: "GET /v1/sandbox/clock" },
  // An empty body: refused by the input rules (an answer), or for the key's permissions.
  advanceSandboxClock: { rest: "POST /v1/sandbox/clock/advance", body: {} },
  resetSandboxClock: { rest: "POST /v1/sandbox/clock/reset" },
  orderStatusChanged: { subscription: ORDER_STATUS_CHANGED, variables: { orderId: UNKNOWN_ORDER } },
  orderEvents: { subscription: ORDER_EVENTS },
  walletEvents: { subscription: "subscription { walletEvents { id type } }" },
  // An empty search: refused by the search rules (an answer), or for the key's permissions.
  searchOffers: { subscription: "subscription ($input: SearchFlightsInput!) { searchOffers(input: $input) { supplier } }", variables: { input: { slices: [], passengers: [] } } },
  wallet: { rest: "GET /v1/wallet" },
  walletTransactions: { rest: "GET /v1/wallet/transactions" },
  // An empty body: refused by the input rules (an answer), or for the key's permissions.
  updateWallet: { rest: "PATCH /v1/wallet", body: {} },
  auditEvents: { rest: "GET /v1/audit_events" },
  auditEvent: { rest: "GET /v1/audit_events/:id" },
  statement: { rest: "GET /v1/statements/:month" },
  orderInvoice: { rest: "GET /v1/air/orders/:id/invoice" },
};

const permissioned = (Object.entries(operations) as Array<[Operation, (typeof operations)[Operation]]>).flatMap(([operation, rule]) =>
  rule.permission === null ? [] : [{ operation, permission: rule.permission }],
);

const NO_ACCESS: KeyPermissions = { search: "none", orders: "none", wallet: "none", webhooks: "none", tenant: "none" };

describe("key permissions", () => {
  let server: TestServer;
  let tenant: TenantFixture;
  const keys = new Map<string, Promise<string>>();

  /** A key of the tenant with exactly these permissions (one per distinct set, issued on first use). */
  const keyWith = (permissions: Permissions): Promise<string> => {
    const name = JSON.stringify({ ...NO_ACCESS, ...permissions });
    if (!keys.has(name)) keys.set(name, issueKey(permissions).then((issued) => issued.body.data.apiKey as string));
    return keys.get(name)!;
  };
  const issueKey = async (permissions: unknown, label = "scoped"): Promise<ApiResponse> => {
    const issued = await call(server, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: server.ownerKey, body: { label, permissions } });
    expect(issued.status, JSON.stringify(issued.body)).toBe(201);
    return issued;
  };

  beforeAll(async () => {
    server = await startTestServer({ env: { TICKETING_DELAY_MS: "50" } });
    tenant = await createTenant(server);
  });
  afterAll(() => server.close());

  describe("issuing keys", () => {
    it("keeps full access for a key issued without permissions, and shows it", async () => {
      const listed = await call(server, "GET", `/v1/tenants/${tenant.tenantId}/keys`, { key: server.ownerKey });
      const legacy = listed.body.data.items.find((key: { keyId: string }) => key.keyId === tenant.keyId);
      expect(legacy.permissions).toEqual(FULL_ACCESS);
    });

    it("stores what a key is issued with, resources not named as none, and shows it wherever the key is, never the secret", async () => {
      const issued = await issueKey({ orders: "read", search: "write" }, "reporting");
      const expected = { search: "write", orders: "read", wallet: "none", webhooks: "none", tenant: "none" };
      expect(issued.body.data).toMatchObject({ label: "reporting", permissions: expected, apiKey: expect.stringMatching(/^sk_test_/) });
      const listed = await call(server, "GET", `/v1/tenants/${tenant.tenantId}/keys?limit=100`, { key: server.ownerKey });
      const shown = listed.body.data.items.find((key: { keyId: string }) => key.keyId === issued.body.data.keyId);
      expect(shown).toEqual({ ...issued.body.data, apiKey: undefined });
      const revoked = await call(server, "DELETE", `/v1/tenants/${tenant.tenantId}/keys/${issued.body.data.keyId}`, { key: server.ownerKey });
      expect(revoked.body.data.permissions).toEqual(expected);
    });

    it.each([
      ["an unknown resource", { orders: "read", payments: "write" }, "permissions.payments"],
      ["an unknown level", { orders: "admin" }, "permissions.orders"],
      ["a level of another case", { wallet: "READ" }, "permissions.wallet"],
      ["null", null, "permissions"],
      ["a list", ["orders"], "permissions"],
    ])("refuses %s with 422 invalid_field_value naming it, issuing nothing", async (_label, permissions, field) => {
      const before = await call(server, "GET", `/v1/tenants/${tenant.tenantId}/keys`, { key: server.ownerKey });
      const refused = await call(server, "POST", `/v1/tenants/${tenant.tenantId}/keys`, { key: server.ownerKey, body: { label: "bad", permissions } });
      expectError(refused, 422, "invalid_field_value", field);
      const after = await call(server, "GET", `/v1/tenants/${tenant.tenantId}/keys`, { key: server.ownerKey });
      expect(after.body.data.pagination.total).toBe(before.body.data.pagination.total);
    });

    it("issues and lists keys with permissions in GraphQL too", async () => {
      const created = await graphql(
        server,
        `mutation ($tenantId: ID!, $permissions: ApiKeyPermissionsInput) {
          createTenantApiKey(tenantId: $tenantId, label: "gql", permissions: $permissions) { apiKey key { id permissions { search orders wallet webhooks tenant } } }
        }`,
        { tenantId: tenant.tenantId, permissions: { orders: "WRITE", wallet: "READ", tenant: null } },
        { key: server.ownerKey },
      );
      expect(created.body.errors).toBeUndefined();
      const { apiKey, key } = created.body.data.createTenantApiKey;
      expect(key.permissions).toEqual({ search: "NONE", orders: "WRITE", wallet: "READ", webhooks: "NONE", tenant: "NONE" });
      const viewer = await graphql(server, "{ viewer { keyId permissions { orders wallet tenant } } }", {}, { key: apiKey });
      expect(viewer.body.data.viewer).toEqual({ keyId: key.id, permissions: { orders: "WRITE", wallet: "READ", tenant: "NONE" } });
      const listed = await graphql(server, "query ($id: ID!) { tenant(id: $id) { apiKeys(first: 100) { nodes { id permissions { orders } } } } }", { id: tenant.tenantId }, { key: server.ownerKey });
      expect(listed.body.data.tenant.apiKeys.nodes).toContainEqual({ id: key.id, permissions: { orders: "WRITE" } });
      expect(listed.body.data.tenant.apiKeys.nodes).toContainEqual({ id: tenant.keyId, permissions: { orders: "WRITE" } });
      const unknownLevel = await graphql(server, `mutation { createTenantApiKey(tenantId: "${tenant.tenantId}", label: "x", permissions: { orders: ADMIN }) { apiKey } }`, {}, { key: server.ownerKey });
      expect(unknownLevel.status).toBe(400);
    });
  });

  describe("the whole permission table", () => {
    it("has a probe for every operation that needs a permission, on its REST route when it has one", () => {
      expect(Object.keys(probes).sort()).toEqual(permissioned.map(({ operation }) => operation).sort());
      for (const { operation } of permissioned) {
        const probe = probes[operation]!;
        const routes = restRoutes.filter((route) => route.operation === operation).map(routeName);
        if (routes.length > 0) expect("rest" in probe && routes.includes(probe.rest), `${operation}: probe one of ${routes.join(", ")}`).toBe(true);
        if ("rest" in probe) expect(restRoutes.map(routeName), operation).toContain(probe.rest);
      }
    });

    it("probes each operation an input adds (whenGiven) on the route of the operation it adds to, with that input", () => {
      const snake = (name: string) => name.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);
      const added = (Object.entries(operations) as Array<[Operation, OperationRule]>).flatMap(([operation, rule]) => Object.entries(rule.whenGiven ?? {}).map(([input, also]) => ({ operation, input, also })));
      expect(added.length).toBeGreaterThan(0);
      for (const { operation, input, also } of added) {
        const probe = probes[also]!;
        expect("rest" in probe && probe.rest, also).toBe((probes[operation] as { rest: string }).rest);
        expect(new URLSearchParams((probe as { query?: string }).query).has(snake(input)), also).toBe(true);
      }
    });

    it("lets every Query field needing a permission be null, so a refusal nulls that field alone", () => {
      const queryFields = Object.values(servedSchema.getQueryType()!.getFields());
      const nonNull = queryFields.filter((field) => (operations as Record<string, { permission: string | null }>)[field.name]?.permission && isNonNullType(field.type));
      expect(nonNull.map((field) => field.name)).toEqual([]);
    });

    it.each(permissioned)("$operation ($permission): refused to a key one level short, allowed to a key with exactly that level", async ({ operation, permission }) => {
      const probe = probes[operation]!;
      const [resource, level] = permission.split(":") as [PermissionResource, PermissionLevel];
      const lacking = await keyWith({ ...FULL_ACCESS, ...probe.alsoNeeds, [resource]: level === "write" ? "read" : "none" });
      const having = await keyWith({ ...probe.alsoNeeds, [resource]: level });

      const refusal = await perform(probe, lacking);
      expect(refusal.codes, refusal.answer).toContain("insufficient_permissions");
      expect(refusal.requiredPermission, refusal.answer).toEqual({ resource, level });

      const allowed = await perform(probe, having);
      expect(allowed.codes, allowed.answer).not.toContain("insufficient_permissions");
      expect(allowed.codes, allowed.answer).not.toContain("forbidden");
      expect(allowed.status, allowed.answer).toBeLessThan(500);
      if ("rest" in probe) expect(allowed.status, allowed.answer).not.toBe(403);
    });
  });

  /** Performs a probe with `key`: its error codes, the refusal's requiredPermission, and the answer as text for messages. */
  async function perform(probe: Probe, key: string): Promise<{ status: number; codes: string[]; requiredPermission?: unknown; answer: string }> {
    if ("rest" in probe) {
      const [method, url] = probe.rest.split(" ") as [string, string];
      const path = url.replace(/:(\w+)/g, (_match, name: string) => `${name}_neverexisted`) + (probe.query ? `?${probe.query}` : "");
      const headers: Record<string, string> = method === "POST" ? { "idempotency-key": newKey("probe") } : {};
      const response = await call(server, method, path, { key, body: probe.body ?? (method === "GET" || method === "DELETE" ? undefined : {}), headers });
      const codes = response.status >= 400 ? [response.body.errors[0].code as string] : [];
      if (response.status === 403) expectError(response, 403, codes[0]!);
      return { status: response.status, codes, requiredPermission: response.body?.requiredPermission, answer: `${response.status} ${JSON.stringify(response.body)}` };
    }
    const client = wsClient(server.wsUrl, { authorization: `Bearer ${key}` });
    try {
      const subscription = subscribe(client, probe.subscription, probe.variables);
      const started = await subscriptionOutcome(subscription);
      const errors = subscription.results.flatMap((result) => result.errors ?? []);
      const refusal = errors.find((error) => error.extensions.code === "insufficient_permissions");
      return {
        status: Math.max(0, ...errors.map((error) => error.extensions.statusCode as number)),
        codes: errors.map((error) => error.extensions.code),
        requiredPermission: refusal?.extensions.requiredPermission,
        answer: `${started} ${JSON.stringify(subscription.results)}`,
      };
    } finally {
      await client.dispose();
      await waitForOpenSubscriptions(server, 0);
    }
  }

  /** Waits until the subscription answered (data or an error) or is open on the server, listening. */
  async function subscriptionOutcome(subscription: Subscription): Promise<string> {
    return eventually(
      async () => (subscription.results.length > 0 ? "answered" : (await openOrderSubscriptions(server)) + (await openWalletSubscriptions(server)) > 0 ? "listening" : undefined),
      () => "the subscription neither answered nor started listening",
    );
  }

  describe("keys at work", () => {
    let offers: any[];
    beforeAll(async () => {
      offers = await searchForBooking(server, tenant.key);
    });

    it("a key issued without permissions works as before: it searches, books, tickets and changes its configuration", async () => {
      const order = await bookOffer(server, tenant.key, offers[0]);
      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
      const patched = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_enabled: false, timezone: "UTC" } });
      expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    });

    it("a read-only key reads orders but cannot book, ticket or cancel, and its refusals change nothing", async () => {
      const readOnly = await keyWith({ search: "read", orders: "read", wallet: "read" });
      const order = await bookOffer(server, tenant.key, offers[1]);
      const read = await getOrder(server, readOnly, order.id);
      expect(read.status).toBe(200);
      expect(read.body.data).toMatchObject({ id: order.id, status: "pending" });
      expect((await call(server, "GET", "/v1/air/orders", { key: readOnly })).body.data.items.map((item: { id: string }) => item.id)).toContain(order.id);
      const walletBefore = (await call(server, "GET", "/v1/wallet", { key: readOnly })).body.data;

      const booking = await call(server, "POST", "/v1/air/orders", {
        key: readOnly,
        headers: { "idempotency-key": newKey("ro") },
        body: { selected_offers: [offers[2].id], passengers: [], payments: [] },
      });
      expectError(booking, 403, "insufficient_permissions");
      expect(booking.body.requiredPermission).toEqual({ resource: "orders", level: "write" });
      expect(booking.body.reason).toBe("This key's permissions give orders: read; this operation needs orders: write.");
      expectError(await ticketOrder(server, readOnly, order.id), 403, "insufficient_permissions");
      expectError(await call(server, "POST", `/v1/air/orders/${order.id}/actions/cancel`, { key: readOnly, headers: { "idempotency-key": newKey("ro") } }), 403, "insufficient_permissions");
      const mutation = await graphql(server, "mutation ($id: ID!, $key: String!) { ticketOrder(orderId: $id, idempotencyKey: $key) { id } }", { id: order.id, key: newKey("ro") }, { key: readOnly });
      expect(mutation.body.errors?.map((error) => [error.extensions.code, error.extensions.requiredPermission])).toEqual([["insufficient_permissions", { resource: "orders", level: "write" }]]);

      expect((await getOrder(server, tenant.key, order.id)).body.data).toMatchObject({ status: "pending", ticketing_status: "not_started" });
      expect((await call(server, "GET", "/v1/wallet", { key: readOnly })).body.data).toEqual(walletBefore);
    });

    it("GraphQL answers per field: data for the fields the key may read, insufficient_permissions for the others", async () => {
      const ordersOnly = await keyWith({ orders: "read" });
      const response = await graphql(server, "{ orders(first: 5) { totalCount } wallet { balance } viewer { kind tenant { id } } }", {}, { key: ordersOnly });
      expect(response.status).toBe(200);
      expect(response.body.data).toEqual({ orders: { totalCount: expect.any(Number) }, wallet: null, viewer: { kind: "TENANT", tenant: null } });
      expect(response.body.data!.orders.totalCount).toBeGreaterThan(0);
      const refusals = response.body.errors!.map((error) => ({ path: (error as { path?: unknown }).path, code: error.extensions.code, requiredPermission: error.extensions.requiredPermission }));
      expect(refusals).toEqual([
        { path: ["wallet"], code: "insufficient_permissions", requiredPermission: { resource: "wallet", level: "read" } },
        { path: ["viewer", "tenant"], code: "insufficient_permissions", requiredPermission: { resource: "tenant", level: "read" } },
      ]);
    });

    it("subscriptions need orders: read, refused when they start", async () => {
      const order = await bookOffer(server, tenant.key, offers[3]);
      const searchOnly = await keyWith({ search: "write" });
      const client = wsClient(server.wsUrl, { "x-api-key": searchOnly });
      try {
        for (const [query, variables] of [[ORDER_STATUS_CHANGED, { orderId: order.id }], [ORDER_EVENTS, {}]] as const) {
          const attempt = subscribe(client, query, variables);
          const [result] = await attempt.waitForResults(1);
          expect(result!.data ?? null).toBeNull();
          expect(result!.errors!.map((error) => [error.extensions.code, error.extensions.requiredPermission])).toEqual([["insufficient_permissions", { resource: "orders", level: "read" }]]);
          await attempt.waitForEnd();
        }
      } finally {
        await client.dispose();
      }
      const reader = wsClient(server.wsUrl, { "x-api-key": await keyWith({ orders: "read" }) });
      try {
        const [first] = await subscribe(reader, ORDER_STATUS_CHANGED, { orderId: order.id }).waitForResults(1);
        expect(first!.data.orderStatusChanged).toMatchObject({ id: order.id, status: "PENDING" });
      } finally {
        await reader.dispose();
      }
    });

    it("the events API shows orders' contents, so it needs orders: read besides webhooks: read", async () => {
      const order = await bookOffer(server, tenant.key, offers[4]);
      const event = await eventually(
        async () => (await call(server, "GET", `/v1/events?order_id=${order.id}`, { key: tenant.key })).body.data?.items?.[0],
        () => "no event of the order",
      );
      const webhooksOnly = await keyWith({ webhooks: "read" });
      for (const path of ["/v1/events", `/v1/events/${event.id}`]) {
        const refused = await call(server, "GET", path, { key: webhooksOnly });
        expectError(refused, 403, "insufficient_permissions");
        expect(refused.body.requiredPermission).toEqual({ resource: "orders", level: "read" });
        expect(JSON.stringify(refused.body)).not.toContain(order.booking_reference);
      }
      const viaGraphQL = await graphql(server, "{ events(first: 5) { nodes { id payload } } }", {}, { key: webhooksOnly });
      expect(viaGraphQL.body.data).toEqual({ events: null });
      expect(viaGraphQL.body.errors!.map((error) => [error.extensions.code, error.extensions.requiredPermission])).toEqual([["insufficient_permissions", { resource: "orders", level: "read" }]]);
      const both = await keyWith({ webhooks: "read", orders: "read" });
      expect((await call(server, "GET", `/v1/events/${event.id}`, { key: both })).status).toBe(200);
    });

    it("the owner key is unrestricted, also acting for the tenant", async () => {
      const headers = { "service-tenant": tenant.tenantId };
      expect((await call(server, "GET", "/v1/tenant", { key: server.ownerKey, headers })).status).toBe(200);
      expect((await call(server, "GET", "/v1/webhooks/deliveries", { key: server.ownerKey, headers })).status).toBe(200);
      const viewer = await graphql(server, "{ viewer { permissions { search orders wallet webhooks tenant } } }", {}, { key: server.ownerKey });
      expect(viewer.body.data.viewer.permissions).toEqual({ search: "WRITE", orders: "WRITE", wallet: "WRITE", webhooks: "WRITE", tenant: "WRITE" });
    });
  });
});
