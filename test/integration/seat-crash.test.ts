import { setTimeout as sleep } from "node:timers/promises";
import { describe, expect, it } from "vitest";
import type { PausePoint } from "../../src/test-pause";
import { call, createTenant, type ApiResponse, type Endpoint, type TenantFixture } from "../helpers/client";
import { crashHarness, inFlight } from "../helpers/crash-harness";
import { expectError } from "../helpers/expect-error";
import { pollUntil, waitUntilHealthy, type Launched, type Running } from "../helpers/main-process";
import { bookOffer, createOrderA, searchForBooking } from "../helpers/orders";
import { resumePaused, seatAccount, settledAccount, waitForPause } from "../helpers/seat-accounting";

/**
 * Seats survive the process dying inside either crash window: between the
 * airline's hold and the order's commit, and between a cancellation's commit and the seat
 * release. The real entry point runs as a child with AEROGATE_TEST_PAUSE_AT (test only), which
 * stops each request at that point and prints a marker; the test counts seats there (SeatHold
 * rows against committed orders), SIGKILLs the process, starts another on the same database, and
 * polls until every held seat is in a committed order that owns it and the rest are back on sale.
 * A booking stalled in a live process keeps its hold for its lease, then is settled and refused.
 * SQLite, or PostgreSQL under TEST_DATABASE_URL (where a dead process's intents wait out their lease).
 */

/** The seat lease (JOB_LEASE_SECONDS): long enough to watch a paused booking keep its hold, short enough to wait out. */
const LEASE_SECONDS = 4;

