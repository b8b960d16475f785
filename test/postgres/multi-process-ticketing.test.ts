import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generateSecret } from "../../src/context/api-key-secret";
import type { OrderJobKind } from "../../src/orders/order-job-queue";
import { createTenant, type TenantFixture } from "../helpers/client";
import { createTestDatabase, type TestDatabase } from "../helpers/test-database";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { bookOrders, expectExactLedger, expectOutcomes, ticketAll, waitUntilAllAnswered, type BookedOrder } from "../helpers/ticketing";

/**
 * Two server processes on one PostgreSQL database, each running the job worker, competing for
 * the same due ticketing jobs (claims take `FOR UPDATE SKIP LOCKED`). Orders ticketed through
 * both: every job is claimed exactly once across the two, both claim some, each order ends once
 * in the state the airline gives it, and the wallet moves exactly once per order. Only
 * meaningful on PostgreSQL: SQLite serves one process.
 */

const ORDERS = 40;

interface Claim {
  server: "A" | "B";
  jobId: string;
  orderId: string;
  kind: OrderJobKind;
}

describe("two job workers on one PostgreSQL database", { timeout: 120_000 }, () => {
  let database: TestDatabase;
  let a: TestServer;
  let b: TestServer;
  const claims: Claim[] = [];
  const unsubscribe: Array<() => void> = [];
  let tenant: TenantFixture;
  let booked: BookedOrder[];

  beforeAll(async () => {
    database = await createTestDatabase();
    const ownerKey = generateSecret("owner");
    // Jobs fall due soon, and each worker also reads the queue every 20 ms: they race for every due job.
    const env = { TICKETING_DELAY_MS: "300", JOB_POLL_MS: "20" };
    a = await startTestServer({ database, ownerKey, env });
    b = await startTestServer({ database, ownerKey, env });
    expect(a.provider).toBe("postgresql");
    for (const [name, server] of [["A", a], ["B", b]] as const) {
      unsubscribe.push(server.app.services.jobWorker.onClaimed((job) => claims.push({ server: name, jobId: job.id, orderId: job.orderId, kind: job.kind })));
    }
    tenant = await createTenant(a);
    booked = await bookOrders(a, tenant.key, ORDERS, 5);
  });
  afterAll(async () => {
    for (const stop of unsubscribe) stop();
    await b?.close();
    await a?.close();
    await database?.drop();
  });

  it("orders ticketed at once, half through each process, each end once as the airline answers", async () => {
    await ticketAll(booked, tenant.key, (index) => (index % 2 === 0 ? a : b));
    expectOutcomes(await waitUntilAllAnswered(b, tenant.key, booked), booked);
  });

  it("every ticketing job was claimed exactly once across the two processes, and both claimed some", async () => {
    // Every order answered: every claim there will be has been made.
    await waitUntilAllAnswered(a, tenant.key, booked);
    expect(claims.every((claim) => claim.kind === "ticket")).toBe(true);
    const jobIds = claims.map((claim) => claim.jobId);
    expect(new Set(jobIds).size, "no job claimed twice").toBe(jobIds.length);
    expect(claims.map((claim) => claim.orderId).sort(), "one claim per order").toEqual(booked.map((order) => order.id).sort());
    const byA = claims.filter((claim) => claim.server === "A").length;
    const byB = claims.filter((claim) => claim.server === "B").length;
    expect(byA, `A claimed ${byA}, B ${byB}`).toBeGreaterThan(0);
    expect(byB, `A claimed ${byA}, B ${byB}`).toBeGreaterThan(0);
  });

  it("the wallet moved exactly once per order, whichever process ran it, as both processes read it", async () => {
    await waitUntilAllAnswered(a, tenant.key, booked);
    await expectExactLedger(a, tenant.key, booked);
    await expectExactLedger(b, tenant.key, booked);
  });
});
