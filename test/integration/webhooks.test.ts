import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { bookOffer, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { credit } from "../helpers/wallet";
import { startReceiver, startTarpit, type Receiver, type Tarpit } from "../helpers/webhook-receiver";

/**
 * Signed webhooks with retries (docs/webhooks.md): a real receiver on a local port gets every
 * order event of its tenant, signed per Standard Webhooks, retried per WEBHOOK_RETRY_SCHEDULE,
 * in order per order; the delivery log and redelivery on REST and GraphQL.
 */

const TIMEOUT_MS = 400;

/** Booking and the delivery log on the suite's server (`server()`: started in its beforeAll). */
function deliveryHelpers(server: () => TestServer) {
  const bookOrder = async (tenant: TenantFixture) => {
    const [offer] = await searchForBooking(server(), tenant.key);
    return bookOffer(server(), tenant.key, offer);
  };

  const deliveries = async (tenant: TenantFixture, query = "") => {
    const response = await call(server(), "GET", `/v1/webhooks/deliveries${query}`, { key: tenant.key });
    expect(response.status, JSON.stringify(response.body)).toBe(200);
    return response.body.data.items as any[];
  };

  /** Waits until the delivery of `event` for the order is in `status`, and returns its log item. */
  const settledDelivery = (tenant: TenantFixture, orderId: string, event: string, status: string) => {
    let last: any;
    return eventually(
      async () => {
        last = (await deliveries(tenant)).find((item) => item.order_id === orderId && item.event === event);
        return last?.status === status ? last : undefined;
      },
      () => `delivery of ${event} for ${orderId} is ${JSON.stringify(last)}, not ${status}`,
    );
  };
  return { bookOrder, deliveries, settledDelivery };
}

describe("webhooks", () => {
  let server: TestServer;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    // The receivers listen on loopback, which only WEBHOOK_ALLOW_PRIVATE_NETWORKS lets tenants reach.
    server = await startTestServer({
      env: { WEBHOOK_RETRY_SCHEDULE: "0,0.05,0.05", WEBHOOK_TIMEOUT_MS: String(TIMEOUT_MS), TICKETING_DELAY_MS: "50", JOB_POLL_MS: "50", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" },
    });
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };

  type HookedTenant = TenantFixture & { secret: string };

  /** A tenant whose webhooks go to `url`, with the secret the first PATCH showed. */
  const hookedTenant = async (url: string, fields: Record<string, unknown> = {}): Promise<HookedTenant> => {
    const tenant = await createTenant(server, fields);
    const patched = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: url, webhook_enabled: true } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    expect(patched.body.data.webhook_secret).toMatch(/^whsec_[A-Za-z0-9+/]+=*$/);
    return { ...tenant, secret: patched.body.data.webhook_secret };
  };

  const { bookOrder, deliveries, settledDelivery } = deliveryHelpers(() => server);

  const verify = (secret: string, hook: { body: string; headers: Record<string, unknown> }) =>
    new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>);

  it("signs each delivery per Standard Webhooks with the secret shown once, and webhook-id is the event id", async () => {
    const hooks = await receiver();
    const tenant = await hookedTenant(hooks.url);
    const order = await bookOrder(tenant);
    const [hook] = await hooks.waitFor(order.id, "order.created");
    expect(hook!.headers["content-type"]).toBe("application/json");
    expect(hook!.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(verify(tenant.secret, hook!)).toEqual(hook!.json);
    expect(hook!.headers["webhook-id"]).toBe(hook!.json.id);
    expect(hook!.json).toMatchObject({ event: "order.created", data: { id: order.id, booking_reference: order.booking_reference } });
    expect(() => verify(`whsec_${Buffer.from("another secret of 32 bytes......").toString("base64")}`, hook!)).toThrow();

    // The secret is shown only when it is made.
    const read = await call(server, "GET", "/v1/tenant", { key: tenant.key });
    expect(read.body.data).not.toHaveProperty("webhook_secret");
    const again = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: `${hooks.url}?again=1` } });
    expect(again.status).toBe(200);
    expect(again.body.data).not.toHaveProperty("webhook_secret");
  });

  it("after a rotation signs with both secrets for the overlap, and each verifies", async () => {
    const hooks = await receiver();
    const tenant = await hookedTenant(hooks.url);
    const rotated = await call(server, "POST", "/v1/tenant/webhook_secret/rotate", { key: tenant.key });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const { webhook_secret: newSecret, previous_secret_expires_at: expiresAt } = rotated.body.data;
    expect(newSecret).toMatch(/^whsec_/);
    expect(newSecret).not.toBe(tenant.secret);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);

    const order = await bookOrder(tenant);
    const [hook] = await hooks.waitFor(order.id, "order.created");
    expect(String(hook!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verify(newSecret, hook!)).toEqual(hook!.json);
    expect(verify(tenant.secret, hook!)).toEqual(hook!.json);

    const viaGraphQL = await graphql(server, "mutation { rotateWebhookSecret { webhookSecret previousSecretExpiresAt } }", {}, { key: tenant.key });
    expect(viaGraphQL.body.errors).toBeUndefined();
    const newest = viaGraphQL.body.data!.rotateWebhookSecret.webhookSecret;
    const next = await bookOrder(tenant);
    const [nextHook] = await hooks.waitFor(next.id, "order.created");
    expect(verify(newest, nextHook!)).toEqual(nextHook!.json);
    expect(verify(newSecret, nextHook!)).toEqual(nextHook!.json);
    // Two rotations within the overlap: the first secret no longer signs.
    expect(() => verify(tenant.secret, nextHook!)).toThrow();
  });

  it("retries a failing receiver with the same webhook-id and logs every attempt", async () => {
    const hooks = await receiver({ responder: (_hook, index) => ({ status: index < 2 ? 500 : 200 }) });
    const tenant = await hookedTenant(hooks.url);
    const order = await bookOrder(tenant);
    const arrivals = await hooks.waitFor(order.id, "order.created", 3);
    expect(new Set(arrivals.map((hook) => hook.headers["webhook-id"])).size).toBe(1);
    for (const hook of arrivals) expect(verify(tenant.secret, hook)).toEqual(hook.json);
    const delivery = await settledDelivery(tenant, order.id, "order.created", "succeeded");
    expect(delivery).toMatchObject({ attempts: 3, last_status_code: 200, last_error: null, next_attempt_at: null, event_id: arrivals[0]!.json.id });
    expect(delivery.id).toMatch(/^whd_/);

    const log = await graphql(
      server,
      `query { webhookDeliveries(first: 5) { totalCount nodes { id status attempts attemptLog { number statusCode durationMs error } } } }`,
      {},
      { key: tenant.key },
    );
    expect(log.body.errors).toBeUndefined();
    const [node] = log.body.data!.webhookDeliveries.nodes;
    expect(node).toMatchObject({ id: delivery.id, status: "SUCCEEDED", attempts: 3 });
    expect(node.attemptLog.map((attempt: any) => [attempt.number, attempt.statusCode])).toEqual([
      [1, 500],
      [2, 500],
      [3, 200],
    ]);
  });

  it("waits at least the receiver's Retry-After before the next attempt", async () => {
    const hooks = await receiver({ responder: (_hook, index) => (index === 0 ? { status: 503, headers: { "retry-after": "1" } } : { status: 200 }) });
    const tenant = await hookedTenant(hooks.url);
    const order = await bookOrder(tenant);
    const [first, second] = await hooks.waitFor(order.id, "order.created", 2);
    expect(second!.at - first!.at).toBeGreaterThanOrEqual(1000);
    await settledDelivery(tenant, order.id, "order.created", "succeeded");
  });

  it("cuts an attempt at WEBHOOK_TIMEOUT_MS and fails the delivery after the last attempt", async () => {
    const hooks = await receiver({ responder: () => "hang" });
    const tenant = await hookedTenant(hooks.url);
    const order = await bookOrder(tenant);
    const delivery = await settledDelivery(tenant, order.id, "order.created", "failed");
    expect(delivery).toMatchObject({ attempts: 3, last_status_code: null, next_attempt_at: null });
    expect(delivery.last_error).toContain(`within ${TIMEOUT_MS} ms`);
    const log = await graphql(server, `query { webhookDeliveries { nodes { attemptLog { durationMs error } } } }`, {}, { key: tenant.key });
    const attempts = log.body.data!.webhookDeliveries.nodes[0].attemptLog;
    expect(attempts).toHaveLength(3);
    for (const attempt of attempts) {
      expect(attempt.durationMs).toBeGreaterThanOrEqual(TIMEOUT_MS - 5);
      expect(attempt.durationMs).toBeLessThan(TIMEOUT_MS + 1000);
    }
  });

  it("disables the tenant's webhooks when the receiver answers 410 Gone", async () => {
    const hooks = await receiver({ responder: () => ({ status: 410 }) });
    const tenant = await hookedTenant(hooks.url);
    const order = await bookOrder(tenant);
    const delivery = await settledDelivery(tenant, order.id, "order.created", "failed");
    expect(delivery).toMatchObject({ attempts: 1, last_status_code: 410 });
    const config = await call(server, "GET", "/v1/tenant", { key: tenant.key });
    expect(config.body.data).toMatchObject({ webhook_enabled: false, webhook_url: hooks.url });
    // No longer enabled: the next event queues no delivery.
    await bookOrder(tenant);
    expect(await deliveries(tenant)).toHaveLength(1);
    expect(hooks.received).toHaveLength(1);
  });

  it("fails a delivery that falls due after the tenant switched webhooks off, without sending it", async () => {
    const hooks = await receiver({ responder: () => ({ status: 503, headers: { "retry-after": "1" } }) });
    const tenant = await hookedTenant(hooks.url);
    const order = await bookOrder(tenant);
    await hooks.waitFor(order.id, "order.created");
    const off = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_enabled: false } });
    expect(off.status).toBe(200);
    const delivery = await settledDelivery(tenant, order.id, "order.created", "failed");
    expect(delivery.attempts).toBe(1);
    expect(delivery.last_error).toMatch(/disabled/);
    expect(hooks.received).toHaveLength(1);
  });

  it("does not follow redirects: a 3xx is a failed attempt", async () => {
    const hooks = await receiver({ responder: (hook) => (hook.path === "/hooks" ? { status: 302, headers: { location: "/elsewhere" } } : { status: 200 }) });
    const tenant = await hookedTenant(hooks.url);
    const order = await bookOrder(tenant);
    const delivery = await settledDelivery(tenant, order.id, "order.created", "failed");
    expect(delivery).toMatchObject({ attempts: 3, last_status_code: 302 });
    expect(delivery.last_error).toMatch(/redirect/);
    expect(hooks.received.map((hook) => hook.path)).toEqual(["/hooks", "/hooks", "/hooks"]);
  });

  it("queues nothing while webhook_enabled is false", async () => {
    const hooks = await receiver();
    const tenant = await createTenant(server);
    const patched = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: hooks.url, webhook_enabled: false } });
    expect(patched.body.data.webhook_secret).toMatch(/^whsec_/);
    await bookOrder(tenant);
    // The outbox writes a delivery with its event or not at all: none now means none ever.
    expect(await deliveries(tenant)).toEqual([]);
    expect(hooks.received).toEqual([]);
  });

  it("delivers each tenant's events only to its own receiver", async () => {
    const hooksA = await receiver();
    const hooksB = await receiver();
    const tenantA = await hookedTenant(hooksA.url);
    const tenantB = await hookedTenant(hooksB.url);
    const orderA = await bookOrder(tenantA);
    const orderB = await bookOrder(tenantB);
    await hooksA.waitFor(orderA.id, "order.created");
    await hooksB.waitFor(orderB.id, "order.created");
    await settledDelivery(tenantA, orderA.id, "order.created", "succeeded");
    await settledDelivery(tenantB, orderB.id, "order.created", "succeeded");
    expect(hooksA.received.map((hook) => hook.json.data.id)).toEqual([orderA.id]);
    expect(hooksB.received.map((hook) => hook.json.data.id)).toEqual([orderB.id]);
    for (const hook of hooksB.received) expect(() => verify(tenantA.secret, hook)).toThrow();
  });

  it("keeps an order's events in order: ticketed waits for created's retries", async () => {
    const hooks = await receiver({
      responder: (hook) => (hook.json?.event === "order.created" && hooks.eventsOf(hook.json.data.id, "order.created").length === 1 ? { status: 503, headers: { "retry-after": "1" } } : { status: 200 }),
    });
    const tenant = await hookedTenant(hooks.url);
    await credit(server, tenant.tenantId, "50000.00");
    const order = await bookOrder(tenant);
    await hooks.waitFor(order.id, "order.created");
    const ticketed = await ticketOrder(server, tenant.key, order.id);
    expect(ticketed.status, JSON.stringify(ticketed.body)).toBe(200);
    // The order is ticketed (its event committed) while created still waits for its retry.
    await waitForStatus(server, tenant.key, order.id, ["TICKETED"]);
    const [ticketedHook] = await hooks.waitFor(order.id, "order.ticketed");
    expect(hooks.eventsOf(order.id).map((hook) => hook.json.event)).toEqual(["order.created", "order.created", "order.ticketed"]);
    const createdHooks = hooks.eventsOf(order.id, "order.created");
    expect(ticketedHook!.at).toBeGreaterThanOrEqual(createdHooks[1]!.at);
    expect(ticketedHook!.json.data).toMatchObject({ status: "confirmed", documents: [expect.objectContaining({ type: "electronic_ticket" })] });
  });

  it("lists deliveries newest first with a status filter, and redelivers on REST and GraphQL", async () => {
    const hooks = await receiver();
    const tenant = await hookedTenant(hooks.url);
    const first = await bookOrder(tenant);
    const second = await bookOrder(tenant);
    await settledDelivery(tenant, first.id, "order.created", "succeeded");
    await settledDelivery(tenant, second.id, "order.created", "succeeded");

    const page = await call(server, "GET", "/v1/webhooks/deliveries?limit=1", { key: tenant.key });
    expect(page.body.data.pagination).toMatchObject({ total: 2, limit: 1, hasMore: true });
    const [newest] = page.body.data.items;
    expect(Object.keys(newest).sort()).toEqual(
      ["id", "event_id", "event", "order_id", "endpoint_id", "status", "attempts", "last_status_code", "last_error", "next_attempt_at", "created_at"].sort(),
    );
    // Its endpoint is the tenant's default one: the webhook_url, whose id is the tenant's with the prefix whe_.
    expect(newest).toMatchObject({ order_id: second.id, endpoint_id: `whe_${tenant.tenantId.slice(4)}`, event: "order.created", status: "succeeded", attempts: 1, last_status_code: 200 });
    const next = await call(server, "GET", `/v1/webhooks/deliveries?limit=1&cursor=${encodeURIComponent(page.body.data.pagination.nextCursor)}`, { key: tenant.key });
    expect(next.body.data.items[0].order_id).toBe(first.id);
    expect(await deliveries(tenant, "?status=failed")).toEqual([]);
    expect(await deliveries(tenant, "?status=succeeded")).toHaveLength(2);
    expectError(await call(server, "GET", "/v1/webhooks/deliveries?status=lost", { key: tenant.key }), 400, "validation_failed", "status");

    // REST redelivery: the same event again, same webhook-id, attempts logged on.
    const redelivered = await call(server, "POST", `/v1/webhooks/deliveries/${newest.id}/redeliver`, { key: tenant.key });
    expect(redelivered.status, JSON.stringify(redelivered.body)).toBe(200);
    expect(redelivered.body.data).toMatchObject({ id: newest.id, status: "pending", attempts: 1 });
    const again = await hooks.waitFor(second.id, "order.created", 2);
    expect(again[1]!.headers["webhook-id"]).toBe(again[0]!.headers["webhook-id"]);
    expect(await settledDelivery(tenant, second.id, "order.created", "succeeded")).toMatchObject({ attempts: 2 });

    // GraphQL redelivery.
    const viaGraphQL = await graphql(server, `mutation ($id: ID!) { redeliverWebhook(id: $id) { id status eventId } }`, { id: newest.id }, { key: tenant.key });
    expect(viaGraphQL.body.errors).toBeUndefined();
    expect(viaGraphQL.body.data!.redeliverWebhook).toMatchObject({ id: newest.id, status: "PENDING", eventId: newest.event_id });
    await hooks.waitFor(second.id, "order.created", 3);
    expect(await settledDelivery(tenant, second.id, "order.created", "succeeded")).toMatchObject({ attempts: 3 });
    const connection = await graphql(
      server,
      `query { webhookDeliveries(first: 1, status: SUCCEEDED) { totalCount edges { cursor node { id } } pageInfo { hasNextPage endCursor } } }`,
      {},
      { key: tenant.key },
    );
    expect(connection.body.errors).toBeUndefined();
    expect(connection.body.data!.webhookDeliveries).toMatchObject({ pageInfo: { hasNextPage: true } });

    // Usage counts the tenant's deliveries by status.
    const usage = await call(server, "GET", `/v1/tenants/${tenant.tenantId}/usage`, { key: server.ownerKey });
    expect(usage.body.data.webhookDeliveries).toEqual({ succeeded: 2, failed: 0, pending: 0 });
  });

  it("answers another tenant's delivery exactly like an unknown one", async () => {
    const hooks = await receiver();
    const owner = await hookedTenant(hooks.url);
    const other = await hookedTenant(hooks.url);
    const order = await bookOrder(owner);
    const delivery = await settledDelivery(owner, order.id, "order.created", "succeeded");

    const foreign = await call(server, "POST", `/v1/webhooks/deliveries/${delivery.id}/redeliver`, { key: other.key });
    const unknown = await call(server, "POST", `/v1/webhooks/deliveries/whd_unknown/redeliver`, { key: other.key });
    expectError(foreign, 404, "not_found");
    expectError(unknown, 404, "not_found");
    expect(await deliveries(other)).toEqual([]);
    const viaGraphQL = await graphql(server, `mutation ($id: ID!) { redeliverWebhook(id: $id) { id } }`, { id: delivery.id }, { key: other.key });
    expect(viaGraphQL.body.errors?.[0]?.extensions.code).toBe("not_found");

    // Redelivery needs webhooks on.
    await call(server, "PATCH", "/v1/tenant", { key: owner.key, body: { webhook_enabled: false } });
    expectError(await call(server, "POST", `/v1/webhooks/deliveries/${delivery.id}/redeliver`, { key: owner.key }), 409, "webhooks_disabled");
  });

  it("reports webhook backlog, attempts by outcome and delivery latency on /metrics", async () => {
    const metrics = await call(server, "GET", "/metrics");
    const text = String(metrics.body);
    expect(text).toMatch(/^aerogate_webhook_deliveries_due \d+/m);
    expect(text).toMatch(/^aerogate_webhook_attempts_total\{outcome="success"\} [1-9]/m);
    expect(text).toMatch(/^aerogate_webhook_attempts_total\{outcome="timeout"\} [1-9]/m);
    expect(text).toMatch(/^aerogate_webhook_delivery_latency_seconds_count [1-9]/m);
  });
});


