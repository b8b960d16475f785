import { describe, expect, it } from "vitest";
import { createTenant, type Endpoint, type TenantFixture } from "../helpers/client";
import { crashHarness } from "../helpers/crash-harness";
import { pollUntil, waitUntilHealthy } from "../helpers/main-process";
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
  const { launch, kill } = crashHarness({ TICKETING_DELAY_MS: String(TICKETING_DELAY_MS), JOB_LEASE_SECONDS: "2" });
  let tenant: TenantFixture;
  let booked: BookedOrder[];
  /** Orders the killed process had answered, as it served them just before it died. */
  let answeredBeforeKill: any[];
  /** The process started after the kill. */
  let restarted: Endpoint;

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
    await kill(running);
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
