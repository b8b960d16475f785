import { expect } from "vitest";
import { generateSecret } from "../../src/tenancy/api-key-secret";
import { recordClaims, type SeenClaim } from "./job-leases";
import { createTestDatabase } from "./test-database";
import { startTestServer, type TestServer } from "./test-server";

/** Two servers (what two processes run) on one fresh PostgreSQL database, sharing an owner key. */
export interface TwoServers {
  a: TestServer;
  b: TestServer;
  /** Every job either claims, in order, named "A" or "B". */
  claims: SeenClaim[];
  close(): Promise<void>;
}

/** Starts both with `env`, recording their job claims; for the suites where two processes race for the same jobs. */
export async function startTwoServers(env: Record<string, string>): Promise<TwoServers> {
  const database = await createTestDatabase();
  if (database.provider !== "postgresql") throw new Error("two processes share a database only on PostgreSQL (TEST_DATABASE_URL)");
  const ownerKey = generateSecret("owner");
  const a = await startTestServer({ database, ownerKey, env });
  const b = await startTestServer({ database, ownerKey, env });
  const claims: SeenClaim[] = [];
  const stopRecording = [recordClaims(a, "A", claims), recordClaims(b, "B", claims)];
  return {
    a,
    b,
    claims,
    async close() {
      for (const stop of stopRecording) stop();
      await b.close();
      await a.close();
      await database.drop();
    },
  };
}

/** Each of the orders' jobs was claimed exactly once across the two servers, and both claimed some. */
export function expectClaimedOnceByBoth(claims: SeenClaim[], orderIds: string[]): void {
  const jobIds = claims.map((claim) => claim.job.id);
  expect(new Set(jobIds).size, "no job claimed twice").toBe(jobIds.length);
  expect(claims.map((claim) => claim.job.orderId).sort(), "one claim per order").toEqual([...orderIds].sort());
  const byA = claims.filter((claim) => claim.server === "A").length;
  expect(byA > 0 && byA < claims.length, `A claimed ${byA} of ${claims.length}`).toBe(true);
}
