import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TenantFixture } from "../helpers/client";
import type { TestServer } from "../helpers/test-server";
import { bookOrders, expectExactLedger, expectOutcomes, ticketAll, waitUntilAllAnswered, type BookedOrder } from "../helpers/ticketing";
import { expectClaimedOnceByBoth, startTwoServers, type TwoServers } from "../helpers/two-servers";

/**
 * Two server processes on one PostgreSQL database, each running the job worker, competing for
 * the same due ticketing jobs (claims take `FOR UPDATE SKIP LOCKED`). Orders ticketed through
 * both: every job is claimed exactly once across the two, both claim some, each order ends once
 * in the state the airline gives it, and the wallet moves exactly once per order. Only
 * meaningful on PostgreSQL: SQLite serves one process.
 */

const ORDERS = 40;


describe("two job workers on one PostgreSQL database", { timeout: 120_000 }, () => {
  let servers: TwoServers;
  let a: TestServer;
  let b: TestServer;
  let tenant: TenantFixture;
  let booked: BookedOrder[];

  beforeAll(async () => {
    // Jobs fall due soon, and each worker also reads the queue every 20 ms: they race for every due job.
    servers = await startTwoServers({ TICKETING_DELAY_MS: "300", JOB_POLL_MS: "20" });
    ({ a, b } = servers);
    tenant = await createTenant(a);
    booked = await bookOrders(a, tenant.key, ORDERS, 5);
  });
  afterAll(() => servers?.close());

  it("orders ticketed at once, half through each process, each end once as the airline answers", async () => {
    await ticketAll(booked, tenant.key, (index) => (index % 2 === 0 ? a : b));
    expectOutcomes(await waitUntilAllAnswered(b, tenant.key, booked), booked);
  });

  it("every ticketing job was claimed exactly once across the two processes, and both claimed some", async () => {
    // Every order answered: every claim there will be has been made.
    await waitUntilAllAnswered(a, tenant.key, booked);
    expect(servers.claims.every((claim) => claim.job.kind === "ticket")).toBe(true);
    expectClaimedOnceByBoth(servers.claims, booked.map((order) => order.id));
  });

  it("the wallet moved exactly once per order, whichever process ran it, as both processes read it", async () => {
    await waitUntilAllAnswered(a, tenant.key, booked);
    await expectExactLedger(a, tenant.key, booked);
    await expectExactLedger(b, tenant.key, booked);
  });
});
