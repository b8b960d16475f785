import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clock, setClock } from "../../src/clock";
import { openDatabase, type Database } from "../../src/db/database";
import { crashHarness } from "../helpers/crash-harness";
import { call, type Endpoint, type TenantFixture } from "../helpers/client";
import { secretsKey } from "../helpers/duffel";
import { startDuffelFake, type DuffelFake } from "../helpers/duffel-fake";
import { ticketAndRefundAcrossKills } from "../helpers/duffel-crash";
import { duffelOffer, duffelOrdersOf, duffelTenant } from "../helpers/duffel-gateway";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { waitUntilHealthy } from "../helpers/main-process";
import { toMinor } from "../helpers/flight-checks";
import { createOrderA, newKey } from "../helpers/orders";
import { startTestServer } from "../helpers/test-server";

/**
 * A process killed after Duffel made a booking's hold and before our order committed, through the
 * real POST /v1/air/orders (docs/duffel.md#bookings-and-crashes): the booking was recorded as every
 * supplier's is (a `hold` intent, docs/supplier-contract.md#the-sequence), so the restarted server's
 * reconciler gives the hold back at Duffel, as it gives a simulated airline's seats back; the
 * tenant's same Idempotency-Key then books the offer once. A booking recorded whose Duffel order
 * was never made leaves nothing to give back.
 */

/** How long the first request's claim on its Idempotency-Key lasts (src/idempotency/idempotency.service.ts). */
const CLAIM_LEASE_MS = 60_000;

/** The intents' lease (JOB_LEASE_SECONDS): on PostgreSQL a dead process's intents wait it out. */
const env: Record<string, string> = { SUPPLIER_SECRETS_KEY: secretsKey(), DUFFEL_TIMEOUT_MS: "2000", JOB_LEASE_SECONDS: "2" };

