import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { setClock } from "../../src/clock";
import { call, createTenant, graphql, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError, expectGraphQLError } from "../helpers/expect-error";
import { bookOffer, passengersOf, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import { rawGet } from "../helpers/raw-get";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { startReceiver, type ReceivedHook, type Receiver } from "../helpers/webhook-receiver";

/**
 * The events API (docs/events.md): the tenant's events, newest first, each exactly the webhook
 * body its deliveries carried (proved on the bytes a real receiver got), filtered by type, order,
 * time and delivery outcome; pings listed only when asked for; kept as long as the delivery log.
 */

const RETENTION_DAYS = 2;
const DAY_MS = 24 * 60 * 60 * 1000;

describe("events API", () => {
  let server: TestServer;
  const receivers: Receiver[] = [];

  beforeAll(async () => {
    server = await startTestServer({
      env: {
        WEBHOOK_RETRY_SCHEDULE: "0,0.05",
        WEBHOOK_TIMEOUT_MS: "400",
        TICKETING_DELAY_MS: "50",
        JOB_POLL_MS: "50",
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
        WEBHOOK_LOG_RETENTION_DAYS: String(RETENTION_DAYS),
        // Holds outlive the clock's moves below, so no deadline adds an event meanwhile.
        ORDER_HOLD_SECONDS: String(10 * 24 * 60 * 60),
      },
    });
  });
  afterEach(() => setClock(new Date()));
  afterAll(async () => {
    await server?.close();
    await Promise.all(receivers.map((receiver) => receiver.close()));
  });

  const receiver = async (...args: Parameters<typeof startReceiver>) => {
    const started = await startReceiver(...args);
    receivers.push(started);
    return started;
  };

  const endpoint = async (tenant: TenantFixture, url: string, enabledEvents: string[]) => {
    const created = await call(server, "POST", "/v1/webhook_endpoints", { key: tenant.key, body: { url, enabled_events: enabledEvents } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    return created.body.data.id as string;
  };

  const book = async (tenant: TenantFixture, familyName?: string) => {
    const [offer] = await searchForBooking(server, tenant.key);
    return bookOffer(server, tenant.key, offer, familyName ? { passengers: passengersOf(offer, { family_name: familyName }) } : {});
  };

  const events = async (tenant: TenantFixture, query = "") => {
    const listed = await call(server, "GET", `/v1/events${query}`, { key: tenant.key });
    expect(listed.status, JSON.stringify(listed.body)).toBe(200);
    return listed.body.data as { items: any[]; pagination: any };
  };
  const idsOf = async (tenant: TenantFixture, query = "") => (await events(tenant, query)).items.map((item) => `${item.data.id}:${item.event}`);

  /** Waits until no delivery of the tenant is pending. */
  const settled = (tenant: TenantFixture) =>
    eventually(
      async () => {
        const listed = await call(server, "GET", "/v1/webhooks/deliveries?status=pending", { key: tenant.key });
        return listed.body.data.pagination.total === 0 ? true : undefined;
      },
      () => "deliveries still pending",
    );

  describe("an event is its webhook body, byte for byte", () => {
    let tenant: TenantFixture;
    let hooks: ReceivedHook[];

    beforeAll(async () => {
      tenant = await createTenant(server);
      const hooksReceiver = await receiver();
      await endpoint(tenant, hooksReceiver.url, ["*"]);
      const order = await book(tenant);
      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
      await hooksReceiver.waitFor(order.id, "order.ticketed");
      hooks = hooksReceiver.eventsOf(order.id);
    });

    it("lists each event as the bytes its delivery carried, its id the webhook-id header", async () => {
      const answer = await rawGet(`${server.url}/v1/events`, { authorization: `Bearer ${tenant.key}` });
      expect(answer.status).toBe(200);
      const listed = JSON.parse(answer.body.toString("utf8"));
      expect(listed.data.items.map((item: any) => item.event)).toEqual(["order.ticketed", "order.created"]);
      for (const hook of hooks) {
        // The delivered bytes appear in the answer as they are, not merely an equal value.
        expect(answer.body.includes(hook.raw), hook.json.event).toBe(true);
        const item = listed.data.items.find((candidate: any) => candidate.id === hook.headers["webhook-id"]);
        expect(item).toEqual(hook.json);
      }
    });

    it("reads one event by the webhook-id of its deliveries: data is exactly the delivered body", async () => {
      for (const hook of hooks) {
        const answer = await rawGet(`${server.url}/v1/events/${hook.headers["webhook-id"]}`, { "x-api-key": tenant.key });
        expect(answer.status).toBe(200);
        expect(answer.body.equals(Buffer.concat([Buffer.from('{"success":true,"message":"OK","data":'), hook.raw, Buffer.from("}")]))).toBe(true);
        const viaGraphQL = await graphql(server, `query ($id: ID!) { event(id: $id) { id type orderId createdAt data payload } }`, { id: hook.json.id }, { key: tenant.key });
        expect(viaGraphQL.body.data.event).toEqual({
          id: hook.json.id,
          type: hook.json.event,
          orderId: hook.json.data.id,
          createdAt: hook.json.created_at,
          data: hook.json.data,
          payload: hook.body,
        });
      }
    });

    it("answers another tenant's event and an unknown one 404 on REST, null on GraphQL", async () => {
      const other = await createTenant(server);
      const foreign = await call(server, "GET", `/v1/events/${hooks[0]!.json.id}`, { key: other.key });
      expectError(foreign, 404, "not_found");
      expectError(await call(server, "GET", "/v1/events/evt_00000000000000000000000000", { key: other.key }), 404, "not_found");
      expect((await events(other)).items).toEqual([]);
      const viaGraphQL = await graphql(server, `query ($id: ID!) { event(id: $id) { id } }`, { id: hooks[0]!.json.id }, { key: other.key });
      expect(viaGraphQL.body).toEqual({ data: { event: null } });
    });
  });

  describe("filters", () => {
    let tenant: TenantFixture;
    let ticketed: any;
    let failed: any;
    let cancelled: any;
    let beforeEndpoints: any;
    let pingEventId: string;

    beforeAll(async () => {
      tenant = await createTenant(server);
      // Booked before any endpoint: its event has no delivery at all.
      beforeEndpoints = await book(tenant);
      const prompt = await receiver();
      // Every delivery of a ticketing outcome to this one fails.
      const refusing = await receiver({ responder: () => ({ status: 500 }) });
      const promptEndpoint = await endpoint(tenant, prompt.url, ["order.created", "order.cancelled"]);
      await endpoint(tenant, refusing.url, ["order.ticketed", "order.failed"]);
      ticketed = await book(tenant);
      failed = await book(tenant, "Rejected");
      cancelled = await book(tenant);
      expect((await ticketOrder(server, tenant.key, ticketed.id)).status).toBe(200);
      expect((await ticketOrder(server, tenant.key, failed.id)).status).toBe(200);
      expect((await call(server, "POST", `/v1/air/orders/${cancelled.id}/actions/cancel`, { key: tenant.key })).status).toBe(200);
      await waitForStatus(server, tenant.key, ticketed.id, ["TICKETED"]);
      await waitForStatus(server, tenant.key, failed.id, ["FAILED"]);
      const ping = await call(server, "POST", `/v1/webhook_endpoints/${promptEndpoint}/actions/ping`, { key: tenant.key });
      pingEventId = ping.body.data.event_id;
      await settled(tenant);
    });

    it("lists every order event newest first, without pings", async () => {
      const listed = await events(tenant, "?limit=100");
      expect(listed.pagination).toMatchObject({ total: 7, hasMore: false, nextCursor: null, prevCursor: null });
      const times = listed.items.map((item) => `${item.created_at} ${item.id}`);
      expect(times).toEqual([...times].sort().reverse());
      expect(listed.items.map((item) => item.event)).not.toContain("ping");
    });

    it("narrows to one or several types, comma-separated or repeated", async () => {
      expect(await idsOf(tenant, "?type=order.ticketed")).toEqual([`${ticketed.id}:order.ticketed`]);
      const outcomes = [`${failed.id}:order.failed`, `${ticketed.id}:order.ticketed`].sort();
      expect((await idsOf(tenant, "?type=order.ticketed,order.failed")).sort()).toEqual(outcomes);
      expect((await idsOf(tenant, "?type=order.ticketed&type=order.failed")).sort()).toEqual(outcomes);
      expect((await events(tenant, "?type=order.refunded")).items).toEqual([]);
    });

    it("lists pings only when asked for by type, and reads one by its id", async () => {
      const pings = (await events(tenant, "?type=ping")).items;
      expect(pings).toEqual([{ id: pingEventId, event: "ping", created_at: expect.any(String), data: { endpoint_id: expect.stringMatching(/^whe_/) } }]);
      expect((await call(server, "GET", `/v1/events/${pingEventId}`, { key: tenant.key })).body.data).toEqual(pings[0]);
      expect((await events(tenant, "?type=ping,order.cancelled")).items.map((item) => item.event)).toEqual(["ping", "order.cancelled"]);
    });

    it("narrows to one order", async () => {
      expect(await idsOf(tenant, `?order_id=${failed.id}`)).toEqual([`${failed.id}:order.failed`, `${failed.id}:order.created`]);
      expect((await events(tenant, "?order_id=ord_00000000000000000000000000")).items).toEqual([]);
    });

    it("narrows to a time range, neither end included", async () => {
      const all = (await events(tenant, "?limit=100")).items;
      const [newest] = all;
      const oldest = all.at(-1);
      const between = await events(tenant, `?created_after=${encodeURIComponent(oldest.created_at)}&created_before=${encodeURIComponent(newest.created_at)}&limit=100`);
      const expected = all.filter((item) => item.created_at > oldest.created_at && item.created_at < newest.created_at);
      // Events made in the same millisecond as an end are outside the range with it.
      expect(expected.length).toBeGreaterThan(0);
      expect(between.items).toEqual(expected);
      // Another offset names the same instant.
      const shifted = new Date(Date.parse(newest.created_at)).toISOString().replace("Z", "+00:00");
      expect((await events(tenant, `?created_before=${encodeURIComponent(shifted)}&limit=100`)).items).toEqual(all.filter((item) => item.created_at < newest.created_at));
    });

    it("narrows by delivery outcome: false, a delivery not succeeded; true, every delivery succeeded; an event never sent is in neither", async () => {
      const unsuccessful = await idsOf(tenant, "?delivery_success=false");
      expect(unsuccessful.sort()).toEqual([`${ticketed.id}:order.ticketed`, `${failed.id}:order.failed`].sort());
      const successful = await idsOf(tenant, "?delivery_success=true");
      expect(successful.sort()).toEqual(
        [`${ticketed.id}:order.created`, `${failed.id}:order.created`, `${cancelled.id}:order.created`, `${cancelled.id}:order.cancelled`].sort(),
      );
      expect([...unsuccessful, ...successful]).not.toContain(`${beforeEndpoints.id}:order.created`);
      expect((await events(tenant, "?delivery_success=true&type=ping")).items.map((item) => item.id)).toEqual([pingEventId]);
      expect(await idsOf(tenant, `?delivery_success=false&order_id=${ticketed.id}`)).toEqual([`${ticketed.id}:order.ticketed`]);
    });

    it("pages with signed cursors bound to the filter", async () => {
      const walked: string[] = [];
      let cursor: string | null = null;
      let first: any;
      do {
        const page: { items: any[]; pagination: any } = await events(tenant, `?limit=3&type=order.created,order.ticketed${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`);
        first ??= page;
        walked.push(...page.items.map((item) => item.id));
        cursor = page.pagination.nextCursor;
      } while (cursor);
      expect(walked).toEqual((await events(tenant, "?limit=100&type=order.created,order.ticketed")).items.map((item) => item.id));
      expectError(await call(server, "GET", `/v1/events?cursor=${encodeURIComponent(first.pagination.nextCursor)}`, { key: tenant.key }), 400, "INVALID_CURSOR");
    });

    it.each([
      ["an unknown type, named", "?type=order.created,order.teleported", "type", /"order\.teleported" is not an event type/],
      ["an empty type", "?type=", "type", /is not an event type/],
      ["a created_after that is no instant", "?created_after=yesterday", "created_after", /./],
      ["a created_before without its time", "?created_before=2026-11-01", "created_before", /./],
      ["a delivery_success that is no boolean", "?delivery_success=yes", "delivery_success", /./],
      ["a limit out of range", "?limit=0", "limit", /./],
    ])("refuses %s with 400 naming the field", async (_label, query, field, message) => {
      const refused = await call(server, "GET", `/v1/events${query}`, { key: tenant.key });
      expectError(refused, 400, field === "limit" ? "LIMIT_OUT_OF_RANGE" : "validation_failed", field);
      expect(refused.body.errors[0].message).toMatch(message);
    });

    it("takes the same filters on GraphQL", async () => {
      const query = `query ($types: [String!], $orderId: ID, $deliverySuccess: Boolean, $createdAfter: DateTime) {
        events(first: 10, types: $types, orderId: $orderId, deliverySuccess: $deliverySuccess, createdAfter: $createdAfter) { totalCount nodes { id type orderId } pageInfo { hasNextPage } }
      }`;
      const outcomes = await graphql(server, query, { types: ["order.ticketed", "order.failed"], deliverySuccess: false }, { key: tenant.key });
      expect(outcomes.body.errors).toBeUndefined();
      expect(outcomes.body.data.events.totalCount).toBe(2);
      expect(outcomes.body.data.events.nodes.map((node: any) => node.orderId).sort()).toEqual([ticketed.id, failed.id].sort());
      const ofOrder = await graphql(server, query, { orderId: cancelled.id }, { key: tenant.key });
      expect(ofOrder.body.data.events.nodes.map((node: any) => node.type)).toEqual(["order.cancelled", "order.created"]);
      const pings = await graphql(server, query, { types: ["ping"] }, { key: tenant.key });
      expect(pings.body.data.events.nodes).toEqual([{ id: pingEventId, type: "ping", orderId: null }]);
      const unknown = await graphql(server, query, { types: ["order.lost"] }, { key: tenant.key });
      expectGraphQLError(unknown, "validation_failed", { field: "types" });
    });
  });

  describe("kept as long as the delivery log", () => {
    it(`lists events of the last WEBHOOK_LOG_RETENTION_DAYS (${RETENTION_DAYS}); the order's own history keeps them all`, async () => {
      const tenant = await createTenant(server);
      const order = await book(tenant);
      const [event] = (await events(tenant)).items;
      expect(event).toMatchObject({ event: "order.created", data: { id: order.id } });

      setClock(new Date(Date.now() + (RETENTION_DAYS * DAY_MS - 60_000)));
      expect((await events(tenant)).items).toEqual([event]);

      setClock(new Date(Date.now() + RETENTION_DAYS * DAY_MS + 60_000));
      expect((await events(tenant)).items).toEqual([]);
      expectError(await call(server, "GET", `/v1/events/${event.id}`, { key: tenant.key }), 404, "not_found");
      const history = await call(server, "GET", `/v1/air/orders/${order.id}/events`, { key: tenant.key });
      expect(history.body.data.items).toEqual([event]);
    });
  });
});
