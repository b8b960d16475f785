import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { offerAddress } from "../../src/search/offer-ids";
import { call, createTenant, graphql, type Endpoint, type TenantFixture } from "../helpers/client";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { toMinor } from "../helpers/flight-checks";
import { createOrderA, getOrder, searchForBooking } from "../helpers/orders";
import { seatForSale, seatMaps } from "../helpers/seat-maps";
import { startTestServer, type TestServer } from "../helpers/test-server";
import { startTwoServers, type TwoServers } from "../helpers/two-servers";

/**
 * Retention on PostgreSQL alone. Two server processes on one database, both sweeping every 50 ms (batches chosen
 * `FOR UPDATE SKIP LOCKED`), while both book offers with a seat around their expiry (and so
 * their removal: OFFER_RETENTION_SECONDS=0) and read offers: nothing booked is lost (each order
 * keeps its snapshot and its seat), a search is read whole or not at all, and each search is
 * removed exactly once across the two.
 */

const SEARCHES = 10;

/** A process's count of removed rows of `table` (its /metrics). */
async function removedBy(server: Endpoint, table: string): Promise<number> {
  const metrics = await call<string>(server, "GET", "/metrics");
  const match = new RegExp(`aerogate_retention_removed_total\\{table="${table}"\\} (\\d+)`).exec(metrics.body);
  return match ? Number(match[1]) : 0;
}

/** A process's count of retention batches run (its /metrics), whether they removed anything or not. */
async function sweepsBy(server: Endpoint): Promise<number> {
  const metrics = await call<string>(server, "GET", "/metrics");
  const match = /aerogate_retention_batch_seconds_count (\d+)/.exec(metrics.body);
  return match ? Number(match[1]) : 0;
}

