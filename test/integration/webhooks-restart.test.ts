import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import { call, createTenant, type Endpoint, type TenantFixture } from "../helpers/client";
import { exitCode, killStillRunning, pollUntil, startMain, waitUntilHealthy, type Running } from "../helpers/main-process";
import { bookOffer, searchForBooking } from "../helpers/orders";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { freePort, startReceiver, type Receiver } from "../helpers/webhook-receiver";

/**
 * Deliveries are durable: the real entry point runs as a child process; a delivery pending when
 * it stops (SIGTERM) or dies (SIGKILL, its attempt in flight and its delivery leased) is sent by
 * the next process on the same database. SQLite, or PostgreSQL under TEST_DATABASE_URL.
 */
describe("webhook deliveries across restarts", { timeout: 180_000 }, () => {
  let database: TestDatabase;
  const started: Running[] = [];
  const receivers: Receiver[] = [];
  const ownerKey = generateSecret("owner");

  function launch(env: Record<string, string>): { running: Running; api: Endpoint & { ownerKey: string } } {
    // The receivers listen on loopback.
    const running = startMain({ DATABASE_URL: database.url, OWNER_API_KEY: ownerKey, JOB_POLL_MS: "50", LOG_LEVEL: "warn", WEBHOOK_ALLOW_PRIVATE_NETWORKS: "true", ...env });
    started.push(running);
    return { running, api: { get url() { return running.baseUrl; }, ownerKey } };
  }

  async function hookedTenant(api: Endpoint & { ownerKey: string }, url: string): Promise<TenantFixture> {
    const tenant = await createTenant(api);
    const patched = await call(api, "PATCH", "/v1/tenant", { key: tenant.key, body: { webhook_url: url, webhook_enabled: true } });
    expect(patched.status, JSON.stringify(patched.body)).toBe(200);
    return tenant;
  }

  async function bookOrder(api: Endpoint, tenant: TenantFixture) {
    const [offer] = await searchForBooking(api, tenant.key);
    return bookOffer(api, tenant.key, offer);
  }

  async function deliveryOf(api: Endpoint, tenant: TenantFixture, orderId: string) {
    const response = await call(api, "GET", "/v1/webhooks/deliveries", { key: tenant.key });
    return (response.body.data.items as any[]).find((item) => item.order_id === orderId);
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await killStillRunning(started);
    await Promise.all(receivers.map((receiver) => receiver.close()));
    await database?.drop();
  });

  it("sends after a restart what a receiver that was down missed", async () => {
    const receiverPort = await freePort();
    // Attempt 1 fails (nothing listens); attempt 2 is due a second later, after the stop.
    const env = { WEBHOOK_RETRY_SCHEDULE: "0,1,1,1,1,1,1,1,1,1" };
    const first = launch(env);
    await waitUntilHealthy(first.running);
    const tenant = await hookedTenant(first.api, `http://127.0.0.1:${receiverPort}/hooks`);
    const order = await bookOrder(first.api, tenant);
    await pollUntil(first.running, "the first attempt", async () => ((await deliveryOf(first.api, tenant, order.id))?.attempts >= 1 ? true : undefined));
    first.running.child.kill("SIGTERM");
    expect(await exitCode(first.running)).toBe(0);

    const receiver = await startReceiver({ port: receiverPort });
    receivers.push(receiver);
    const second = launch(env);
    await waitUntilHealthy(second.running);
    const [hook] = await receiver.waitFor(order.id, "order.created", 1, 30_000);
    expect(hook!.json.data.id).toBe(order.id);
    const delivered = await pollUntil(second.running, "the delivery to succeed", async () => {
      const delivery = await deliveryOf(second.api, tenant, order.id);
      return delivery?.status === "succeeded" ? delivery : undefined;
    });
    expect(delivered.attempts).toBeGreaterThanOrEqual(2);
    second.running.child.kill("SIGTERM");
    expect(await exitCode(second.running)).toBe(0);
  });

  it("loses no event when the process is killed with its delivery in flight", async () => {
    // A hanging receiver keeps the attempt in flight (and the delivery leased) until the kill.
    const receiver = await startReceiver({ responder: () => "hang" });
    receivers.push(receiver);
    // A short lease, so on PostgreSQL the dead process's claim ends soon (SQLite ends it at start).
    const env = { WEBHOOK_TIMEOUT_MS: "3000", JOB_LEASE_SECONDS: "1", WEBHOOK_RETRY_SCHEDULE: "0,1,1" };
    const first = launch(env);
    await waitUntilHealthy(first.running);
    const tenant = await hookedTenant(first.api, receiver.url);
    const order = await bookOrder(first.api, tenant);
    await receiver.waitFor(order.id, "order.created");
    first.running.child.kill("SIGKILL");
    expect(await exitCode(first.running)).toBe("SIGKILL");

    receiver.respondWith(() => ({ status: 200 }));
    const second = launch(env);
    await waitUntilHealthy(second.running);
    const delivered = await pollUntil(second.running, "the delivery to succeed", async () => {
      const delivery = await deliveryOf(second.api, tenant, order.id);
      return delivery?.status === "succeeded" ? delivery : undefined;
    });
    expect(delivered.last_status_code).toBe(200);
    const arrivals = receiver.eventsOf(order.id, "order.created");
    expect(arrivals.length).toBeGreaterThanOrEqual(2);
    expect(new Set(arrivals.map((hook) => hook.headers["webhook-id"])).size).toBe(1);
    second.running.child.kill("SIGTERM");
    expect(await exitCode(second.running)).toBe(0);
  });
});
