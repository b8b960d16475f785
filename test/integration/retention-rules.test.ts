import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock, setClock } from "../../src/clock";
import { call, createTenant, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { changeOffer, confirmChange, createChange } from "../helpers/order-changes";
import { bookOffer, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import { confirmCancellation, quoteCancellation } from "../helpers/servicing";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { credit } from "../helpers/wallet";
import { startReceiver, type Receiver } from "../helpers/webhook-receiver";

/**
 * The retention rules beside searches' (docs/retention.md), seen by moving the product's clock:
 * change requests and cancellation quotes go OFFER_RETENTION_SECONDS after they expire unless
 * confirmed, idempotency keys after their 24 hours, the webhook delivery log after
 * WEBHOOK_LOG_RETENTION_DAYS; an order and its history stay.
 */

const MINUTE_MS = 60_000;
const HOUR_MS = 60 * MINUTE_MS;

describe("retention of change requests, quotes, idempotency keys and the webhook log", { timeout: 120_000 }, () => {
  let server: TestServer;
  let tenant: TenantFixture;
  let hooks: Receiver;
  const get = (path: string) => call(server, "GET", path, { key: tenant.key });
  const stored = () => ({
    changeOffers: server.db.prisma.orderChangeOffer.count(),
    keys: server.db.prisma.idempotencyRecord.count(),
    deliveries: server.db.prisma.webhookDelivery.count(),
    attempts: server.db.prisma.webhookAttempt.count(),
    events: server.db.prisma.orderEvent.count(),
    searches: server.db.prisma.offerRequest.count(),
  });
  /** Moves the clock `ms` on, and waits until `done` holds (a sweep runs every 0.2 s). */
  const after = async (ms: number, what: string, done: () => Promise<boolean>) => {
    setClock(new Date(clock.nowMs() + ms));
    await eventually(async () => ((await done()) ? true : undefined), () => what, 20_000, 100);
  };

  let ticketed: any;
  let unchosen: any;
  let unconfirmed: any;
  let confirmed: any;
  let openQuote: any;
  let confirmedQuote: any;
  let cancelled: any;

  beforeAll(async () => {
    hooks = await startReceiver();
    server = await startTestServer({
      env: {
        OFFER_RETENTION_SECONDS: "60",
        RETENTION_SWEEP_SECONDS: "0.2",
        WEBHOOK_LOG_RETENTION_DAYS: "1",
        WEBHOOK_RETRY_SCHEDULE: "0",
        WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true",
        TICKETING_DELAY_MS: "100",
        JOB_POLL_MS: "50",
      },
    });
    tenant = await createTenant(server);
    expect((await call(server, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: hooks.url, webhook_enabled: true } })).status).toBe(200);
    const { key } = tenant;

    const offer = (await searchForBooking(server, key, { cabin: "business" })).find((candidate) => candidate.conditions.change_before_departure.allowed);
    expect(offer, "a business offer whose fare allows changes").toBeDefined();
    const order = await bookOffer(server, key, offer);
    expect((await ticketOrder(server, key, order.id)).status).toBe(200);
    ticketed = (await waitForStatus(server, key, order.id, ["TICKETED"], 30_000)).body.data;
    unchosen = (await changeOffer(server, key, ticketed)).request;
    const toLeave = await changeOffer(server, key, ticketed);
    unconfirmed = (await createChange(server, key, toLeave.offer.id)).body.data;
    const toConfirm = await changeOffer(server, key, ticketed);
    confirmed = (await createChange(server, key, toConfirm.offer.id)).body.data;
    expect((await confirmChange(server, key, confirmed)).status).toBe(200);
    openQuote = (await quoteCancellation(server, key, order.id)).body.data;

    const [other] = await searchForBooking(server, key);
    cancelled = await bookOffer(server, key, other);
    confirmedQuote = (await quoteCancellation(server, key, cancelled.id)).body.data;
    expect((await confirmCancellation(server, key, confirmedQuote.id)).status).toBe(200);
    await waitForStatus(server, key, cancelled.id, ["CANCELED"]);
    await eventually(
      async () => ((await get("/v1/webhooks/deliveries?limit=100")).body.data.items.every((delivery: any) => delivery.status === "succeeded") ? true : undefined),
      () => "webhook deliveries not all delivered",
    );
  });
  afterAll(async () => {
    setClock(new Date());
    await server?.close();
    await hooks?.close();
  });

  it("keeps everything until it expires and the retention after it has passed", async () => {
    const counts = stored();
    expect(await counts.changeOffers).toBeGreaterThan(2);
    expect(await counts.keys).toBeGreaterThan(0);
    expect(await counts.deliveries).toBeGreaterThan(0);
    expect(await counts.attempts).toBeGreaterThan(0);
    for (const path of [`/v1/air/order_change_requests/${unchosen.id}`, `/v1/air/order_changes/${unconfirmed.id}`, `/v1/air/order_cancellations/${openQuote.id}`]) {
      expect((await get(path)).status, path).toBe(200);
    }
  });

  it("removes change requests, their offers and changes, and quotes, never confirmed; keeps what was confirmed", async () => {
    const confirmedBefore = (await get(`/v1/air/order_changes/${confirmed.id}`)).body.data;
    // Their offers expire 15 minutes after they were made, and are kept a minute more.
    await after(16 * MINUTE_MS + 5_000, "change requests and quotes never confirmed still readable", async () => (await get(`/v1/air/order_cancellations/${openQuote.id}`)).status === 404);
    await eventually(async () => ((await get(`/v1/air/order_change_requests/${unchosen.id}`)).status === 404 ? true : undefined), () => "the unchosen change request is still readable", 20_000);
    expectError(await get(`/v1/air/order_change_requests/${unchosen.id}`), 404, "not_found");
    expectError(await get(`/v1/air/order_changes/${unconfirmed.id}`), 404, "not_found");
    expectError(await get(`/v1/air/order_cancellations/${openQuote.id}`), 404, "not_found");

    const kept = await get(`/v1/air/order_changes/${confirmed.id}`);
    expect(kept.status).toBe(200);
    expect(kept.body.data).toEqual(confirmedBefore);
    expect((await get(`/v1/air/order_cancellations/${confirmedQuote.id}`)).body.data.confirmed_at).not.toBeNull();
    const changeRequests = await server.db.prisma.orderChangeRequest.findMany({ where: { orderId: ticketed.id } });
    expect(changeRequests.map((request) => request.expiresAt)).toEqual([null]);
    expect(await server.db.prisma.orderChange.count()).toBe(1);
    expect((await get(`/v1/air/orders/${ticketed.id}`)).status).toBe(200);
  });

  it("removes idempotency keys after their 24 hours, and searches after their offers' expiry and retention", async () => {
    await after(24 * HOUR_MS, "idempotency keys or searches still stored", async () => {
      const counts = stored();
      return (await counts.keys) === 0 && (await counts.searches) === 0;
    });
  });

  it("removes finished webhook deliveries and their attempts after WEBHOOK_LOG_RETENTION_DAYS, and the wallet's events with theirs; the orders' events stay", async () => {
    await credit(server, tenant.tenantId, "1.00");
    const [walletEvent] = (await get("/v1/events?type=wallet.credited")).body.data.items;
    await eventually(async () => ((await get("/v1/webhooks/deliveries?limit=100")).body.data.items.every((delivery: any) => delivery.status === "succeeded") ? true : undefined), () => "the credit's delivery not delivered");
    const events = await stored().events;
    await after(24 * HOUR_MS, "webhook deliveries, attempts or wallet events still stored", async () => {
      const counts = stored();
      return (await counts.deliveries) === 0 && (await counts.attempts) === 0 && (await counts.events) === events - 1;
    });
    expect((await get("/v1/webhooks/deliveries")).body.data.items).toEqual([]);
    expect(await server.db.prisma.orderEvent.findUnique({ where: { id: walletEvent.id } })).toBeNull();
    const history = await get(`/v1/air/orders/${cancelled.id}/events`);
    expect(history.body.data.items.map((event: any) => event.event)).toEqual(["order.created", "order_cancellation.created", "order.cancelled", "order_cancellation.confirmed"]);
  });
});