describe("webhooks: the first attempt waits the schedule's first delay", () => {
  let server: TestServer;
  let hooks: Receiver;

  beforeAll(async () => {
    server = await startTestServer({ env: { WEBHOOK_RETRY_SCHEDULE: "1.5,0.05", TICKETING_DELAY_MS: "50", JOB_POLL_MS: "50", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } });
    hooks = await startReceiver();
  });
  afterAll(async () => {
    await server?.close();
    await hooks?.close();
  });

  it("sends an event's first attempt WEBHOOK_RETRY_SCHEDULE[0] seconds after the event, not at once", async () => {
    const tenant = await createTenant(server);
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: hooks.url, webhook_enabled: true } })).status).toBe(200);
    const [offer] = await searchForBooking(server, tenant.key);
    const order = await bookOffer(server, tenant.key, offer);
    const [hook] = await hooks.waitFor(order.id, "order.created");
    const waitedMs = hook!.at - Date.parse(hook!.json.created_at);
    expect(waitedMs).toBeGreaterThanOrEqual(1500);
    // Due at 1.5 s and woken for it: not left to the next poll of a quiet queue.
    expect(waitedMs).toBeLessThan(5000);
  });
});

/**
 * The private-network rule (WEBHOOK_ALLOW_PRIVATE_NETWORKS unset), for live and sandbox tenants
 * alike: a sandbox key once made the server a port scanner of its own network, the delivery log
 * reporting each port's status code or error.
 */
