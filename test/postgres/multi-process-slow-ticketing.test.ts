import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTenant, type TenantFixture } from "../helpers/client";
import { toMinor } from "../helpers/flight-checks";
import { expectTicketedOnce, waitForClaims, waitForRenewal } from "../helpers/job-leases";
import { bookOffer, passengersOf, searchForBooking, ticketOrder, waitForStatus } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";
import { startTwoServers, type TwoServers } from "../helpers/two-servers";

/**
 * Two server processes on one PostgreSQL database, both polling the job queue every 20 ms, and
 * an airline slower than the job lease (a sandbox passenger named `Slow`: twice
 * JOB_LEASE_SECONDS). The process that claimed the job renews its lease while it waits, so the
 * other never claims it: the airline is asked once, and the order is ticketed once.
 */

const LEASE_MS = 1000;

describe("a slow airline answer with two job workers on one PostgreSQL database", { timeout: 60_000 }, () => {
  let servers: TwoServers;
  let a: TestServer;
  let b: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => {
    servers = await startTwoServers({ JOB_LEASE_SECONDS: String(LEASE_MS / 1000), JOB_POLL_MS: "20", TICKETING_DELAY_MS: "0" });
    ({ a, b } = servers);
    tenant = await createTenant(a);
  });
  afterAll(() => servers?.close());

  it("the job is claimed once across both processes while the call outlasts the lease; the order is ticketed once", async () => {
    const [offer] = await searchForBooking(a, tenant.key, { passengers: ["adult", "adult"] });
    const order = await bookOffer(a, tenant.key, offer, { passengers: passengersOf(offer, { family_name: "Slow" }) });
    expect((await ticketOrder(b, tenant.key, order.id)).status).toBe(200);
    const [claim] = await waitForClaims(servers.claims, order.id, 1);
    await waitForRenewal(a, claim!);
    const ticketed = await waitForStatus(a, tenant.key, order.id, ["TICKETED", "FAILED"]);
    expect(Date.parse(ticketed.body.data.updated_at), "the airline took longer than the lease").toBeGreaterThan(claim!.claimedAt.getTime() + LEASE_MS);
    const ofOrder = servers.claims.filter((seen) => seen.job.orderId === order.id);
    expect(ofOrder.map((seen) => [seen.server, seen.job.attempts]), "one claim, by either process").toEqual([[claim!.server, 1]]);
    await expectTicketedOnce(a, tenant.key, ticketed.body.data, toMinor(order.total_amount, order.total_currency));
  });
});
