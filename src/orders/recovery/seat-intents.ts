import type { Database } from "../../db/database";
import { claimLeased, leaseEnd, releaseAllLeases, sameLease } from "../../db/leases";
import { sqlEnum } from "../../db/sql-enum";
import { dateFrom, sqlTimestamp } from "../../db/sql-values";
import { guarded, writeBatch, type GuardedStatement } from "../../db/write-batch";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { clock } from "../../clock";

export type SeatIntentKind = "hold" | "release";

/**
 * Names the guard of a booking's commit in `GuardFailed`: the booking's hold intent no longer
 * holds the lease it was written with, so the seat reconciler took it over (the booking outlived
 * its lease) and gives the seats back. The order must not be written.
 */
export const SEAT_INTENT_GUARD = "seat_intent";

/** A booking's hold intent as written: the order it is for and the lease (its token) it holds. */
export interface HoldIntent {
  orderId: string;
  lease: Date;
}

/** An intent the reconciler claimed: its lease is over, so its work is the reconciler's now. */
export interface ClaimedSeatIntent {
  orderId: string;
  tenantId: string;
  kind: SeatIntentKind;
  createdAt: Date;
}

/**
 * The durable record of seat work asked of the airline (SeatIntent rows), written before the
 * airline is asked, the way booking systems keep a crash from leaking what they asked for:
 *
 * - Booking: `beginHold` writes a `hold` intent leased to this process before the airline holds
 *   the seats (the booking path's one extra write); `holdCommitted` deletes it inside the order's
 *   own commit, fenced on the lease. So a hold intent exists exactly while no order was
 *   committed for the hold: a process that died between the hold and the commit leaves it.
 * - Cancelling: `releaseOwed` writes a `release` intent inside the cancellation's commit, and
 *   `released` deletes it once the airline has the seats back: a process that died between the
 *   commit and the release leaves it.
 *
 * The seat reconciler (seat-recovery.ts) claims intents whose lease is over, releases their
 * seats and deletes them. A claim sets a new lease, so a booking that outlived its lease (a
 * stalled process) finds its fence gone and does not commit an order without seats.
 */
export class SeatIntents {
  constructor(
    private readonly db: Database,
    /** How long the process that wrote an intent has to see its work through (JOB_LEASE_SECONDS). */
    readonly leaseMs: number,
  ) {}

  /** Records, durably, that seats are about to be held for the order; leased to this process. */
  async beginHold(order: { id: string; tenantId: string }, at: Date): Promise<HoldIntent> {
    const lease = leaseEnd({ now: at, leaseMs: this.leaseMs });
    const insert = this.insert([order], "hold", lease, at);
    // One statement: on PostgreSQL it commits on its own, one round trip instead of a transaction's three.
    if (this.db.sqlite) await writeBatch(this.db, [insert]);
    else await this.db.prisma.$executeRaw(insert);
    return { orderId: order.id, lease };
  }

  /** For the order's commit batch: the hold is the order's now. Fails the batch if the reconciler took the intent over. */
  holdCommitted(intent: HoldIntent): GuardedStatement {
    return guarded(Sql.sql`DELETE FROM "SeatIntent" WHERE "id" = ${intent.orderId} AND ${sameLease(this.db.provider, intent.lease)}`, SEAT_INTENT_GUARD);
  }

  /** For the batch that gives an order's seats back (a cancellation): the release is owed from its commit on. */
  releaseOwed(order: { id: string; tenantId: string }, at: Date): Sql.Sql {
    return this.releaseOwedAll([order], at);
  }

  /** `releaseOwed` for several orders in one statement. */
  releaseOwedAll(orders: ReadonlyArray<{ id: string; tenantId: string }>, at: Date): Sql.Sql {
    return this.insert(orders, "release", leaseEnd({ now: at, leaseMs: this.leaseMs }), at);
  }

  /** The airline has the orders' seats back (or never held them): nothing is owed for them any more. */
  async released(...orderIds: string[]): Promise<void> {
    if (orderIds.length === 0) return;
    await writeBatch(this.db, [Sql.sql`DELETE FROM "SeatIntent" WHERE "id" IN (${Sql.join(orderIds)})`]);
  }

  /** Claims up to `limit` intents whose lease is over, oldest first, each leased to the caller anew. */
  async claimAbandoned(limit: number): Promise<ClaimedSeatIntent[]> {
    const now = clock.now();
    const rows = await claimLeased<{ id: string; tenantId: string; kind: SeatIntentKind; createdAt: unknown }>(this.db, {
      table: "SeatIntent",
      due: Sql.sql`1 = 1`,
      orderBy: Sql.sql`"candidate"."createdAt"`,
      limit,
      now,
      leaseMs: this.leaseMs,
      returning: Sql.sql`"id", "tenantId", "kind", "createdAt"`,
    });
    return rows.map((row) => ({ orderId: row.id, tenantId: row.tenantId, kind: row.kind, createdAt: dateFrom(row.createdAt) }));
  }

  /** Ends every lease: for SQLite at start (see `releaseAllLeases`), so a dead predecessor's intents are settled at once. */
  releaseAllLeases(): Promise<void> {
    return releaseAllLeases(this.db, "SeatIntent");
  }

  /** An intent for each order; one left over for an order (none should be) becomes this one. */
  private insert(orders: ReadonlyArray<{ id: string; tenantId: string }>, kind: SeatIntentKind, lease: Date, at: Date): Sql.Sql {
    const { provider } = this.db;
    const [kindValue, leaseValue, atValue] = [sqlEnum(provider, "SeatIntentKind", kind), sqlTimestamp(provider, lease), sqlTimestamp(provider, at)];
    return Sql.sql`INSERT INTO "SeatIntent" ("id", "tenantId", "kind", "lockedUntil", "createdAt")
      VALUES ${Sql.join(orders.map((order) => Sql.sql`(${order.id}, ${order.tenantId}, ${kindValue}, ${leaseValue}, ${atValue})`))}
      ON CONFLICT ("id") DO UPDATE SET "kind" = excluded."kind", "lockedUntil" = excluded."lockedUntil"`;
  }
}
