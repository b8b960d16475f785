import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { call, graphql } from "../helpers/client";
import { deliverDuffelEvent, duffelEvent, changingRouteOffer, ticketedOnChangingRoute } from "../helpers/duffel-events";
import type { DuffelFake } from "../helpers/duffel-fake";
import { closeDuffelSuite, duffelOrdersOf, duffelTenant, expectLedgerOf, openDuffelSuite } from "../helpers/duffel-gateway";
import { eventually } from "../helpers/eventually";
import { eventTypes } from "../helpers/job-leases";
import { bookOffer, getOrder } from "../helpers/orders";
import type { TestServer } from "../helpers/test-server";

const SECRET = randomBytes(24).toString("base64url");

/** Duffel's signed `order.airline_initiated_change_detected` delivery of the change (a new event id each time, as Duffel's events have). */
const deliverChange = (server: TestServer, change: Record<string, unknown>) => deliverDuffelEvent(server, SECRET, duffelEvent("order.airline_initiated_change_detected", change));

const changesOf = async (server: TestServer, key: string, orderId: string): Promise<any[]> => (await getOrder(server, key, orderId)).body.data.airline_initiated_changes;

const departures = (slices: any[]) => slices.flatMap((slice) => slice.segments.map((segment: any) => segment.departing_at));

/**
 * Duffel's airline-initiated changes as Aerogate's (docs/duffel.md#airline-initiated-changes):
 * recorded once per Duffel change whichever of the webhook and the poll sees it, listed with the
 * order (REST and GraphQL) with our event, and accepted through our API at Duffel first, the
 * order taking the new flights once however many acceptances race.
 */