describe("retention swept by two processes while both book and read", { timeout: 120_000 }, () => {
  let servers: TwoServers;
  let a: TestServer;
  let b: TestServer;
  let tenant: TenantFixture;

  beforeAll(async () => {
    servers = await startTwoServers({ OFFER_TTL_SECONDS: "10", OFFER_RETENTION_SECONDS: "0", RETENTION_SWEEP_SECONDS: "0.05" });
    ({ a, b } = servers);
    tenant = await createTenant(a);
  });
  afterAll(() => servers?.close());

  it("loses nothing booked, removes each search once and never half", async () => {
    const { key } = tenant;
    const searches: Array<{ requestId: string; offers: any[] }> = [];
    for (let i = 0; i < SEARCHES; i++) {
      const offers = await searchForBooking(i % 2 === 0 ? a : b, key);
      searches.push({ requestId: offerAddress(offers[0].id)!.requestId, offers });
    }
    // One offer of each search booked with a seat, through the process that did not search it.
    const bookings = await Promise.all(
      searches.map(async ({ offers }, i) => {
        const offer = offers[0];
        const seat = seatForSale((await seatMaps(a, key, `offer_id=${offer.id}`))[0]);
        return { offer, seat, server: i % 2 === 0 ? b : a };
      }),
    );

    let reading = true;
    const wholeOrNothing: string[] = [];
    /** Offers each listing of a search found: all of them, or none once it is removed. */
    const listedCounts = new Map<string, number[]>();
    const reads = (async () => {
      for (let round = 0; reading; round++) {
        const { requestId, offers } = searches[round % searches.length]!;
        const server = round % 2 === 0 ? a : b;
        const document = `{ ${offers.map((offer, i) => `o${i}: offer(id: "${offer.id}") { id }`).join(" ")} }`;
        const read = await graphql(server, document, {}, { key });
        const found = offers.filter((_, i) => read.body.data?.[`o${i}`] !== null).length;
        if (found !== 0 && found !== offers.length) wholeOrNothing.push(`${requestId}: ${found} of ${offers.length} offers readable`);
        const listed = await call(server, "GET", `/v1/air/offers?offer_request_id=${requestId}&limit=100`, { key });
        const count = listed.status === 200 ? listed.body.data.items.length : listed.status === 404 ? 0 : -1;
        listedCounts.set(requestId, [...(listedCounts.get(requestId) ?? []), count]);
      }
    })();

    // Bookings from 4 s before their offer's expiry (and removal) to 1 s after, on both processes.
    const outcomes = await Promise.all(
      bookings.map(async ({ offer, seat, server }, i) => {
        const at = Date.parse(offer.expires_at) - 4000 + (5000 * i) / bookings.length;
        await new Promise((resolve) => setTimeout(resolve, Math.max(0, at - Date.now())));
        const amount = (toMinor(offer.total_amount, offer.total_currency) + toMinor(seat.service.total_amount, seat.service.total_currency)) / 100;
        const response = await createOrderA(server, key, offer, {
          body: { services: [{ id: seat.service.id, quantity: 1 }], payments: [{ type: "balance", currency: offer.total_currency, amount: amount.toFixed(2) }] },
        });
        return { offer, seat, response };
      }),
    );

    await eventually(async () => ((await a.db.prisma.offerRequest.count()) === 0 ? true : undefined), () => "searches still stored", 30_000, 100);
    reading = false;
    await reads;
    expect(wholeOrNothing).toEqual([]);
    for (const [requestId, counts] of listedCounts) {
      const all = counts[0]!;
      expect(all, requestId).toBeGreaterThan(0);
      expect(counts.every((count) => count === all || count === 0), `${requestId} listed ${counts.join(", ")}`).toBe(true);
      expect(counts.indexOf(0) === -1 || counts.slice(counts.indexOf(0)).every((count) => count === 0), `${requestId} listed again after it was gone`).toBe(true);
    }

    const booked = outcomes.filter(({ response }) => response.status === 201);
    for (const { response } of outcomes.filter(({ response }) => response.status !== 201)) expectError(response, 422, "offer_no_longer_available");
    expect(booked.length, "bookings before the expiry").toBeGreaterThan(0);
    expect(booked.length, "bookings after it").toBeLessThan(outcomes.length);
    for (const { offer, seat, response } of booked) {
      for (const server of [a, b]) {
        const order = await getOrder(server, key, response.body.data.id);
        expect(order.body.data.offer).toEqual(offer);
        expect(order.body.data.services.map((service: any) => service.designator)).toEqual([seat.designator]);
      }
    }
    const orderIds = booked.map(({ response }) => response.body.data.id).sort();
    const assigned = await a.db.prisma.seatAssignment.findMany({ where: { tenantId: tenant.tenantId } });
    expect(assigned.map((row) => row.holdId).sort()).toEqual(orderIds);
    await eventually(
      async () => {
        const holders = new Set((await a.db.prisma.seatHold.findMany({ where: { tenantId: tenant.tenantId } })).map((row) => row.holdId));
        return [...holders].sort().join() === orderIds.join() ? true : undefined;
      },
      () => "seats held for bookings that were refused",
    );

    const [byA, byB] = [await removedBy(a, "OfferRequest"), await removedBy(b, "OfferRequest")];
    expect(byA + byB, `A removed ${byA}, B ${byB}`).toBe(SEARCHES);
    // Both swept all along; which of them found each search is the scheduler's to say (a loaded run
    // has seen one process take all ten), so only the sweeps themselves are required of each.
    expect([await sweepsBy(a), await sweepsBy(b)].every((sweeps) => sweeps > 0), "both processes swept").toBe(true);
  });
});

describe("rate-limit buckets on PostgreSQL", { timeout: 60_000 }, () => {
  let server: TestServer;
  let tenant: TenantFixture;
  beforeAll(async () => {
    server = await startTestServer({ env: { RATE_LIMIT_RPS: "2", RATE_LIMIT_BURST: "8", RETENTION_SWEEP_SECONDS: "0.1" } });
    tenant = await createTenant(server);
  });
  afterAll(() => server?.close());

  it("removes a key's bucket once it has been idle long enough to be full again, and the key starts from a full one", async () => {
    for (let i = 0; i < 4; i++) expect((await call(server, "GET", "/v1/tenant", { key: tenant.key })).status).toBe(200);
    const buckets = () => server.db.prisma.rateLimitBucket.findMany();
    const [bucket] = await buckets();
    expect(bucket!.tokens).toBeLessThan(10);
    // Idle for an hour (the longer of an hour and the time to fill 10 tokens at 2 a second), by the database's clock.
    await server.db.prisma.$executeRaw`UPDATE "RateLimitBucket" SET "refilledAt" = "refilledAt" - interval '61 minutes'`;
    await eventually(async () => ((await buckets()).length === 0 ? true : undefined), () => "an idle bucket still stored");
    const next = await call(server, "GET", "/v1/tenant", { key: tenant.key });
    expect(next.status).toBe(200);
    expect(Number(next.headers.get("ratelimit-remaining"))).toBeGreaterThanOrEqual(8);
  });
});
