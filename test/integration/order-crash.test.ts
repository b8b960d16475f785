import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/context/api-key-secret";
import { createTenant, type Endpoint, type TenantFixture } from "../helpers/client";
import { exitCode, killStillRunning, launchTracked, pollUntil, waitUntilHealthy, type Launched, type Running } from "../helpers/main-process";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { allAnswered, bookOrders, expectExactLedger, expectOutcomes, isFinal, ordersById, ticketAccepted, ticketAll, type BookedOrder } from "../helpers/ticketing";

/**
 * Ticketing survives the process dying mid-way (SIGKILL: no shutdown, claimed jobs left leased).
 * The real entry point runs as a child; orders are ticketed in two waves and the process is
 * killed once the airline's first answers are in, while the rest are still PROCESSING (the first
 * wave's later jobs due or running, the second wave's not yet due). A new process on the same
 * database finishes every one: each order ends once, in the state the airline gives it, and the
 * wallet moves exactly once per order. SQLite, or PostgreSQL under TEST_DATABASE_URL.
 */

const TICKETING_DELAY_MS = 4000;
const ORDERS = 36;
const FIRST_WAVE = 24;

// Each start compiles the app with tsx (seconds, more on a loaded machine); the waits are polls.
describe("ticketing across a SIGKILL of the process", { timeout: 180_000 }, () => {
  let database: TestDatabase;
  const started: Running[] = [];
  const ownerKey = generateSecret("owner");
  let tenant: TenantFixture;
  let booked: BookedOrder[];
  /** Orders the killed process had answered, as it served them just before it died. */
  let answeredBeforeKill: any[];
  /** The process started after the kill. */
  let restarted: Endpoint;

  function launch(): Launched {
    return launchTracked(started, {
      DATABASE_URL: database.url,
      OWNER_API_KEY: ownerKey,
      TICKETING_DELAY_MS: String(TICKETING_DELAY_MS),
      JOB_LEASE_SECONDS: "2",
      JOB_POLL_MS: "50",
      LOG_LEVEL: "warn",
    });
  }

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await killStillRunning(started);
    await database?.drop();
  });

  it("tickets many orders and is killed with some answered and the others still processing", async () => {
    const { running, api } = launch();
    await waitUntilHealthy(running);
    tenant = await createTenant(api, { environment: "sandbox" });
    booked = await bookOrders(api, tenant.key, ORDERS, 4);
    const firstWave = booked.slice(0, FIRST_WAVE);
    const secondWave = booked.slice(FIRST_WAVE);

    // One at a time, so the first wave's jobs fall due one after another.
    for (const order of firstWave) await ticketAccepted(api, tenant.key, order);
    await pollUntil(running, "the airline's first answer", async () => {
      const orders = await ordersById(api, tenant.key);
      return firstWave.some((order) => isFinal(orders.get(order.id))) ? true : undefined;
    });

    // The second wave falls due TICKETING_DELAY_MS after its requests: after the kill.
    const secondWaveAt = Date.now();
    await ticketAll(secondWave, tenant.key, () => api);
    const lastSeen = await ordersById(api, tenant.key);
    running.child.kill("SIGKILL");
    expect(await exitCode(running)).toBe("SIGKILL");
    expect(Date.now() - secondWaveAt, "the second wave was not yet due when the process died").toBeLessThan(TICKETING_DELAY_MS);

    answeredBeforeKill = booked.map((order) => lastSeen.get(order.id)).filter((order) => isFinal(order));
    expect(answeredBeforeKill.length).toBeGreaterThan(0);
    for (const order of secondWave) expect(lastSeen.get(order.id).ticketing_status, order.id).toBe("in_progress");
  });

  it("a new process on the same database answers every order, once, as the airline does", async () => {
    const { running, api } = launch();
    await waitUntilHealthy(running);
    restarted = api;
    const orders = await pollUntil(running, "every order answered", () => allAnswered(api, tenant.key, booked), 60_000);
    expectOutcomes(orders, booked);
    // What the killed process had answered stands as it was: not answered a second time.
    for (const before of answeredBeforeKill) {
      const after = orders.get(before.id);
      expect({ status: after.status, updated_at: after.updated_at, documents: after.documents }, before.id).toEqual({
        status: before.status,
        updated_at: before.updated_at,
        documents: before.documents,
      });
    }
  });

  it("the wallet moved exactly once per order: debits, reversals of the failed, nothing else", async () => {
    await expectExactLedger(restarted, tenant.key, booked);
  });
});
