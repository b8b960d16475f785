import { afterAll, beforeAll, expect } from "vitest";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import type { PausePoint } from "../../src/test-pause";
import { exitCode, killStillRunning, launchTracked, type Launched, type Running } from "./main-process";
import { settledAccount, waitForPause } from "./seat-accounting";
import { createTestDatabase, type TestDatabase } from "./test-database";

/**
 * What the SIGKILL crash suites share: a fresh database for the suite, the real entry point
 * launched on it (optionally stopping at a pause point, AEROGATE_TEST_PAUSE_AT), and killing it
 * there with requests in flight that then get no answer. Call `crashHarness` in a `describe`
 * body: it registers that suite's beforeAll (the database) and afterAll (whatever still runs is
 * killed, the database dropped).
 */
export interface CrashHarness {
  /** The suite's database; there from its beforeAll on. */
  readonly database: TestDatabase;
  /**
   * Starts the process on the suite's database (recorded for the afterAll), polling jobs every
   * 50 ms and logging warnings only, with the suite's environment; with `pauseAt`, every request
   * reaching that point stops there.
   */
  launch(pauseAt?: PausePoint): Launched;
  /**
   * SIGKILLs `running` and expects it to die of that signal; each of `inFlight` (requests it was
   * serving, from `inFlight()`) then has failed: the client got no answer.
   */
  kill(running: Running, ...inFlight: Array<Promise<unknown>>): Promise<void>;
  /**
   * `request` (just sent to `running`) stops at `point` (the `nth` request to, 1-based): SIGKILLs
   * the process there and expects the client to get no answer. Returns what the pause marker
   * names (e.g. the order id).
   */
  killAt(running: Running, point: PausePoint, request: Promise<unknown>, nth?: number): Promise<Record<string, string>>;
  /**
   * Once `running` (its seat reconciler) has settled every seat intent: the seats the airline
   * holds for `orderId`, counted in the database, one per flight of `slices`; none leaked or
   * missing for any order; and the seats it sold by designator are exactly the seats on each
   * order.
   */
  expectSeatsHeld(running: Running, orderId: string, slices: Array<{ segments: unknown[] }>): Promise<void>;
}

/**
 * A request whose answer is awaited later, or never comes (the process dies first): its failure
 * is the value it resolves with, not an unhandled rejection meanwhile.
 */
export function inFlight<T>(request: Promise<T>): Promise<T | Error> {
  return request.catch((error: Error) => error);
}

/** `env`: what the suite sets besides the database and owner key (TICKETING_DELAY_MS, JOB_LEASE_SECONDS…). */
export function crashHarness(env: Record<string, string>): CrashHarness {
  let database: TestDatabase | undefined;
  const started: Running[] = [];
  const ownerKey = generateSecret("owner");

  beforeAll(async () => {
    database = await createTestDatabase();
  });

  afterAll(async () => {
    await killStillRunning(started);
    await database?.drop();
  });

  const harness: CrashHarness = {
    get database() {
      if (!database) throw new Error("the crash harness's database is created in the suite's beforeAll");
      return database;
    },
    launch(pauseAt) {
      return launchTracked(started, {
        JOB_POLL_MS: "50",
        LOG_LEVEL: "warn",
        ...env,
        DATABASE_URL: harness.database.url,
        OWNER_API_KEY: ownerKey,
        ...(pauseAt && { AEROGATE_TEST_PAUSE_AT: pauseAt }),
      });
    },
    async kill(running, ...requests) {
      running.child.kill("SIGKILL");
      expect(await exitCode(running)).toBe("SIGKILL");
      for (const answer of requests) expect(await answer, "the client got no answer").toBeInstanceOf(Error);
    },
    async killAt(running, point, request, nth = 1) {
      const answer = inFlight(request);
      const paused = await waitForPause(running, point, nth);
      await harness.kill(running, answer);
      return paused;
    },
    async expectSeatsHeld(running, orderId, slices) {
      const account = await settledAccount(running, harness.database.url);
      expect(account.held.get(orderId)).toBe(slices.flatMap((slice) => slice.segments).length);
      expect(account.leaked).toEqual([]);
      expect(account.missing).toEqual([]);
      expect(account.seatsDisagreeing).toEqual([]);
    },
  };
  return harness;
}
