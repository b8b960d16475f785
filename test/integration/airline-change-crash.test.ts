import { describe, expect, it } from "vitest";
import type { PausePoint } from "../../src/test-pause";
import { call, createTenant, type ApiResponse, type Endpoint, type TenantFixture } from "../helpers/client";
import { crashHarness } from "../helpers/crash-harness";
import { minorDigits, toMinor } from "../helpers/flight-checks";
import { waitUntilHealthy, type Launched } from "../helpers/main-process";
import { allTransactions, createOrderA, getOrder, searchForBooking, signedMinor, ticketOrder, waitForStatus, walletBalance } from "../helpers/orders";
import { seatForSale, seatMaps } from "../helpers/seat-maps";

/**
 * Accepting an airline-initiated change survives the process dying on either side of its commit
 * (docs/rest-api.md#airline-initiated-changes): the real entry point runs as a child that stops the acceptance there
 * (AEROGATE_TEST_PAUSE_AT) and is SIGKILLed. The order's flight was cancelled and it had a paid
 * seat on it. Killed before the commit (the airline already holding seats on the replacement),
 * nothing changed once the seat reconciler has cancelled that exchange: the old flight, its
 * seats, the wallet. Killed after (the airline not yet told to release the cancelled flight), the
 * acceptance stands whole once the reconciler has completed the exchange: the replacement flight
 * and its seats, the seat's price credited once; accepting again answers the same and moves
 * nothing. SQLite, or PostgreSQL under TEST_DATABASE_URL (where the killed request's intent lease,
 * JOB_LEASE_SECONDS, runs out first).
 */

describe("airline-initiated change acceptance across a SIGKILL", { timeout: 240_000 }, () => {
  const crash = crashHarness({ TICKETING_DELAY_MS: "100", JOB_LEASE_SECONDS: "2" });
  const { launch } = crash;
  let tenant: TenantFixture;
  let order: any;
  let change: any;
  let seatPrice: number;
  let balanceBefore: number;

  function accept(api: Endpoint): Promise<ApiResponse> {
    return call(api, "POST", `/v1/air/airline_initiated_changes/${change.id}/actions/accept`, { key: tenant.key });
  }

  /** Accepts the change through a process that pauses at `point`, and SIGKILLs it there. */
  async function acceptAndKillAt({ running, api }: Launched, point: PausePoint): Promise<void> {
    expect(await crash.killAt(running, point, accept(api))).toEqual({ orderId: order.id, airlineInitiatedChangeId: change.id });
  }

  async function creditsOf(api: Endpoint): Promise<number[]> {
    return (await allTransactions(api, tenant.key)).filter((entry) => entry.reference === change.id).map((entry) => signedMinor(entry.amount, entry.currency));
  }

  /** A ticketed order of a direct flight with a paid seat on it (the first offer with one). */
  async function ticketedWithSeat(api: Endpoint): Promise<any> {
    for (let attempt = 0; attempt < 20; attempt++) {
      const offer = (await searchForBooking(api, tenant.key)).find((candidate) => candidate.slices[0].segments.length === 1);
      if (!offer) continue;
      const [map] = await seatMaps(api, tenant.key, `offer_id=${offer.id}`);
      const seat = seatForSale(map);
      seatPrice = toMinor(seat.service.total_amount, seat.service.total_currency);
      if (seatPrice === 0) continue;
      const digits = minorDigits(offer.total_currency);
      const amount = ((toMinor(offer.total_amount, offer.total_currency) + seatPrice) / 10 ** digits).toFixed(digits);
      const booked = await createOrderA(api, tenant.key, offer, { body: { services: [{ id: seat.service.id, quantity: 1 }], payments: [{ type: "balance", currency: offer.total_currency, amount }] } });
      expect(booked.status, JSON.stringify(booked.body).slice(0, 300)).toBe(201);
      expect((await ticketOrder(api, tenant.key, booked.body.data.id)).status).toBe(200);
      return (await waitForStatus(api, tenant.key, booked.body.data.id, ["TICKETED"], 30_000)).body.data;
    }
    throw new Error("no direct offer with a paid seat");
  }

  it("killed just before an acceptance commits, a new process finds nothing changed", async () => {
    const first = launch("before_airline_change_commit");
    await waitUntilHealthy(first.running);
    tenant = await createTenant(first.api, { environment: "sandbox" });
    order = await ticketedWithSeat(first.api);
    const made = await call(first.api, "POST", `/v1/sandbox/orders/${order.id}/airline_initiated_change`, { key: tenant.key, body: { kind: "cancel_flight" } });
    expect(made.status, JSON.stringify(made.body).slice(0, 300)).toBe(201);
    change = made.body.data;
    expect(change.added).toHaveLength(1);
    balanceBefore = (await walletBalance(first.api, tenant.key)).minor;
    await acceptAndKillAt(first, "before_airline_change_commit");

    const second = launch("after_airline_change_commit");
    await waitUntilHealthy(second.running);
    const unchanged = (await getOrder(second.api, tenant.key, order.id)).body.data;
    expect({ slices: unchanged.slices, services: unchanged.services, total_amount: unchanged.total_amount }).toEqual({ slices: order.slices, services: order.services, total_amount: order.total_amount });
    expect(unchanged.airline_initiated_changes).toEqual([change]);
    expect(await creditsOf(second.api)).toEqual([]);
    expect((await walletBalance(second.api, tenant.key)).minor).toBe(balanceBefore);
    await crash.expectSeatsHeld(second.running, order.id, order.slices);

    // Accepting again commits this time; the process is killed right after.
    await acceptAndKillAt(second, "after_airline_change_commit");
  });

  it("killed just after the commit, the acceptance stands whole: the new flight, its seats, the seat's price credited once", async () => {
    const { running, api } = launch();
    await waitUntilHealthy(running);
    const accepted = (await getOrder(api, tenant.key, order.id)).body.data;
    expect(accepted.slices).toEqual(change.added);
    expect(accepted.services.filter((service: any) => service.type === "seat")).toEqual([]);
    expect(accepted.airline_initiated_changes[0]).toMatchObject({ id: change.id, action_taken: "accepted" });
    await crash.expectSeatsHeld(running, order.id, change.added);
    expect(await creditsOf(api)).toEqual([seatPrice]);
    const wallet = await walletBalance(api, tenant.key);
    expect(wallet.minor).toBe(balanceBefore + seatPrice);
    expect((await allTransactions(api, tenant.key)).reduce((sum, entry) => sum + signedMinor(entry.amount, entry.currency), 0), "the ledger explains the balance").toBe(wallet.minor);

    const again = await accept(api);
    expect(again.status).toBe(200);
    expect(again.body.data).toEqual(accepted.airline_initiated_changes[0]);
    expect(await creditsOf(api)).toEqual([seatPrice]);
    expect((await walletBalance(api, tenant.key)).minor).toBe(wallet.minor);
  });
});