describe("a crash between Duffel's hold and our order's commit", { timeout: 180_000 }, () => {
  const harness = crashHarness(env);
  let fake: DuffelFake;
  let tenant: TenantFixture;
  let db: Database;

  beforeAll(async () => {
    fake = await startDuffelFake();
    env.DUFFEL_API_URL = fake.url;
    const setup = await startTestServer({ database: harness.database, env });
    tenant = await duffelTenant(setup, fake);
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
    const { running, api } = harness.launch("after_supplier_hold");
    await waitUntilHealthy(running);
    const offer = await duffelOffer(api, tenant.key, "VS");
    const key = newKey("crash");
    const paused = await harness.killAt(running, "after_supplier_hold", createOrderA(api, tenant.key, offer, { idempotencyKey: key }));
    expect(duffelOrdersOf(fake, paused.orderId!)).toEqual([expect.objectContaining({ type: "hold", cancelled: false })]);
    expect(await db.prisma.order.count({ where: { id: paused.orderId! } })).toBe(0);
    expect(await db.prisma.seatIntent.findUniqueOrThrow({ where: { id: paused.orderId! } })).toMatchObject({ kind: "hold", orderId: paused.orderId });
    return { offer, key, orderId: paused.orderId! };
  }

  /** The same request again once the first one's claim on the key has lapsed (the clock moved past it): the order it answers. */
  async function repeat(server: Endpoint, crashed: { offer: any; key: string }) {
    setClock(new Date(clock.nowMs() + CLAIM_LEASE_MS + 1000));
    const repeated = await createOrderA(server, tenant.key, crashed.offer, { idempotencyKey: crashed.key });
    expect(repeated.status, JSON.stringify(repeated.body).slice(0, 500)).toBe(201);
    return repeated.body.data;
  }

  /** Waits until the reconciler has settled the intent of `orderId`. */
  const settled = (orderId: string) =>
    eventually(
      async () => ((await db.prisma.seatIntent.count({ where: { id: orderId } })) === 0 ? true : undefined),
      () => `the reconciler settles the intent of ${orderId}`,
      30_000,
    );

  it("the restarted server's reconciler gives the hold back at Duffel, and the same Idempotency-Key then books the offer once", async () => {
    const crashed = await bookAndCrash();
    const restarted = await startTestServer({ database: harness.database, env });
    try {
      await settled(crashed.orderId);
      expect(duffelOrdersOf(fake, crashed.orderId)).toEqual([expect.objectContaining({ cancelled: true })]);
      // The hold was found again among its offer's orders alone, not by reading the account's every order.
      const lookups = fake.requests.filter((request) => request.method === "GET" && request.path.startsWith("/air/orders?"));
      expect(lookups.length).toBeGreaterThan(0);
      for (const lookup of lookups) expect(new URL(lookup.path, "http://fake").searchParams.get("offer_id")).toBe(duffelOrdersOf(fake, crashed.orderId)[0]!.offerId);
      expect(await db.prisma.duffelBooking.findUniqueOrThrow({ where: { id: crashed.orderId } })).toMatchObject({ status: "failed" });
      expectError(await createOrderA(restarted, tenant.key, crashed.offer, { idempotencyKey: crashed.key }), 409, "idempotency_request_in_progress");

      const order = await repeat(restarted, crashed);
      expect(order).toMatchObject({ supplier: { id: "duffel" } });
      expect(order.id).not.toBe(crashed.orderId);
      const [held] = duffelOrdersOf(fake, order.id);
      expect(duffelOrdersOf(fake, order.id)).toEqual([expect.objectContaining({ type: "hold", cancelled: false })]);
      expect(order.booking_reference).toBe(held!.id.slice(-6).toUpperCase());
      expect(await db.prisma.order.findMany({ where: { tenantId: tenant.tenantId, offerId: crashed.offer.id }, select: { id: true, status: true } })).toEqual([{ id: order.id, status: "PENDING" }]);
      const replayed = await createOrderA(restarted, tenant.key, crashed.offer, { idempotencyKey: crashed.key });
      expect({ status: replayed.status, id: replayed.body.data.id, replayed: replayed.headers.get("idempotent-replayed") }).toEqual({ status: 201, id: order.id, replayed: "true" });
    } finally {
      await restarted.close();
    }
  });

  it("a booking recorded whose Duffel order was never made (the process died before Duffel answered) leaves nothing to give back", async () => {
    const connectionId = (await db.prisma.supplierConnection.findFirstOrThrow({ where: { tenantId: tenant.tenantId } })).id;
    const orderId = "ord_neversentneversentneverse";
    await db.prisma.duffelBooking.create({ data: { id: orderId, tenantId: tenant.tenantId, idempotencyKey: orderId, connectionId, offerId: "off_0000neversent", status: "requested" } });
    await db.prisma.seatIntent.create({ data: { id: orderId, orderId, tenantId: tenant.tenantId, kind: "hold", lockedUntil: new Date(Date.now() - 60_000) } });
    const restarted = await startTestServer({ database: harness.database, env });
    try {
      await settled(orderId);
      expect(duffelOrdersOf(fake, orderId)).toEqual([]);
      expect(await db.prisma.duffelBooking.findUniqueOrThrow({ where: { id: orderId } })).toMatchObject({ status: "failed" });
    } finally {
      await restarted.close();
    }
  });

  it("a Duffel order's ticketing and refund, each killed after Duffel answered: the restarted servers pay Duffel once, and the wallet moves by Aerogate's fee once each way", async () => {
    const withFee = async (api: Endpoint & { ownerKey: string }) => {
      const rule = await call(api, "POST", "/v1/pricing_rules", {
        key: api.ownerKey,
        body: { tenant_id: tenant.tenantId, name: "Duffel fee", match: { supplier: "duffel" }, fee: { fixed_amount: "3.00", fixed_currency: "USD" }, refundable: true },
      });
      expect(rule.status, JSON.stringify(rule.body)).toBe(201);
    };
    const { order } = await ticketAndRefundAcrossKills(harness, fake, tenant.key, (booked) => ({ debit: toMinor(booked.fee_amount, booked.total_currency), credit: toMinor(booked.fee_amount, booked.total_currency) }), withFee);
    expect(toMinor(order.fee_amount, order.total_currency)).toBeGreaterThan(0);
  });
});
