import { Webhook } from "standardwebhooks";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { bookOffer, passengersOf, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { startReceiver, type ReceivedHook, type Receiver, type Responder } from "../helpers/webhook-receiver";

/**
 * Deliveries to webhook endpoints (docs/webhook-endpoints.md): each endpoint receives exactly the
 * event types it takes, signed with its own secret; one event sent to several endpoints is one
 * delivery each, with the same webhook-id, each retried on its own; a ping goes to one endpoint
 * alone; deleting or switching off an endpoint stops its deliveries.
 */

describe("webhook endpoint deliveries", () => {
  let server: TestServer;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    // The receivers listen on loopback, which only WEBHOOK_ALLOW_PRIVATE_NETWORKS lets tenants reach.
    server = await startTestServer({
      env: { WEBHOOK_RETRY_SCHEDULE: "0,0.05,0.05", WEBHOOK_TIMEOUT_MS: "400", TICKETING_DELAY_MS: "50", JOB_POLL_MS: "50", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true" },
    });
  });
  afterAll(async () => {
    await server?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  const receiver = async (responder?: Responder) => {
    const started = await startReceiver({ responder });
    receivers.push(started);
    return started;
  };

  interface MadeEndpoint {
    id: string;
    secret: string;
  }
  const endpoint = async (tenant: TenantFixture, url: string, enabledEvents: string[], fields: Record<string, unknown> = {}): Promise<MadeEndpoint> => {
    const created = await call(server, "POST", "/v1/webhook_endpoints", { key: tenant.key, body: { url, enabled_events: enabledEvents, ...fields } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return { id: created.body.data.id, secret: created.body.data.secret };
  };

  const book = async (tenant: TenantFixture, familyName?: string) => {
    const [offer] = await searchForBooking(server, tenant.key);
    return bookOffer(server, tenant.key, offer, familyName ? { passengers: passengersOf(offer, { family_name: familyName }) } : {});
  };

  const deliveries = async (tenant: TenantFixture, query = "") => {
    const listed = await call(server, "GET", `/v1/webhooks/deliveries?limit=100${query}`, { key: tenant.key });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    return listed.body.data.items as any[];
  };

  /** Waits until none of the tenant's deliveries is pending, and returns them all. */
  const settled = (tenant: TenantFixture) => {
    let last: any[] = [];
    return eventually(
      async () => {
        last = await deliveries(tenant);
        return last.some((delivery) => delivery.status === "pending") ? undefined : last;
      },
      () => `deliveries still pending: ${JSON.stringify(last.filter((delivery) => delivery.status === "pending"))}`,
    );
  };

  const verify = (secret: string, hook: ReceivedHook) => new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>);
  const eventsOf = (hooks: Receiver) => hooks.received.map((hook) => `${hook.json.data.id}:${hook.json.event}`).sort();

  it("gives three endpoints with different filters exactly their events, one delivery each with the same webhook-id", async () => {
    const tenant = await createTenant(server);
    const [created, fulfilment, everything, switchedOff, byDefault] = await Promise.all([receiver(), receiver(), receiver(), receiver(), receiver()]);
    const onCreated = await endpoint(tenant, created.url, ["order.created"]);
    const onOutcome = await endpoint(tenant, fulfilment.url, ["order.ticketed", "order.failed"]);
    const onEvery = await endpoint(tenant, everything.url, ["*"]);
    await endpoint(tenant, switchedOff.url, ["*"], { enabled: false });
    const defaults = await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: byDefault.url, webhook_enabled: true } });
    const defaultSecret = defaults.body.data.webhook_secret as string;

    const ticketed = await book(tenant);
    const rejected = await book(tenant, "Rejected");
    const cancelled = await book(tenant);
    expect((await ticketOrder(server, tenant.key, ticketed.id)).status).toBe(200);
    expect((await ticketOrder(server, tenant.key, rejected.id)).status).toBe(200);
    expect((await call(server, "POST", `/v1/air/orders/${cancelled.id}/actions/cancel`, { key: tenant.key })).status).toBe(200);
    await waitForStatus(server, tenant.key, ticketed.id, ["TICKETED"]);
    await waitForStatus(server, tenant.key, rejected.id, ["FAILED"]);
    const log = await settled(tenant);

    const all = [
      `${ticketed.id}:order.created`,
      `${ticketed.id}:order.ticketed`,
      `${rejected.id}:order.created`,
      `${rejected.id}:order.failed`,
      `${cancelled.id}:order.created`,
      `${cancelled.id}:order.cancelled`,
    ].sort();
    expect(eventsOf(created)).toEqual(all.filter((event) => event.endsWith(":order.created")));
    expect(eventsOf(fulfilment)).toEqual([`${ticketed.id}:order.ticketed`, `${rejected.id}:order.failed`].sort());
    expect(eventsOf(everything)).toEqual(all);
    expect(eventsOf(byDefault)).toEqual(all);
    expect(switchedOff.received).toEqual([]);

    // Each endpoint's deliveries are signed with its secret alone.
    for (const [hooks, secret] of [
      [created, onCreated.secret],
      [fulfilment, onOutcome.secret],
      [everything, onEvery.secret],
      [byDefault, defaultSecret],
    ] as const) {
      for (const hook of hooks.received) {
        expect(verify(secret, hook)).toEqual(hook.json);
        expect(hook.headers["webhook-id"]).toBe(hook.json.id);
      }
    }
    expect(() => verify(onEvery.secret, created.received[0]!)).toThrow();

    // One event, three endpoints: three deliveries, one webhook-id, each to its endpoint.
    const ticketedEvent = everything.received.find((hook) => hook.json.event === "order.ticketed")!;
    const ofTicketed = log.filter((delivery) => delivery.event_id === ticketedEvent.json.id);
    expect(ofTicketed.map((delivery) => delivery.endpoint_id).sort()).toEqual([onOutcome.id, onEvery.id, `whe_${tenant.tenantId.slice(4)}`].sort());
    expect(new Set(ofTicketed.map((delivery) => delivery.id)).size).toBe(3);
    expect(fulfilment.received.find((hook) => hook.json.event === "order.ticketed")!.body).toBe(ticketedEvent.body);
    expect(log).toHaveLength(3 + 2 + 6 + 6);
    expect(log.every((delivery) => delivery.status === "succeeded")).toBe(true);

    // The log filters by endpoint, on REST and GraphQL.
    const toFulfilment = await deliveries(tenant, `&endpoint_id=${onOutcome.id}`);
    expect(toFulfilment.map((delivery) => delivery.event).sort()).toEqual(["order.failed", "order.ticketed"]);
    expect(toFulfilment.every((delivery) => delivery.endpoint_id === onOutcome.id)).toBe(true);
    const viaGraphQL = await graphql(server, `query ($id: ID!) { webhookDeliveries(endpointId: $id) { totalCount nodes { endpointId event } } }`, { id: onCreated.id }, { key: tenant.key });
    expect(viaGraphQL.body.data.webhookDeliveries.totalCount).toBe(3);
    expect(viaGraphQL.body.data.webhookDeliveries.nodes.every((node: any) => node.endpointId === onCreated.id && node.event === "order.created")).toBe(true);
  });

  it("retries each endpoint's delivery on its own: a failing receiver holds up neither the event's other deliveries nor its own order's at other endpoints", async () => {
    const tenant = await createTenant(server);
    const failing = await receiver((_hook, index) => ({ status: index < 2 ? 500 : 200 }));
    const prompt = await receiver();
    const toFailing = await endpoint(tenant, failing.url, ["*"]);
    const toPrompt = await endpoint(tenant, prompt.url, ["*"]);
    const order = await book(tenant);
    const [promptHook] = await prompt.waitFor(order.id, "order.created");
    const failingHooks = await failing.waitFor(order.id, "order.created", 3);
    expect(new Set([promptHook!, ...failingHooks].map((hook) => hook.headers["webhook-id"]))).toEqual(new Set([promptHook!.json.id]));
    const log = await settled(tenant);
    expect(log.find((delivery) => delivery.endpoint_id === toFailing.id)).toMatchObject({ status: "succeeded", attempts: 3 });
    expect(log.find((delivery) => delivery.endpoint_id === toPrompt.id)).toMatchObject({ status: "succeeded", attempts: 1 });
  });

  it("follows a change of filter for the events committed after it", async () => {
    const tenant = await createTenant(server);
    const hooks = await receiver();
    const made = await endpoint(tenant, hooks.url, ["order.cancelled"]);
    const before = await book(tenant);
    const patched = await call(server, "PATCH", `/v1/webhook_endpoints/${made.id}`, { key: tenant.key, body: { enabled_events: ["order.created"] } });
    expect(patched.status).toBe(200);
    const after = await book(tenant);
    await hooks.waitFor(after.id, "order.created");
    await settled(tenant);
    expect(eventsOf(hooks)).toEqual([`${after.id}:order.created`]);
    expect(hooks.eventsOf(before.id)).toEqual([]);
  });

  it("signs with both secrets for 24 hours after an endpoint's rotation, and the tenant's other endpoints with theirs alone", async () => {
    const tenant = await createTenant(server);
    const [rotatedHooks, otherHooks] = await Promise.all([receiver(), receiver()]);
    const rotatedEndpoint = await endpoint(tenant, rotatedHooks.url, ["order.created"]);
    const other = await endpoint(tenant, otherHooks.url, ["order.created"]);
    const rotated = await call(server, "POST", `/v1/webhook_endpoints/${rotatedEndpoint.id}/secret/rotate`, { key: tenant.key });
    expect(rotated.status, JSON.stringify(rotated.body)).toBe(200);
    const { secret: newSecret, previous_secret_expires_at: expiresAt } = rotated.body.data;
    expect(newSecret).not.toBe(rotatedEndpoint.secret);
    expect(Date.parse(expiresAt) - Date.now()).toBeGreaterThan(23.9 * 3600 * 1000);

    const order = await book(tenant);
    const [hook] = await rotatedHooks.waitFor(order.id, "order.created");
    expect(String(hook!.headers["webhook-signature"]).split(" ")).toHaveLength(2);
    expect(verify(newSecret, hook!)).toEqual(hook!.json);
    expect(verify(rotatedEndpoint.secret, hook!)).toEqual(hook!.json);
    const [otherHook] = await otherHooks.waitFor(order.id, "order.created");
    expect(String(otherHook!.headers["webhook-signature"]).split(" ")).toHaveLength(1);
    expect(verify(other.secret, otherHook!)).toEqual(otherHook!.json);

    // A repeat of the rotation under its Idempotency-Key does not show the secret again.
    const headers = { "idempotency-key": `rotate-${Date.now()}` };
    const first = await call(server, "POST", `/v1/webhook_endpoints/${other.id}/secret/rotate`, { key: tenant.key, headers });
    const repeat = await call(server, "POST", `/v1/webhook_endpoints/${other.id}/secret/rotate`, { key: tenant.key, headers });
    expect(first.body.data.secret).toMatch(/^whsec_/);
    expect(repeat.body.data).toEqual({ ...first.body.data, secret: null });
  });

  it("pings one endpoint alone: an event of its own, signed and logged, readable by its webhook-id", async () => {
    const tenant = await createTenant(server);
    const [pinged, bystander] = await Promise.all([receiver(), receiver()]);
    const target = await endpoint(tenant, pinged.url, ["order.created"]);
    await endpoint(tenant, bystander.url, ["*"]);
    const ping = await call(server, "POST", `/v1/webhook_endpoints/${target.id}/actions/ping`, { key: tenant.key });
    expect(ping.status, JSON.stringify(ping.body)).toBe(201);
    expect(ping.body.data).toMatchObject({ id: expect.stringMatching(/^whd_/), event: "ping", order_id: null, endpoint_id: target.id, status: "pending", event_id: expect.stringMatching(/^evt_/) });

    const hook = await eventually(
      async () => pinged.received[0],
      () => "no ping received",
    );
    expect(hook.json).toEqual({ id: ping.body.data.event_id, event: "ping", created_at: expect.any(String), data: { endpoint_id: target.id } });
    expect(hook.headers["webhook-id"]).toBe(ping.body.data.event_id);
    expect(verify(target.secret, hook)).toEqual(hook.json);
    const [delivered] = await settled(tenant);
    expect(delivered).toMatchObject({ id: ping.body.data.id, status: "succeeded", attempts: 1 });
    expect(bystander.received).toEqual([]);

    const viaGraphQL = await graphql(server, `mutation ($id: ID!) { pingWebhookEndpoint(id: $id) { event orderId endpointId status } }`, { id: target.id }, { key: tenant.key });
    expect(viaGraphQL.body.data.pingWebhookEndpoint).toEqual({ event: "ping", orderId: null, endpointId: target.id, status: "PENDING" });
    await eventually(
      async () => (pinged.received.length === 2 ? true : undefined),
      () => "second ping not received",
    );
    expect(bystander.received).toEqual([]);
  });

  it("refuses to ping or redeliver to an endpoint switched off, and fails its due deliveries unsent", async () => {
    const tenant = await createTenant(server);
    const hooks = await receiver((_hook, index) => (index === 0 ? { status: 503, headers: { "retry-after": "1" } } : { status: 200 }));
    const made = await endpoint(tenant, hooks.url, ["*"]);
    const order = await book(tenant);
    await hooks.waitFor(order.id, "order.created");
    expect((await call(server, "PATCH", `/v1/webhook_endpoints/${made.id}`, { key: tenant.key, body: { enabled: false } })).status).toBe(200);
    const [failed] = await settled(tenant);
    expect(failed).toMatchObject({ status: "failed", attempts: 1, last_error: "the endpoint is disabled" });
    expect(hooks.received).toHaveLength(1);

    expectError(await call(server, "POST", `/v1/webhook_endpoints/${made.id}/actions/ping`, { key: tenant.key }), 409, "webhook_endpoint_disabled");
    expectError(await call(server, "POST", `/v1/webhooks/deliveries/${failed.id}/redeliver`, { key: tenant.key }), 409, "webhook_endpoint_disabled");
    // Nothing is queued for it while it is off.
    await book(tenant);
    expect(await deliveries(tenant)).toHaveLength(1);
  });

  it("switches off only the endpoint whose receiver answers 410 Gone", async () => {
    const tenant = await createTenant(server);
    const [gone, fine] = await Promise.all([receiver(() => ({ status: 410 })), receiver()]);
    const goneEndpoint = await endpoint(tenant, gone.url, ["*"]);
    await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: fine.url, webhook_enabled: true } });
    const order = await book(tenant);
    await fine.waitFor(order.id, "order.created");
    const log = await settled(tenant);
    expect(log.find((delivery) => delivery.endpoint_id === goneEndpoint.id)).toMatchObject({ status: "failed", last_status_code: 410 });
    const read = await call(server, "GET", `/v1/webhook_endpoints/${goneEndpoint.id}`, { key: tenant.key });
    expect(read.body.data.enabled).toBe(false);
    expect((await call(server, "GET", "/v1/tenant", { key: tenant.key })).body.data.webhook_enabled).toBe(true);
  });

  it("fails at once, unsent, the deliveries still waiting for an endpoint that is deleted, and keeps them in the log", async () => {
    const tenant = await createTenant(server);
    // The first attempt asks to be retried in an hour: the delivery waits, pending.
    const hooks = await receiver(() => ({ status: 503, headers: { "retry-after": "3600" } }));
    const made = await endpoint(tenant, hooks.url, ["*"]);
    const order = await book(tenant);
    await hooks.waitFor(order.id, "order.created");
    const [waiting] = await eventually(
      async () => {
        const listed = await deliveries(tenant);
        return listed[0]?.attempts === 1 ? listed : undefined;
      },
      () => "the first attempt was not logged",
    );
    expect(waiting).toMatchObject({ status: "pending", endpoint_id: made.id });

    expect((await call(server, "DELETE", `/v1/webhook_endpoints/${made.id}`, { key: tenant.key })).status).toBe(200);
    const [failed] = await deliveries(tenant);
    expect(failed).toMatchObject({ id: waiting.id, status: "failed", last_error: "the endpoint was deleted", next_attempt_at: null, endpoint_id: made.id });
    expectError(await call(server, "POST", `/v1/webhooks/deliveries/${failed.id}/redeliver`, { key: tenant.key }), 409, "webhook_endpoint_disabled");
    expect(await deliveries(tenant, `&endpoint_id=${made.id}`)).toHaveLength(1);
    // Its events go nowhere now.
    await book(tenant);
    expect(await deliveries(tenant)).toHaveLength(1);
    expect(hooks.received).toHaveLength(1);
  });
});
