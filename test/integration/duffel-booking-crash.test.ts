import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clock, setClock } from "../../src/clock";
import { openDatabase, type Database } from "../../src/db/database";
import { crashHarness } from "../helpers/crash-harness";
import { createTenant, type Endpoint, type TenantFixture } from "../helpers/client";
import { secretsKey } from "../helpers/duffel";
import { startDuffelFake, type DuffelFake } from "../helpers/duffel-fake";
import { duffelOffer, duffelOrdersOf, duffelTenant } from "../helpers/duffel-gateway";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { waitUntilHealthy } from "../helpers/main-process";
import { createOrderA, newKey } from "../helpers/orders";
import { startTestServer } from "../helpers/test-server";

/**
 * A process killed after Duffel made a booking's hold and before our order committed, through the
 * real POST /v1/air/orders (docs/duffel.md#bookings-and-crashes): after a restart the order exists
 * once, with Duffel's one order, whether the tenant repeats its Idempotency-Key or the restarted
 * server's reconciler finishes the booking on its own; the key then finds that order.
 */

/** How long the first request's claim on its Idempotency-Key lasts (src/idempotency/idempotency.service.ts). */
const CLAIM_LEASE_MS = 60_000;

const env: Record<string, string> = { SUPPLIER_SECRETS_KEY: secretsKey(), DUFFEL_TIMEOUT_MS: "500" };

describe("a crash between Duffel's hold and our order's commit", { timeout: 180_000 }, () => {
  const harness = crashHarness(env);
  let fake: DuffelFake;
  let tenant: TenantFixture;
  /** A tenant without a Duffel connection: nothing can be asked of Duffel for its bookings. */
  let unconnected: TenantFixture;
  let db: Database;

  beforeAll(async () => {
    fake = await startDuffelFake();
    env.DUFFEL_API_URL = fake.url;
    const setup = await startTestServer({ database: harness.database, env });
    tenant = await duffelTenant(setup, fake);
    unconnected = await createTenant(setup);
    await setup.close();
    db = await openDatabase(harness.database.url);
  });
  afterEach(() => setClock(new Date()));
  afterAll(async () => {
    await db?.close();
    await fake?.close();
  });

  /** Books a holdable Duffel offer on a process of its own, killed once Duffel made the hold; returns the request and our order id. */
  async function bookAndCrash(): Promise<{ offer: any; key: string; orderId: string }> {
    const { running, api } = harness.launch("after_duffel_order");
    await waitUntilHealthy(running);
    const offer = await duffelOffer(api, tenant.key, "VS");
    const key = newKey("crash");
    const paused = await harness.killAt(running, "after_duffel_order", createOrderA(api, tenant.key, offer, { idempotencyKey: key }));
    expect(duffelOrdersOf(fake, paused.orderId!).map((order) => order.id)).toEqual([paused.duffelOrderId]);
    expect(await db.prisma.order.count({ where: { id: paused.orderId! } })).toBe(0);
    expect(await db.prisma.duffelBooking.findUniqueOrThrow({ where: { id: paused.orderId! } })).toMatchObject({ status: "requested", duffelOrderId: null });
    return { offer, key, orderId: paused.orderId! };
  }

  /** The same request again once the first one's claim on the key has lapsed (the clock moved past it): the order it answers. */
  async function repeat(server: Endpoint, crashed: { offer: any; key: string }) {
    setClock(new Date(clock.nowMs() + CLAIM_LEASE_MS + 1000));
    const repeated = await createOrderA(server, tenant.key, crashed.offer, { idempotencyKey: crashed.key });
    expect(repeated.status, JSON.stringify(repeated.body).slice(0, 500)).toBe(201);
    return repeated.body.data;
  }

  async function expectOneOrder(orderId: string, offerId: string): Promise<void> {
    expect(await db.prisma.order.findMany({ where: { tenantId: tenant.tenantId, offerId }, select: { id: true, status: true } })).toEqual([{ id: orderId, status: "PENDING" }]);
    expect(duffelOrdersOf(fake, orderId)).toHaveLength(1);
    expect(await db.prisma.duffelBooking.findUniqueOrThrow({ where: { id: orderId } })).toMatchObject({ status: "booked", duffelOrderId: duffelOrdersOf(fake, orderId)[0]!.id });
  }

  it("the same Idempotency-Key after a restart finds the hold Duffel made and commits it as the order: once", async () => {
    const crashed = await bookAndCrash();
    // A call timeout long enough that the reconciler leaves the booking to the repeat.
    const restarted = await startTestServer({ database: harness.database, env: { ...env, DUFFEL_TIMEOUT_MS: String(10 * CLAIM_LEASE_MS) } });
    try {
      expectError(await createOrderA(restarted, tenant.key, crashed.offer, { idempotencyKey: crashed.key }), 409, "idempotency_request_in_progress");
      const order = await repeat(restarted, crashed);
      expect(order).toMatchObject({ id: crashed.orderId, supplier: { id: "duffel" }, booking_reference: duffelOrdersOf(fake, crashed.orderId)[0]!.id.slice(-6).toUpperCase() });
      await expectOneOrder(crashed.orderId, crashed.offer.id);
      const replayed = await createOrderA(restarted, tenant.key, crashed.offer, { idempotencyKey: crashed.key });
      expect({ status: replayed.status, id: replayed.body.data.id, replayed: replayed.headers.get("idempotent-replayed") }).toEqual({ status: 201, id: crashed.orderId, replayed: "true" });
    } finally {
      await restarted.close();
    }
  });

  it("the restarted server's reconciler commits the order on its own, and the same key then finds it; a booking Duffel never saw fails, one it cannot ask about waits", async () => {
    const crashed = await bookAndCrash();
    const connectionId = (await db.prisma.supplierConnection.findFirstOrThrow({ where: { tenantId: tenant.tenantId } })).id;
    const neverSent = await db.prisma.duffelBooking.create({ data: { id: "ord_neversentneversentneverse", tenantId: tenant.tenantId, idempotencyKey: newKey("lost"), connectionId, offerId: "off_0000neversent", status: "requested" } });
    const unaskable = await db.prisma.duffelBooking.create({ data: { id: "ord_unaskableunaskableunaskab", tenantId: unconnected.tenantId, idempotencyKey: newKey("unaskable"), connectionId, offerId: "off_0000unaskable", status: "requested" } });

    const restarted = await startTestServer({ database: harness.database, env });
    try {
      const settled = await eventually(
        async () => {
          const rows = await db.prisma.duffelBooking.findMany({ where: { id: { in: [crashed.orderId, neverSent.id] } } });
          return rows.every((row) => row.status !== "requested") ? new Map(rows.map((row) => [row.id, row.status])) : undefined;
        },
        () => "the reconciler settles both bookings",
        30_000,
      );
      expect(Object.fromEntries(settled)).toEqual({ [crashed.orderId]: "booked", [neverSent.id]: "failed" });
      await expectOneOrder(crashed.orderId, crashed.offer.id);
      expect((await repeat(restarted, crashed)).id).toBe(crashed.orderId);
      await expectOneOrder(crashed.orderId, crashed.offer.id);
      expect(duffelOrdersOf(fake, neverSent.id)).toEqual([]);
      const waiting = await eventually(
        async () => {
          const row = await db.prisma.duffelBooking.findUniqueOrThrow({ where: { id: unaskable.id } });
          return row.updatedAt > unaskable.updatedAt ? row : undefined;
        },
        () => "the reconciler looks at the booking it cannot settle",
        30_000,
      );
      expect(waiting.status).toBe("requested");
    } finally {
      await restarted.close();
    }
  });

});