describe("webhooks: the private-network rule", () => {
  let server: TestServer;
  let hooks: Receiver;

  beforeAll(async () => {
    server = await startTestServer({ env: { WEBHOOK_RETRY_SCHEDULE: "0", TICKETING_DELAY_MS: "50", JOB_POLL_MS: "50" } });
    hooks = await startReceiver();
  });
  afterAll(async () => {
    await server?.close();
    await hooks?.close();
  });

  const { bookOrder, settledDelivery } = deliveryHelpers(() => server);

  it.each(["live", "sandbox"])("refuses a %s tenant's private destinations: literal IPs on update, names resolving to loopback at connect time", async (environment) => {
    const tenant = await createTenant(server, { environment });
    const literal = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: hooks.url, webhook_enabled: true } });
    expectError(literal, 422, "invalid_field_value", "webhook_url");

    // A live tenant's URL is https; refused before any connection, it needs no receiver speaking TLS.
    const scheme = environment === "live" ? "https" : "http";
    const named = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: `${scheme}://localhost:${hooks.port}/hooks`, webhook_enabled: true } });
    expect(named.status, JSON.stringify(named.body)).toBe(200);
    // A live tenant's booking needs money in the wallet.
    if (environment === "live") await credit(server, tenant.tenantId, "50000.00");
    const order = await bookOrder(tenant);
    const delivery = await settledDelivery(tenant, order.id, "order.created", "failed");
    // Only that it may not go there: not what the name resolves to, which would map the server's network.
    expect(delivery).toMatchObject({ attempts: 1, last_status_code: null, last_error: "destination not allowed" });
    expect(hooks.received).toEqual([]);
  });

  it("says only 'destination unreachable' when a name does not resolve, never the resolver's error or the name", async () => {
    const tenant = await createTenant(server);
    const patched = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: "https://no-such-host.invalid/hooks", webhook_enabled: true } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    const order = await bookOrder(tenant);
    const delivery = await settledDelivery(tenant, order.id, "order.created", "failed");
    expect(delivery).toMatchObject({ attempts: 1, last_status_code: null, last_error: "destination unreachable" });
  });

  it("refuses plain http for a live tenant's webhooks (its settings, an endpoint's url, GraphQL), and keeps it for sandbox ones", async () => {
    const live = await createTenant(server, { environment: "live" });
    const plain = "http://hooks.acme.example/aerogate";
    const patched = await call(server, "PATCH", "/v1/tenant", { key: live.key, body: { webhook_url: plain, webhook_enabled: true } });
    expectError(patched, 422, "invalid_field_value", "webhook_url");
    expect(patched.body.message).toMatch(/https/);
    expectError(await call(server, "POST", "/v1/webhook_endpoints", { key: live.key, body: { url: plain, enabled_events: ["*"] } }), 422, "invalid_field_value", "url");
    const viaGraphQL = await graphql(server, "mutation ($url: String) { updateTenantConfig(input: { webhookUrl: $url }) { webhookUrl } }", { url: plain }, { key: live.key });
    expectGraphQLError(viaGraphQL, "invalid_field_value", { field: "webhook_url" });
    const secure = await call(server, "POST", "/v1/webhook_endpoints", { key: live.key, body: { url: "https://hooks.acme.example/aerogate", enabled_events: ["*"] } });
    expect(secure.status, JSON.stringify(secure.body)).toBe(201);
    expectError(await call(server, "PATCH", `/v1/webhook_endpoints/${secure.body.data.id}`, { key: live.key, body: { url: plain } }), 422, "invalid_field_value", "url");
    expect((await call(server, "GET", "/v1/tenant", { key: live.key })).body.data.webhook_url).toBeNull();

    const sandbox = await createTenant(server);
    expect((await call(server, "PATCH", "/v1/tenant", { key: sandbox.key, body: { webhook_url: plain } })).status).toBe(200);
  });

  it.each(["http://[64:ff9b::7f00:1]/hooks", "http://[2002:7f00:1::]/hooks", "http://[::7f00:1]/hooks", "http://[::ffff:127.0.0.1]/hooks"])(
    "refuses IPv6 spellings of loopback on update: %s",
    async (url) => {
      for (const environment of ["live", "sandbox"]) {
        const tenant = await createTenant(server, { environment });
        expectError(await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: url, webhook_enabled: true } }), 422, "invalid_field_value", "webhook_url");
      }
    },
  );
});

