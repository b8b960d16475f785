import { setTimeout as sleep } from "node:timers/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import type { PausePoint } from "../../src/test-pause";
import { createTenant, type Endpoint, type TenantFixture } from "../helpers/client";
import { exitCode, killStillRunning, startMain, waitUntilHealthy, type Running } from "../helpers/main-process";
import { createOrderA, searchForBooking } from "../helpers/orders";
import { seatAccount, settledAccount, waitForPause } from "../helpers/seat-accounting";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { bookOrders } from "../helpers/ticketing";

/**
 * Seat reconcilers of three server processes on one PostgreSQL database. One process is killed
 * with bookings stopped between the airline's hold and the order's commit (AEROGATE_TEST_PAUSE_AT,
 * test only); the two left keep booking. Their reconcilers leave the dead process's holds alone
 * while the bookings' lease runs, then settle each exactly once between them (claims take
 * `FOR UPDATE SKIP LOCKED` and a lease), and never touch a committed order's seats.
 */

const LEASE_SECONDS = 3;
const PAUSED = 8;
const SETTLED_LINE = "a booking that never committed was given back at its supplier";

interface Process {
  running: Running;
  api: Endpoint;
}

describe("seat reconcilers of several processes on one PostgreSQL database", { timeout: 180_000 }, () => {
  let database: TestDatabase;
  const started: Running[] = [];
  const ownerKey = generateSecret("owner");
  let tenant: TenantFixture;

  function launch(pauseAt?: PausePoint): Process {
    const running = startMain({
      DATABASE_URL: database.url,
      OWNER_API_KEY: ownerKey,
      JOB_LEASE_SECONDS: String(LEASE_SECONDS),
      JOB_POLL_MS: "20",
      LOG_LEVEL: "warn",
      ...(pauseAt && { AEROGATE_TEST_PAUSE_AT: pauseAt }),
    });
    started.push(running);
    return { running, api: { get url() { return running.baseUrl; } } };
  }

  /** The orders whose seats a process's reconciler released, one entry per release, from its log. */
  function settledBy(process: Process): string[] {
    return process.running
      .stdout()
      .split("\n")
      .filter((line) => line.includes(SETTLED_LINE))
      .map((line) => JSON.parse(line).orderId as string);
  }

  beforeAll(async () => {
    database = await createTestDatabase();
    expect(database.provider, "run with npm run test:pg").toBe("postgresql");
  });

  afterAll(async () => {
    await killStillRunning(started);
    await database?.drop();
  });

  it("a dead process's uncommitted holds are kept for their lease, then released once by one of the others; committed orders keep theirs", async () => {
    const doomed = launch("after_supplier_hold");
    const others = [launch(), launch()] as const;
    await Promise.all([doomed, ...others].map((process) => waitUntilHealthy(process.running)));
    tenant = await createTenant({ url: others[0].api.url, ownerKey }, { environment: "sandbox" });

    const offers: any[] = [];
    while (offers.length < PAUSED) offers.push(...(await searchForBooking(others[0].api, tenant.key)).slice(0, PAUSED - offers.length));
    const inFlight = offers.map((offer) => createOrderA(doomed.api, tenant.key, offer).catch(() => "connection lost"));
    await waitForPause(doomed.running, "after_supplier_hold", PAUSED);
    const pausedAt = Date.now();
    const before = await seatAccount(database.url);
    const pausedIds = [...before.intents.keys()].sort();
    expect(pausedIds).toHaveLength(PAUSED);
    expect(before.leaked.sort()).toEqual(pausedIds);

    // The doomed process is alive and its bookings' lease runs: the other two reconcilers, polling every 20 ms, leave them alone.
    await sleep(1000);
    const during = await seatAccount(database.url);
    expect(Date.now() - pausedAt, "checked within the lease").toBeLessThan(LEASE_SECONDS * 1000);
    expect(during.leaked.sort()).toEqual(pausedIds);
    expect([...during.intents.keys()].sort()).toEqual(pausedIds);
    expect(settledBy(others[0]).concat(settledBy(others[1]))).toEqual([]);

    doomed.running.child.kill("SIGKILL");
    expect(await exitCode(doomed.running)).toBe("SIGKILL");
    expect(new Set(await Promise.all(inFlight))).toEqual(new Set(["connection lost"]));

    // Bookings go on through both survivors while they settle the dead process's holds.
    const [throughFirst, throughSecond] = await Promise.all([bookOrders(others[0].api, tenant.key, 10, 4), bookOrders(others[1].api, tenant.key, 10, 4)]);
    const committed = [...throughFirst, ...throughSecond].map((order) => order.id).sort();

    const settled = await settledAccount(others[0].running, database.url);
    expect(settled.missing, "committed orders keep their seats").toEqual([]);
    expect([...settled.held.keys()].sort()).toEqual(committed);
    for (const id of pausedIds) expect(settled.orders.has(id), id).toBe(false);

    // Each abandoned hold was released exactly once, by one survivor or the other.
    const releases = [...settledBy(others[0]), ...settledBy(others[1])].sort();
    expect(releases).toEqual(pausedIds);

    // Past the committed bookings' own lease, nothing of theirs is touched.
    await sleep(LEASE_SECONDS * 1000 + 500);
    const later = await seatAccount(database.url);
    expect([...later.held.keys()].sort()).toEqual(committed);
    expect(later.held).toEqual(settled.held);
    expect([...settledBy(others[0]), ...settledBy(others[1])].sort()).toEqual(pausedIds);
  });
});