describe("seat holds across a SIGKILL inside each crash window", { timeout: 180_000 }, () => {
  const crash = crashHarness({ JOB_LEASE_SECONDS: String(LEASE_SECONDS) });
  const { kill } = crash;
  let tenant: TenantFixture;
  /** The process of the current step (each kill starts the next). */
  let current: Launched;
  /** A pending order, booked before the first kill, that the cancellation window cancels. */
  let toCancel: any;

  function launch(pauseAt?: PausePoint): Launched {
    current = crash.launch(pauseAt);
    return current;
  }

  /** A booking through a process that pauses after every airline hold: let go as soon as it pauses. */
  async function bookThroughPause(running: Running, api: Endpoint, offer: any, nth: number): Promise<ApiResponse> {
    const answer = later(createOrderA(api, tenant.key, offer));
    await waitForPause(running, "after_supplier_hold", nth);
    resumePaused(running);
    return answer;
  }

  /** An offer on flights no other booking of the suite flies. */
  async function freshOffer(): Promise<any> {
    return (await searchForBooking(current.api, tenant.key))[0];
  }

  /** Seats a booking of `offer` holds: one per flight for its one passenger. */
  const seatsOf = (offer: any): number => offer.slices.flatMap((slice: any) => slice.segments).length;

  /** A request whose answer is awaited later: a failure before then is not an unhandled rejection. */
  function later<T>(answer: Promise<T>): Promise<T> {
    answer.catch(() => undefined);
    return answer;
  }

  it("a booking stalled in a live process keeps its hold for its lease; then its seats go back on sale and the booking is refused, not committed without them", async () => {
    const { running, api } = launch("after_supplier_hold");
    await waitUntilHealthy(running);
    tenant = await createTenant(api, { environment: "sandbox" });
    const offer = await freshOffer();

    const answer = later(createOrderA(api, tenant.key, offer));
    const { orderId } = await waitForPause(running, "after_supplier_hold", 1);
    const pausedAt = Date.now();
    const during = await seatAccount(crash.database.url);
    expect(during.held.get(orderId!), "the airline holds the seats").toBe(seatsOf(offer));
    expect(during.orders.has(orderId!), "no order is committed").toBe(false);
    expect(during.intents.get(orderId!), "the intent was recorded before the airline was asked").toEqual({ kind: "hold", orderId });

    // Within the lease the booking is the live process's: its reconciler (polling every 50 ms) leaves the hold alone.
    await sleep(1000);
    const stillHeld = await seatAccount(crash.database.url);
    expect(Date.now() - pausedAt, "checked within the lease").toBeLessThan(LEASE_SECONDS * 1000);
    expect(stillHeld.held.get(orderId!)).toBe(seatsOf(offer));
    expect(stillHeld.intents.get(orderId!)).toEqual({ kind: "hold", orderId });

    // Past its lease the booking counts as abandoned: the reconciler gives the seats back.
    await pollUntil(running, "the stalled booking's seats released", async () => {
      const account = await seatAccount(crash.database.url);
      return account.held.has(orderId!) || account.intents.has(orderId!) ? undefined : true;
    });
    // Let go, the booking finds its fence gone and commits nothing.
    resumePaused(running);
    expectError(await answer, 503, "service_unavailable");
    const after = await seatAccount(crash.database.url);
    expect(after.orders.has(orderId!)).toBe(false);
    expect(after.leaked).toEqual([]);
    expect(after.intents.size).toBe(0);

    // Nothing was booked: the same offer books, and its order holds its seats.
    const retried = await bookThroughPause(running, api, offer, 2);
    expect(retried.status, JSON.stringify(retried.body)).toBe(201);
    const booked = await seatAccount(crash.database.url);
    expect(booked.held.get(retried.body.data.id)).toBe(seatsOf(offer));
    expect(booked.leaked).toEqual([]);
  });

  it("killed between the airline's hold and the order's commit: the next process puts the seats back on sale", async () => {
    const { running, api } = current;
    const cancelOffer = await freshOffer();
    const booked = await bookThroughPause(running, api, cancelOffer, 3);
    expect(booked.status, JSON.stringify(booked.body)).toBe(201);
    toCancel = { ...booked.body.data, seats: seatsOf(cancelOffer) };

    const offer = await freshOffer();
    const booking = inFlight(createOrderA(api, tenant.key, offer));
    const { orderId } = await waitForPause(running, "after_supplier_hold", 4);
    const before = await seatAccount(crash.database.url);
    expect(before.held.get(orderId!)).toBe(seatsOf(offer));
    expect(before.orders.has(orderId!)).toBe(false);
    expect(before.leaked).toEqual([orderId]);
    await kill(running, booking);

    // The next process pauses in the other window (the next test); bookings go straight through it.
    const next = launch("after_cancel_commit");
    await waitUntilHealthy(next.running);
    const settled = await settledAccount(next.running, crash.database.url);
    expect(settled.held.has(orderId!), "the uncommitted booking's seat is back on sale").toBe(false);
    expect(settled.orders.has(orderId!)).toBe(false);
    expect(settled.missing, "committed orders keep their seats").toEqual([]);
    expect(settled.held.get(toCancel.id)).toBe(toCancel.seats);
    // On sale again: the offer books now, and the order holds its seats.
    const order = await bookOffer(next.api, tenant.key, offer);
    expect((await seatAccount(crash.database.url)).held.get(order.id)).toBe(seatsOf(offer));
  });

  it("killed between a cancellation's commit and the seat release: the next process puts the seats back on sale", async () => {
    const { running, api } = current;
    const cancelling = inFlight(call(api, "POST", `/v1/air/orders/${toCancel.id}/actions/cancel`, { key: tenant.key }));
    const { orderId } = await waitForPause(running, "after_cancel_commit");
    expect(orderId).toBe(toCancel.id);
    const before = await seatAccount(crash.database.url);
    expect(before.orders.get(toCancel.id), "the cancellation is committed").toBe("CANCELED");
    expect(before.held.get(toCancel.id), "its seats are still held").toBe(toCancel.seats);
    expect(before.intents.get(toCancel.id), "the release is owed").toEqual({ kind: "release", orderId: toCancel.id });
    expect(before.leaked).toEqual([toCancel.id]);
    await kill(running, cancelling);

    const next = launch();
    await waitUntilHealthy(next.running);
    const settled = await settledAccount(next.running, crash.database.url);
    expect(settled.held.has(toCancel.id)).toBe(false);
    expect(settled.missing).toEqual([]);
    // Only the committed orders that own seats (all pending here) hold any.
    const owning = [...settled.orders].filter(([, status]) => status === "PENDING").map(([id]) => id).sort();
    expect([...settled.held.keys()].sort()).toEqual(owning);
    const read = await call(next.api, "GET", `/v1/air/orders/${toCancel.id}`, { key: tenant.key });
    expect(read.body.data.status).toBe("cancelled");
  });
});
