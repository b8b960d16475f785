import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openDatabase, type Database } from "../../src/db/database";
import { ORDER_ID_METADATA, type DuffelBookingRequest } from "../../src/duffel/duffel-bookings";
import { offerRequestBody } from "../../src/duffel/duffel-offers";
import type { DuffelOffer } from "../../src/duffel/duffel-shapes";
import { createTenant, type TenantFixture } from "../helpers/client";
import { crashHarness } from "../helpers/crash-harness";
import { accountOf, connectDuffel, fakeToken, londonToNewYork, scopeOf, secretsKey, travellers } from "../helpers/duffel";
import { startDuffelFake, type DuffelFake } from "../helpers/duffel-fake";
import { eventually } from "../helpers/eventually";
import { killStillRunning, startMain, waitUntilHealthy, type Running } from "../helpers/main-process";
import { newKey } from "../helpers/orders";
import { waitForPause } from "../helpers/seat-accounting";
import { startTestServer } from "../helpers/test-server";

/**
 * A process killed after Duffel made a booking's order and before our record of it committed
 * (docs/duffel.md#bookings-and-crashes): after a restart the booking has exactly one Duffel order,
 * found by our order id in its metadata, whether the tenant repeats its Idempotency-Key or the
 * restarted server's reconciler settles the booking on its own.
 */

const env: Record<string, string> = { SUPPLIER_SECRETS_KEY: secretsKey(), DUFFEL_TIMEOUT_MS: "500" };

describe("a crash between Duffel's order and our commit", { timeout: 180_000 }, () => {
  const harness = crashHarness(env);
  const started: Running[] = [];
  let fake: DuffelFake;
  let tenant: TenantFixture;
  /** A tenant without a Duffel connection: nothing can be asked of Duffel for its bookings. */
  let unconnected: TenantFixture;
  let offers: DuffelOffer[];
  let db: Database;

  beforeAll(async () => {
    fake = await startDuffelFake();
    env.DUFFEL_API_URL = fake.url;
    const setup = await startTestServer({ database: harness.database, env });
    tenant = await createTenant(setup);
    unconnected = await createTenant(setup);
    await connectDuffel(setup, tenant, fakeToken(fake));
    const { connector } = await accountOf(setup, tenant);
    offers = (await connector.createOfferRequest(offerRequestBody(londonToNewYork(setup)), { returnOffers: true, supplierTimeoutMs: 2000 })).offers!;
    await setup.close();
    db = await openDatabase(harness.database.url);
  });
  afterAll(async () => {
    await killStillRunning(started);
    await db?.close();
    await fake?.close();
  });

  const bookingOf = (offer: DuffelOffer): DuffelBookingRequest => ({
    idempotencyKey: newKey("crash"),
    offerId: offer.id,
    type: "instant",
    passengers: travellers(offer.passengers.map((passenger) => passenger.id)),
    payment: { amount: offer.total_amount, currency: offer.total_currency },
  });

  /** Books in a process of its own, killed once Duffel made the order; returns our order id and Duffel's. */
  async function bookAndCrash(request: DuffelBookingRequest): Promise<{ orderId: string; duffelOrderId: string }> {
    const booking = startMain({ ...env, DATABASE_URL: harness.database.url, LOG_LEVEL: "warn", AEROGATE_TEST_PAUSE_AT: "after_duffel_order", DUFFEL_BOOKING: JSON.stringify({ tenantId: tenant.tenantId, request }) }, "test/helpers/duffel-booking-process.ts");
    started.push(booking);
    const paused = await waitForPause(booking, "after_duffel_order");
    await harness.kill(booking);
    expect(booking.stdout()).not.toContain("DUFFEL_BOOKED");
    expect(await db.prisma.duffelBooking.findUniqueOrThrow({ where: { id: paused.orderId! } })).toMatchObject({ status: "requested", duffelOrderId: null });
    return { orderId: paused.orderId!, duffelOrderId: paused.duffelOrderId! };
  }

  const duffelOrdersOf = (orderId: string) => [...fake.orders.values()].filter((order) => order.metadata[ORDER_ID_METADATA] === orderId).map((order) => order.id);

  it("a repeat of the Idempotency-Key after the restart finds Duffel's order instead of booking again", async () => {
    const request = bookingOf(offers[0]!);
    const crashed = await bookAndCrash(request);
    expect(duffelOrdersOf(crashed.orderId)).toEqual([crashed.duffelOrderId]);

    const restarted = await startTestServer({ database: harness.database, env });
    try {
      const repeated = await restarted.app.services.duffelBookings.book(await scopeOf(restarted, tenant), request);
      expect(repeated).toMatchObject({ id: crashed.orderId, status: "booked", duffelOrderId: crashed.duffelOrderId });
    } finally {
      await restarted.close();
    }
    expect(duffelOrdersOf(crashed.orderId)).toEqual([crashed.duffelOrderId]);
  });

  it("the restarted server's reconciler settles the booking on its own: booked with Duffel's one order; an intent Duffel never saw fails; one it cannot ask about waits", async () => {
    const crashed = await bookAndCrash(bookingOf(offers[1]!));
    const connectionId = (await db.prisma.supplierConnection.findFirstOrThrow({ where: { tenantId: tenant.tenantId } })).id;
    const neverSent = await db.prisma.duffelBooking.create({
      data: { id: "ord_neversentneversentneverse", tenantId: tenant.tenantId, idempotencyKey: newKey("lost"), connectionId, offerId: offers[2]!.id, status: "requested" },
    });
    const unaskable = await db.prisma.duffelBooking.create({
      data: { id: "ord_unaskableunaskableunaskab", tenantId: unconnected.tenantId, idempotencyKey: newKey("unaskable"), connectionId, offerId: offers[2]!.id, status: "requested" },
    });

    const server = harness.launch();
    await waitUntilHealthy(server.running);
    const settled = await eventually(
      async () => {
        const rows = await db.prisma.duffelBooking.findMany({ where: { id: { in: [crashed.orderId, neverSent.id] } } });
        return rows.every((row) => row.status !== "requested") ? new Map(rows.map((row) => [row.id, row])) : undefined;
      },
      () => "the reconciler settles both bookings",
      30_000,
    );
    expect(settled.get(crashed.orderId)).toMatchObject({ status: "booked", duffelOrderId: crashed.duffelOrderId });
    expect(settled.get(neverSent.id)).toMatchObject({ status: "failed", duffelOrderId: null });
    expect(duffelOrdersOf(crashed.orderId)).toEqual([crashed.duffelOrderId]);
    expect(duffelOrdersOf(neverSent.id)).toEqual([]);
    const waiting = await eventually(
      async () => {
        const row = await db.prisma.duffelBooking.findUniqueOrThrow({ where: { id: unaskable.id } });
        return row.updatedAt > unaskable.updatedAt ? row : undefined;
      },
      () => "the reconciler looks at the booking it cannot settle",
      30_000,
    );
    expect(waiting.status).toBe("requested");
    await harness.kill(server.running);
  });
});
