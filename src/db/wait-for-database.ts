import { clock } from "../clock";
import type { Logger } from "../logger";
import { describeDatabase, probePostgres } from "./database";
import { databaseFault } from "./errors";

/** Waits between attempts: quick at first, then every two seconds. */
const WAIT_DELAYS_MS = [100, 200, 500, 1000, 2000];

/** What a process waiting for its database at start can say about it (/readyz). */
export interface DatabaseWait {
  /** The database, without credentials. */
  name: string;
  since: Date;
  /** When the process gives up and exits. */
  givesUpAt: Date;
  /** Why the last attempt failed. */
  reason: string;
}

/** The database did not answer within DATABASE_WAIT_SECONDS. */
export class DatabaseWaitExpired extends Error {
  override name = "DatabaseWaitExpired";
}

/**
 * At start, before migrations: waits until the database at `url` answers, trying again with
 * backoff (0.1 s, growing to every 2 s) for up to `waitSeconds`. `onWaiting` is called once the
 * first attempt has failed (then with each new reason), so the caller can serve /healthz and a
 * /readyz that says why. Only an unreachable database is waited for (a refused connection, a
 * server starting up or shutting down); anything else (a wrong password, a missing database)
 * throws at once, and so does the wait's end (`DatabaseWaitExpired`, naming the database). A
 * SQLite file needs no wait.
 */
export async function waitForDatabase(url: string, waitSeconds: number, log: Logger, onWaiting: (wait: DatabaseWait) => Promise<void>): Promise<void> {
  if (!/^postgres(ql)?:\/\//.test(url)) return;
  const name = describeDatabase(url);
  const since = clock.now();
  const givesUpAt = new Date(since.getTime() + waitSeconds * 1000);
  for (let attempt = 0; ; attempt++) {
    try {
      await probePostgres(url);
      if (attempt > 0) log.warn({ database: name, waitedSeconds: Math.round((clock.nowMs() - since.getTime()) / 100) / 10 }, "database reachable; starting");
      return;
    } catch (error) {
      const fault = databaseFault(error);
      if (fault?.kind !== "unreachable") throw error;
      if (attempt === 0) log.error({ database: name, reason: fault.reason, waitSeconds }, "database unreachable at start; waiting for it");
      await onWaiting({ name, since, givesUpAt, reason: fault.reason });
      const delay = WAIT_DELAYS_MS[Math.min(attempt, WAIT_DELAYS_MS.length - 1)]!;
      if (clock.nowMs() + delay > givesUpAt.getTime()) {
        throw new DatabaseWaitExpired(`the database (${name}) could not be reached within ${waitSeconds} s (DATABASE_WAIT_SECONDS): ${fault.reason}`);
      }
      await new Promise((resolve) => setTimeout(resolve, delay));
    }
  }
}
