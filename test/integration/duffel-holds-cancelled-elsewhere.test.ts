import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { clock, setClock } from "../../src/clock";
import { call, createTenant } from "../helpers/client";
import { fakeToken } from "../helpers/duffel";
import { cancelAtDuffel, deliverDuffelEvent, duffelEvent } from "../helpers/duffel-events";
import type { DuffelFake } from "../helpers/duffel-fake";
import { closeDuffelSuite, duffelOffer, duffelOrdersOf, duffelTenant, expectLedgerOf, openDuffelSuite, WITH_DUFFEL } from "../helpers/duffel-gateway";
import { toMinor } from "../helpers/flight-checks";
import { getWallet } from "../helpers/wallet";
import { eventually } from "../helpers/eventually";
import { expectError } from "../helpers/expect-error";
import { eventTypes } from "../helpers/job-leases";
import { bookOffer, getOrder, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

const SECRET = randomBytes(24).toString("base64url");

/** Duffel's requests for one of its orders (`GET /air/orders/:id`). */
const readsOf = (fake: DuffelFake, duffelOrderId: string) => fake.requests.filter((request) => request.method === "GET" && request.path === `/air/orders/${duffelOrderId}`).length;

/**
 * A Duffel hold (unpaid) cancelled outside Aerogate is cancelled here as the cancel action would
 * cancel it (docs/duffel.md#cancelled-at-duffel), learnt from Duffel's webhook or, for a
 * connection whose webhooks cannot reach us, from the background poll.
 */
describe("Duffel holds cancelled at Duffel", { timeout: 120_000 }, () => {
  describe("learnt from Duffel's webhook", () => {
    let fake: DuffelFake;
    let server: TestServer;
    let tenant: Awaited<ReturnType<typeof duffelTenant>>;

    let platformToken: string;

    beforeAll(async () => {
      ({ fake, server, tenant } = await openDuffelSuite({ DUFFEL_WEBHOOK_SECRET: SECRET, DUFFEL_CHANGES_POLL_MS: "0" }));
      platformToken = fakeToken(fake);
      const created = await call(server, "POST", "/v1/platform_accounts", { key: server.ownerKey, body: { supplier: "duffel", access_token: platformToken } });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
    });
    afterAll(() => closeDuffelSuite({ server, fake }));

    /** A PENDING hold (AA: holdable), Duffel's order id, its confirmed cancellation at Duffel, and the wallet's balance before it. */
    async function cancelledHold() {
      const before = (await walletBalance(server, tenant.key)).minor;
      const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
      expect(order.status).toBe("pending");
      const duffelOrderId = duffelOrdersOf(fake, order.id)[0]!.id;
      const cancellation = await cancelAtDuffel(fake, tenant.token, duffelOrderId);
      return { order, duffelOrderId, cancellation, before };
    }

    it("an unpaid hold Duffel cancelled becomes CANCELED (airline_cancelled) with one order.cancelled; paying it then is 409 and moves no money", async () => {
      const { order, cancellation, before } = await cancelledHold();
      const delivered = await deliverDuffelEvent(server, SECRET, duffelEvent("order_cancellation.confirmed", cancellation));
      expect(delivered.status).toBe(200);
      const read = (await waitForStatus(server, tenant.key, order.id, ["CANCELED"])).body.data;
      expect(read.cancellation_reason).toBe("airline_cancelled");
      expect((await eventTypes(server, order.id)).filter((type) => type === "order.cancelled")).toHaveLength(1);

      expectError(await ticketOrder(server, tenant.key, order.id), 409, "order_state_conflict");
      expect(await expectLedgerOf(server, tenant.key, order.id, [])).toBe(before);
      // Nothing was paid at Duffel either.
      expect(fake.requests.filter((request) => request.method === "POST" && request.path === "/air/payments")).toHaveLength(0);

      // Duffel repeating the event changes nothing.
      expect((await deliverDuffelEvent(server, SECRET, duffelEvent("order_cancellation.confirmed", cancellation))).status).toBe(200);
      expect((await eventTypes(server, order.id)).filter((type) => type === "order.cancelled")).toHaveLength(1);
    });

    it("a wallet-settled hold of the owner's platform account cancelled at Duffel frees exactly what it reserved of the wallet, and debits nothing", async () => {
      const platformTenant = await createTenant(server);
      expect((await call(server, "PATCH", "/v1/tenant", { key: platformTenant.key, body: { suppliers: WITH_DUFFEL } })).status).toBe(200);
      expect((await call(server, "PATCH", `/v1/tenants/${platformTenant.tenantId}`, { key: server.ownerKey, body: { platform_accounts: ["duffel"] } })).status).toBe(200);
      const before = await getWallet(server, platformTenant.key);
      const order = await bookOffer(server, platformTenant.key, await duffelOffer(server, platformTenant.key, "AA"));
      expect(order.settlement).toBe("wallet");
      const held = await getWallet(server, platformTenant.key);
      expect(toMinor(held.reserved, held.currency) - toMinor(before.reserved, before.currency)).toBe(toMinor(order.total_amount, order.total_currency));

      const cancellation = await cancelAtDuffel(fake, platformToken, duffelOrdersOf(fake, order.id)[0]!.id);
      expect((await deliverDuffelEvent(server, SECRET, duffelEvent("order_cancellation.confirmed", cancellation))).status).toBe(200);
      expect((await waitForStatus(server, platformTenant.key, order.id, ["CANCELED"])).body.data.cancellation_reason).toBe("airline_cancelled");
      const after = await getWallet(server, platformTenant.key);
      expect({ balance: after.balance, reserved: after.reserved, available: after.available }).toEqual({ balance: before.balance, reserved: before.reserved, available: before.available });
      expect(await expectLedgerOf(server, platformTenant.key, order.id, [])).toBe(toMinor(before.balance, before.currency));
    });

    it("four racing deliveries and the tenant's own cancel cancel the hold once: one order.cancelled, no money moved", async () => {
      const { order, duffelOrderId, cancellation, before } = await cancelledHold();
      const [own, ...deliveries] = await Promise.all([
        call(server, "POST", `/v1/air/orders/${order.id}/actions/cancel`, { key: tenant.key }),
        ...Array.from({ length: 3 }, () => deliverDuffelEvent(server, SECRET, duffelEvent("order_cancellation.confirmed", cancellation))),
        deliverDuffelEvent(server, SECRET, duffelEvent("order.updated", { id: duffelOrderId, cancelled_at: clock.now().toISOString(), metadata: { aerogate_order_id: order.id } })),
      ]);
      expect([200, 409]).toContain(own.status);
      expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200, 200]);
      const read = (await waitForStatus(server, tenant.key, order.id, ["CANCELED"])).body.data;
      expect(["requested", "airline_cancelled"]).toContain(read.cancellation_reason);
      // The tenant's cancel answers 200 only when it was the one that cancelled.
      expect(read.cancellation_reason === "requested").toBe(own.status === 200);
      expect((await eventTypes(server, order.id)).filter((type) => type === "order.cancelled")).toHaveLength(1);
      expect(await expectLedgerOf(server, tenant.key, order.id, [])).toBe(before);
    });

    it("paying a hold Duffel cancelled unseen (no webhook yet) is 409 before any money moves, and cancels it here", async () => {
      const { order, duffelOrderId, cancellation, before } = await cancelledHold();
      expectError(await ticketOrder(server, tenant.key, order.id), 409, "order_state_conflict");
      const read = (await waitForStatus(server, tenant.key, order.id, ["CANCELED"])).body.data;
      expect(read.cancellation_reason).toBe("airline_cancelled");
      expect(await expectLedgerOf(server, tenant.key, order.id, [])).toBe(before);
      expect(fake.requests.filter((request) => request.method === "POST" && request.path === "/air/payments" && JSON.stringify(request.body).includes(duffelOrderId))).toHaveLength(0);
      // Duffel's webhook arriving late changes nothing.
      expect((await deliverDuffelEvent(server, SECRET, duffelEvent("order_cancellation.confirmed", cancellation))).status).toBe(200);
      expect((await eventTypes(server, order.id)).filter((type) => type === "order.cancelled")).toHaveLength(1);
    });
  });

  describe("while the hold's ticketing is under way", () => {
    let fake: DuffelFake;
    let server: TestServer;
    let tenant: Awaited<ReturnType<typeof duffelTenant>>;

    // The airline's work waits 10 minutes: the ticketing job runs only when Duffel's webhook wakes it.
    beforeAll(async () => {
      ({ fake, server, tenant } = await openDuffelSuite({ DUFFEL_WEBHOOK_SECRET: SECRET, DUFFEL_CHANGES_POLL_MS: "0", TICKETING_DELAY_MS: "600000" }));
    });
    afterAll(() => closeDuffelSuite({ server, fake }));

    it("a hold paid here before Duffel's cancellation is read is left to its ticketing, which pays Duffel nothing and fails it: the debit given back, no order.cancelled", async () => {
      const before = (await walletBalance(server, tenant.key)).minor;
      const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
      const duffelOrderId = duffelOrdersOf(fake, order.id)[0]!.id;
      expect((await ticketOrder(server, tenant.key, order.id)).status).toBe(200);
      expect((await getOrder(server, tenant.key, order.id)).body.order.status).toBe("PROCESSING");
      await cancelAtDuffel(fake, tenant.token, duffelOrderId);

      const delivered = await deliverDuffelEvent(server, SECRET, duffelEvent("order.updated", { id: duffelOrderId, cancelled_at: clock.now().toISOString(), metadata: { aerogate_order_id: order.id } }));
      expect(delivered.status).toBe(200);
      await waitForStatus(server, tenant.key, order.id, ["FAILED"]);
      expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit", "ticketing_reversal"])).toBe(before);
      expect(fake.requests.filter((request) => request.method === "POST" && request.path === "/air/payments" && JSON.stringify(request.body).includes(duffelOrderId))).toHaveLength(0);
      expect(await eventTypes(server, order.id)).not.toContain("order.cancelled");
    });
  });

  describe("learnt from the poll, for a connection whose webhooks cannot reach us", () => {
    let fake: DuffelFake;
    let server: TestServer;
    let tenant: Awaited<ReturnType<typeof duffelTenant>>;

    beforeAll(async () => {
      ({ fake, server, tenant } = await openDuffelSuite({ DUFFEL_CHANGES_POLL_MS: "100" }));
    });
    afterAll(async () => {
      setClock(new Date(Date.now()));
      await closeDuffelSuite({ server, fake });
    });

    it("an unpaid hold Duffel cancelled is cancelled here by the poll, once, with no webhook", async () => {
      const before = (await walletBalance(server, tenant.key)).minor;
      const order = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
      await cancelAtDuffel(fake, tenant.token, duffelOrdersOf(fake, order.id)[0]!.id);
      const read = (await waitForStatus(server, tenant.key, order.id, ["CANCELED"], 30_000)).body.data;
      expect(read.cancellation_reason).toBe("airline_cancelled");
      expect((await eventTypes(server, order.id)).filter((type) => type === "order.cancelled")).toHaveLength(1);
      expect(await expectLedgerOf(server, tenant.key, order.id, [])).toBe(before);
    });

    it("the poll reads only orders not yet departed: a departed ticketed order Duffel cancelled is not read, and stays TICKETED", async () => {
      const ticketed = async () => {
        const booked = await bookOffer(server, tenant.key, await duffelOffer(server, tenant.key, "AA"));
        expect((await ticketOrder(server, tenant.key, booked.id)).status).toBe(200);
        return (await waitForStatus(server, tenant.key, booked.id, ["TICKETED"])).body.data;
      };
      const departed = await ticketed();
      const later = await ticketed();
      const departsAt = (order: any) => Date.parse(`${order.slices[0].segments[0].departing_at}Z`);
      // Local times of the same airport: far enough apart whatever its offset from UTC.
      expect(departsAt(later) - departsAt(departed)).toBeGreaterThan(6 * 3_600_000);
      const [departedAtDuffel, laterAtDuffel] = [departed, later].map((order) => duffelOrdersOf(fake, order.id)[0]!.id as string);
      await cancelAtDuffel(fake, tenant.token, departedAtDuffel!);
      // The first has left, the second not (a London departure is at most an hour before its local time read as UTC).
      setClock(new Date(departsAt(departed) + 3 * 3_600_000));

      // The later order is read every round; from the first round seen after the clock moved, the departed one is read no more.
      const laterReads = async (more: number) => {
        const from = readsOf(fake, laterAtDuffel!);
        await eventually(async () => (readsOf(fake, laterAtDuffel!) >= from + more ? true : undefined), () => "the poll ran no further round", 30_000);
      };
      await laterReads(1);
      const departedReads = readsOf(fake, departedAtDuffel!);
      await laterReads(2);
      expect(readsOf(fake, departedAtDuffel!)).toBe(departedReads);
      const read = await getOrder(server, tenant.key, departed.id);
      expect(read.body.order.status).toBe("TICKETED");
      expect(read.body.data.refund_status).toBeNull();
      expect((await getOrder(server, tenant.key, later.id)).body.order.status).toBe("TICKETED");
    });
  });
});