/**
 * Receivers that accept the connection and then misbehave (tarpits): one answering a byte at a
 * time, one answering a 10 MB body. An attempt is cut at WEBHOOK_TIMEOUT_MS however the bytes
 * trickle in (a deadline, not an idle timeout), and reads at most a small body.
 */
describe("webhooks: receivers that trickle or flood their answer", () => {
  const TARPIT_TIMEOUT_MS = 1500;
  let server: TestServer;
  const tarpits: Tarpit[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      env: { WEBHOOK_RETRY_SCHEDULE: "0,60", WEBHOOK_TIMEOUT_MS: String(TARPIT_TIMEOUT_MS), TICKETING_DELAY_MS: "50", JOB_POLL_MS: "50", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" },
    });
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all(tarpits.map((tarpit) => tarpit.close()));
  });

  const tarpit = async (...args: Parameters<typeof startTarpit>) => {
    const started = await startTarpit(...args);
    tarpits.push(started);
    return started;
  };
  const { bookOrder, deliveries, settledDelivery } = deliveryHelpers(() => server);
  const tenantDeliveringTo = async (url: string) => {
    const tenant = await createTenant(server);
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: url, webhook_enabled: true } })).status).toBe(200);
    return tenant;
  };

  it("cuts an answer trickling in a byte every 200 ms at WEBHOOK_TIMEOUT_MS: a deadline, not an idle timeout", async () => {
    const trickling = await tarpit("trickle", { everyMs: 200 });
    const tenant = await tenantDeliveringTo(trickling.url("/hooks"));
    const order = await bookOrder(tenant);
    // The first attempt failed; the next is a minute away.
    const delivery = await eventually(
      async () => (await deliveries(tenant)).find((item) => item.order_id === order.id && item.attempts === 1),
      () => "the trickling receiver's first attempt has not ended",
    );
    expect(delivery).toMatchObject({ status: "pending", last_status_code: null, last_error: `no complete answer within ${TARPIT_TIMEOUT_MS} ms` });
    const log = await graphql(server, "query { webhookDeliveries { nodes { attemptLog { durationMs error } } } }", {}, { key: tenant.key });
    const [attempt] = log.body.data!.webhookDeliveries.nodes[0].attemptLog;
    expect(attempt.durationMs).toBeGreaterThanOrEqual(TARPIT_TIMEOUT_MS - 5);
    expect(attempt.durationMs).toBeLessThan(TARPIT_TIMEOUT_MS + 1000);
    // The receiver kept sending a byte every 200 ms until it was cut off: no idle timeout would have fired.
    const [connection] = await eventually(async () => (trickling.connections[0]?.closedAt ? trickling.connections : undefined), () => "the trickling connection is still open");
    expect(connection!.closedAt! - connection!.openedAt).toBeLessThan(TARPIT_TIMEOUT_MS + 1000);
    expect(connection!.bytesWritten).toBeGreaterThanOrEqual(5);
  });

  it("reads at most a small bounded body: a 10 MB answer is cut off after its status, which decides", async () => {
    const flooding = await tarpit("flood");
    const tenant = await tenantDeliveringTo(flooding.url("/hooks"));
    const order = await bookOrder(tenant);
    const delivery = await settledDelivery(tenant, order.id, "order.created", "succeeded");
    expect(delivery).toMatchObject({ attempts: 1, last_status_code: 200 });
    const [connection] = await eventually(
      async () => (flooding.connections[0]?.closedAt ? flooding.connections : undefined),
      () => "the flooding receiver's connection is still open: its body is being read",
      5000,
    );
    expect(connection!.bytesWritten, "the body stopped being read long before its end").toBeLessThan(4 * 1024 * 1024);
    const log = await graphql(server, "query { webhookDeliveries { nodes { attemptLog { durationMs statusCode } } } }", {}, { key: tenant.key });
    expect(log.body.data!.webhookDeliveries.nodes[0].attemptLog).toEqual([{ durationMs: expect.any(Number), statusCode: 200 }]);
    expect(log.body.data!.webhookDeliveries.nodes[0].attemptLog[0].durationMs).toBeLessThan(1000);
  });
});