describe("Duffel's airline-initiated changes", { timeout: 120_000 }, () => {
  describe("told by Duffel's webhook (no poll)", () => {
    let fake: DuffelFake;
    let server: TestServer;
    let tenant: Awaited<ReturnType<typeof duffelTenant>>;

    beforeAll(async () => {
      ({ fake, server, tenant } = await openDuffelSuite({ DUFFEL_WEBHOOK_SECRET: SECRET, DUFFEL_CHANGES_POLL_MS: "0" }));
    });
    afterAll(() => closeDuffelSuite({ server, fake }));

    it("order.airline_initiated_change_detected records Duffel's change once as the order's, with one order.airline_initiated_change_detected, however many deliveries race", async () => {
      const { order, duffelOrderId } = await ticketedOnChangingRoute(server, fake, tenant.key);
      expect(await changesOf(server, tenant.key, order.id)).toEqual([]);
      const change = fake.airlineChangeOf(duffelOrderId)!;

      const deliveries = await Promise.all(Array.from({ length: 4 }, () => deliverChange(server, change)));
      expect(deliveries.map((delivery) => delivery.status)).toEqual([200, 200, 200, 200]);
      expect(deliveries.every((delivery) => delivery.body.data.acted)).toBe(true);
      const [recorded, ...others] = await changesOf(server, tenant.key, order.id);
      expect(others).toEqual([]);
      expect(recorded).toMatchObject({ order_id: order.id, action_taken: null, available_actions: ["accept", "cancel", "change"] });
      expect(recorded.id).not.toBe(change.id);
      expect(departures(recorded.removed)).toEqual(departures(order.slices));
      expect(departures(recorded.added)[0]).not.toBe(departures(order.slices)[0]);
      expect((await eventTypes(server, order.id)).filter((type) => type === "order.airline_initiated_change_detected")).toHaveLength(1);

      const listed = await graphql(server, "query ($id: ID!) { order(id: $id) { airlineInitiatedChanges { id actionTaken availableActions } } }", { id: order.id }, { key: tenant.key });
      expect(listed.body.data.order.airlineInitiatedChanges).toEqual([{ id: recorded.id, actionTaken: null, availableActions: ["ACCEPT", "CANCEL", "CHANGE"] }]);
    });

    it("accepting it through our API accepts it at Duffel and gives the order its new flights once, however many acceptances race; the wallet does not move", async () => {
      const { order, duffelOrderId } = await ticketedOnChangingRoute(server, fake, tenant.key);
      const change = fake.airlineChangeOf(duffelOrderId)!;
      expect((await deliverChange(server, change)).status).toBe(200);
      const [recorded] = await changesOf(server, tenant.key, order.id);
      const ledger = await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"]);

      const accepts = await Promise.all(Array.from({ length: 4 }, () => call(server, "POST", `/v1/air/airline_initiated_changes/${recorded.id}/actions/accept`, { key: tenant.key })));
      for (const accepted of accepts) {
        expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
        expect(accepted.body.data).toMatchObject({ id: recorded.id, action_taken: "accepted", available_actions: [] });
      }
      expect(change.action_taken).toBe("accepted");
      expect(fake.acceptsOfChange.get(change.id as string)).toBeGreaterThanOrEqual(1);
      const changed = (await getOrder(server, tenant.key, order.id)).body.data;
      expect(departures(changed.slices)).toEqual(departures(recorded.added));
      expect(changed.total_amount).toBe(order.total_amount);
      expect((await eventTypes(server, order.id)).filter((type) => type === "order.changed")).toHaveLength(1);
      expect(await expectLedgerOf(server, tenant.key, order.id, ["ticketing_debit"])).toBe(ledger);

      // A repeat answers the same; the change Duffel reports again is not recorded again.
      expect((await call(server, "POST", `/v1/air/airline_initiated_changes/${recorded.id}/actions/accept`, { key: tenant.key })).body.data.action_taken).toBe("accepted");
      expect((await deliverChange(server, change)).status).toBe(200);
      expect(await changesOf(server, tenant.key, order.id)).toHaveLength(1);
    });

    it("an event about a Duffel order none of ours names is answered acted: false, and no order of ours gains a change", async () => {
      const { order, duffelOrderId } = await ticketedOnChangingRoute(server, fake, tenant.key);
      const change = fake.airlineChangeOf(duffelOrderId)!;
      const other = { ...change, id: `aic_0000${randomBytes(6).toString("hex")}`, order_id: "ord_0000notours" };
      expect((await deliverChange(server, other)).body.data).toMatchObject({ acted: false });
      expect(await changesOf(server, tenant.key, order.id)).toEqual([]);
    });
  });

  describe("found by the poll (webhooks cannot reach us)", () => {
    let fake: DuffelFake;
    let server: TestServer;
    let tenant: Awaited<ReturnType<typeof duffelTenant>>;

    beforeAll(async () => {
      ({ fake, server, tenant } = await openDuffelSuite({ DUFFEL_WEBHOOK_SECRET: SECRET, DUFFEL_CHANGES_POLL_MS: "100" }));
    });
    afterAll(() => closeDuffelSuite({ server, fake }));

    it("the poll records the change of a ticketed order with its event; the webhook telling it too records nothing more", async () => {
      const { order, duffelOrderId } = await ticketedOnChangingRoute(server, fake, tenant.key);
      const [recorded] = await eventually(async () => {
        const changes = await changesOf(server, tenant.key, order.id);
        return changes.length > 0 ? changes : undefined;
      }, () => `no airline change of ${order.id} from the poll`);
      expect(recorded).toMatchObject({ action_taken: null, available_actions: ["accept", "cancel", "change"] });
      expect((await deliverChange(server, fake.airlineChangeOf(duffelOrderId)!)).status).toBe(200);
      // Several rounds of the poll later, still the one change and its one event.
      const asked = () => fake.requests.filter((request) => request.path.startsWith(`/air/airline_initiated_changes?order_id=${duffelOrderId}`)).length;
      const seen = asked();
      await eventually(async () => (asked() >= seen + 2 ? true : undefined), () => "the poll asked no more");
      expect(await changesOf(server, tenant.key, order.id)).toHaveLength(1);
      expect((await eventTypes(server, order.id)).filter((type) => type === "order.airline_initiated_change_detected")).toHaveLength(1);
    });

    it("a change accepted at Duffel directly (its dashboard) is accepted here by the poll: the order takes its new flights once", async () => {
      const { order, duffelOrderId } = await ticketedOnChangingRoute(server, fake, tenant.key);
      const [recorded] = await eventually(async () => {
        const changes = await changesOf(server, tenant.key, order.id);
        return changes.length > 0 ? changes : undefined;
      }, () => `no airline change of ${order.id} from the poll`);
      const atDuffel = await fetch(`${fake.url}/air/airline_initiated_changes/${fake.airlineChangeOf(duffelOrderId)!.id as string}/actions/accept`, {
        method: "POST",
        headers: { authorization: `Bearer ${tenant.token}`, "duffel-version": "v2" },
      });
      expect(atDuffel.status).toBe(200);
      const accepted = await eventually(async () => {
        const [change] = await changesOf(server, tenant.key, order.id);
        return change.action_taken === "accepted" ? change : undefined;
      }, () => `the change of ${order.id} accepted at Duffel is still open here`);
      expect(accepted.id).toBe(recorded.id);
      expect(departures((await getOrder(server, tenant.key, order.id)).body.data.slices)).toEqual(departures(recorded.added));
      expect((await eventTypes(server, order.id)).filter((type) => type === "order.changed")).toHaveLength(1);
    });

    it("the poll asks Duffel no airline changes of an order that is not ticketed (only whether it was cancelled)", async () => {
      const held = await bookOffer(server, tenant.key, await changingRouteOffer(server, tenant.key));
      const [atDuffel] = duffelOrdersOf(fake, held.id);
      // Another order's reads show the poll went round since the hold was booked.
      const { duffelOrderId: ticketed } = await ticketedOnChangingRoute(server, fake, tenant.key);
      const readsOf = (id: string) => fake.requests.filter((request) => request.path.startsWith(`/air/airline_initiated_changes?order_id=${id}`)).length;
      await eventually(async () => (readsOf(ticketed) >= 2 ? true : undefined), () => "the poll did not go round");
      expect(readsOf(atDuffel!.id)).toBe(0);
    });
  });
});