/**
 * Many receivers that never answer: each holds one attempt at a time until WEBHOOK_TIMEOUT_MS,
 * however many of its deliveries wait, and a receiver that answers promptly is not held up
 * behind them.
 */
describe("webhooks: receivers that never answer cost one slot each", () => {
  const HANGING = 40;
  let server: TestServer;
  let silent: Tarpit;
  let hooks: Receiver;

  beforeAll(async () => {
    // Attempts hang for longer than the test takes.
    server = await startTestServer({ env: { WEBHOOK_RETRY_SCHEDULE: "0,60", WEBHOOK_TIMEOUT_MS: "60000", TICKETING_DELAY_MS: "50", JOB_POLL_MS: "50", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" } });
    silent = await startTarpit("silent");
    hooks = await startReceiver();
  });
  afterAll(async () => {
    await server?.close();
    await silent?.close();
    await hooks?.close();
  });

  const { bookOrder } = deliveryHelpers(() => server);

  it(`with ${HANGING} receivers hanging, a prompt receiver's deliveries arrive at once`, async () => {
    const destinations = Array.from({ length: HANGING }, (_, index) => `/hanging/${index}`);
    for (const [index, path] of destinations.entries()) {
      const tenant = await createTenant(server);
      expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: silent.url(path), webhook_enabled: true } })).status).toBe(200);
      // A few of them have several deliveries waiting.
      for (let order = 0; order < (index < 5 ? 3 : 1); order++) await bookOrder(tenant);
    }
    await eventually(async () => (silent.openNow() >= HANGING ? true : undefined), () => `${silent.openNow()} of ${HANGING} receivers hanging`);

    const prompt = await createTenant(server);
    expect((await call(server, "PATCH", "/v1/tenant", { key: prompt.key, body: { webhook_url: hooks.url, webhook_enabled: true } })).status).toBe(200);
    for (let round = 0; round < 5; round++) {
      const order = await bookOrder(prompt);
      const bookedAt = Date.now();
      const [hook] = await hooks.waitFor(order.id, "order.created", 1, 5000);
      expect(hook!.at - bookedAt, `round ${round}`).toBeLessThan(1000);
    }
    for (const path of destinations) expect(silent.mostOpenAtOnce(path), path).toBe(1);
    expect(silent.openNow()).toBe(HANGING);
  });
});
