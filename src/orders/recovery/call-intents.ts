import { setTimeout as sleep } from "node:timers/promises";
import type { Database } from "../../db/database";
import { claimLeased, leaseEnd, releaseAllLeases, sameLease } from "../../db/leases";
import { sqlEnum } from "../../db/sql-enum";
import { dateFrom, jsonFrom, sqlJson, sqlTimestamp } from "../../db/sql-values";
import { GuardFailed, guarded, writeBatch, type GuardedStatement } from "../../db/write-batch";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { clock } from "../../clock";
import type { BookingRef } from "../../gateway/contract/bookings";

/**
 * What an intent says is owed at the order's supplier, for any supplier's state-changing call.
 * Before the order's commit: `hold` (a booking made), `sale` (seats sold after booking),
 * `exchange` (a change's new flights held): the call may have happened, and is undone if the
 * commit never comes. After it: `release` (a cancelled booking given back), `exchanged` (the
 * flights a committed change left): the commit happened, and the call that finishes it is owed.
 * (The names, and the table's, are the simulated airline's words for them, kept as stored.)
 */
export type IntentKind = "hold" | "release" | "sale" | "exchange" | "exchanged";

/** The intents written before the supplier is asked, each settled by the order's commit. */
export type CallKind = Extract<IntentKind, "hold" | "sale" | "exchange">;
const CALL_KINDS: readonly CallKind[] = ["hold", "sale", "exchange"];

/**
 * Names the guard of an order's commit in `GuardFailed`: the intent of the supplier call it
 * commits no longer holds the lease it was written with, so the reconciler took it over (the
 * request outlived its lease) and undoes the call. The order must not be written.
 */
export const CALL_INTENT_GUARD = "call_intent";

/** An intent as written before its supplier call: the call's key, its booking, and the lease (its token) it holds. */
export interface IntentCall {
  id: string;
  kind: CallKind;
  /** The order the call is for (its id, tenant and environment). */
  booking: BookingRef;
  lease: Date;
  /** An exchange's flights the booking leaves (empty for other kinds). */
  release: readonly string[];
}

/** An intent the reconciler claimed: its lease is over, so its work is the reconciler's now. */
export interface ClaimedIntent {
  id: string;
  orderId: string;
  tenantId: string;
  kind: IntentKind;
  /** An exchange's flights the booking leaves (empty for other kinds). */
  release: string[];
  /** What a call that cannot be undone commits once made (`CallSubject.commits`); null for the others. */
  commits: unknown;
  createdAt: Date;
}

/** What an intent names: the call's key at the supplier (the order's id for a booking or release) and its order. */
export interface CallSubject {
  id: string;
  booking: BookingRef;
  /** An exchange's flights the booking leaves: released once the exchange is the order's. */
  release?: readonly string[];
  /**
   * For a call the supplier cannot undo (a sale paid at the supplier): what the order's commit
   * writes, kept with the intent so that the reconciler commits it (rolls forward) once the call
   * was made and its commit lost. Stored in the intent's JSON column, which an exchange's
   * `release` uses otherwise.
   */
  commits?: object;
}

/** How often a request waits to see whether a racing request's call on the same key was seen through. */
const TURN_POLL_MS = 25;

/**
 * The durable record of every supplier's state-changing calls (SeatIntent rows), written before
 * the supplier is asked, so that a crash never leaks what was asked for (docs/supplier-contract.md):
 *
 * - A call made before an order's commit (a booking's `hold`, a `sale` of seats after booking, a
 *   change's `exchange`): `begin` writes the intent leased to this process before the supplier
 *   is asked; `committed` settles it inside the order's own commit, fenced on the lease (a hold
 *   or sale is then the order's and the intent goes; an exchange becomes `exchanged`, whose
 *   release of the flights left is owed). So such an intent exists exactly while no order was
 *   committed for the call: a process that died between the call and the commit leaves it.
 * - A call owed from a commit on (a cancellation's `release`, a change's `exchanged`): written
 *   in the commit, deleted by `settled` once the supplier has done it.
 *
 * The reconciler (intent-reconciler.ts) claims intents whose lease is over and undoes or finishes
 * their call. A claim sets a new lease, so a request that outlived its lease (a stalled process)
 * finds its fence gone and does not commit an order the supplier disagrees with.
 */
export class CallIntents {
  constructor(
    private readonly db: Database,
    /** How long the process that wrote an intent has to see its work through (JOB_LEASE_SECONDS). */
    readonly leaseMs: number,
  ) {}

  /**
   * Records, durably, that the supplier is about to be asked for `kind` on `subject`, leased to
   * this process; null when an intent of that key is there already (a racing request's, for
   * the same change): `awaitTurn`, then read again what it did.
   */
  async begin(kind: CallKind, subject: CallSubject): Promise<IntentCall | null> {
    const at = clock.now();
    const lease = leaseEnd({ now: at, leaseMs: this.leaseMs });
    const { provider } = this.db;
    const insert = Sql.sql`INSERT INTO "SeatIntent" ("id", "orderId", "tenantId", "kind", "release", "lockedUntil", "createdAt")
      VALUES (${subject.id}, ${subject.booking.id}, ${subject.booking.tenantId}, ${sqlEnum(provider, "SeatIntentKind", kind)}, ${storedJson(provider, subject)},
        ${sqlTimestamp(provider, lease)}, ${sqlTimestamp(provider, at)})
      ON CONFLICT ("id") DO NOTHING`;
    // One statement: on PostgreSQL it commits on its own, one round trip instead of a transaction's three.
    const written = this.db.sqlite ? (await writeBatch(this.db, [insert]))[0]! : await this.db.prisma.$executeRaw(insert);
    return written === 0 ? null : { id: subject.id, kind, booking: subject.booking, lease, release: subject.release ?? [] };
  }

  /**
   * Waits until the intent `id` (a racing request's) is no longer before its commit: committed
   * or undone (by its request, or by the reconciler once its lease ran out). False when it still
   * is after two leases (the reconciler is not keeping up).
   */
  async awaitTurn(id: string): Promise<boolean> {
    const deadline = clock.nowMs() + 2 * this.leaseMs;
    while (clock.nowMs() < deadline) {
      if ((await this.db.prisma.seatIntent.count({ where: { id, kind: { in: [...CALL_KINDS] } } })) === 0) return true;
      await sleep(TURN_POLL_MS);
    }
    return false;
  }

  /**
   * For the order's commit batch: the call is the order's now (an exchange's release of the
   * flights left becomes owed). Fails the batch if the reconciler took the intent over.
   */
  committed(call: IntentCall): GuardedStatement {
    const fence = sameLease(this.db.provider, call.lease);
    if (call.kind === "exchange") {
      return guarded(Sql.sql`UPDATE "SeatIntent" SET "kind" = ${sqlEnum(this.db.provider, "SeatIntentKind", "exchanged")} WHERE "id" = ${call.id} AND ${fence}`, CALL_INTENT_GUARD);
    }
    return guarded(Sql.sql`DELETE FROM "SeatIntent" WHERE "id" = ${call.id} AND ${fence}`, CALL_INTENT_GUARD);
  }

  /** For the batch the reconciler commits for a claimed intent (a sale it rolls forward): the intent goes with it. */
  settledIn(id: string): GuardedStatement {
    return guarded(Sql.sql`DELETE FROM "SeatIntent" WHERE "id" = ${id}`, CALL_INTENT_GUARD);
  }

  /** Whether `error` (from an order's commit) says the reconciler took the call's intent over. */
  static tookOver(error: unknown): boolean {
    return error instanceof GuardFailed && error.guard === CALL_INTENT_GUARD;
  }

  /** For the batch that gives an order's booking back (a cancellation): the release is owed from its commit on. */
  releaseOwed(order: { id: string; tenantId: string }): Sql.Sql {
    return this.releaseOwedAll([order]);
  }

  /** `releaseOwed` for several orders in one statement; one left over for an order (none should be) becomes this one. */
  releaseOwedAll(orders: ReadonlyArray<{ id: string; tenantId: string }>): Sql.Sql {
    const { provider } = this.db;
    const at = clock.now();
    const [kindValue, leaseValue, atValue] = [sqlEnum(provider, "SeatIntentKind", "release"), sqlTimestamp(provider, leaseEnd({ now: at, leaseMs: this.leaseMs })), sqlTimestamp(provider, at)];
    return Sql.sql`INSERT INTO "SeatIntent" ("id", "orderId", "tenantId", "kind", "lockedUntil", "createdAt")
      VALUES ${Sql.join(orders.map((order) => Sql.sql`(${order.id}, ${order.id}, ${order.tenantId}, ${kindValue}, ${leaseValue}, ${atValue})`))}
      ON CONFLICT ("id") DO UPDATE SET "kind" = excluded."kind", "lockedUntil" = excluded."lockedUntil"`;
  }

  /** The supplier has done (or undone) the work of these intents: nothing is owed for them any more. */
  async settled(...ids: string[]): Promise<void> {
    if (ids.length === 0) return;
    await writeBatch(this.db, [Sql.sql`DELETE FROM "SeatIntent" WHERE "id" IN (${Sql.join(ids)})`]);
  }

  /** Claims up to `limit` intents whose lease is over, oldest first, each leased to the caller anew. */
  async claimAbandoned(limit: number): Promise<ClaimedIntent[]> {
    const now = clock.now();
    const rows = await claimLeased<{ id: string; orderId: string; tenantId: string; kind: IntentKind; release: unknown; createdAt: unknown }>(this.db, {
      table: "SeatIntent",
      due: Sql.sql`1 = 1`,
      orderBy: Sql.sql`"candidate"."createdAt"`,
      limit,
      now,
      leaseMs: this.leaseMs,
      returning: Sql.sql`"id", "orderId", "tenantId", "kind", "release", "createdAt"`,
    });
    return rows.map((row) => ({
      id: row.id,
      orderId: row.orderId,
      tenantId: row.tenantId,
      kind: row.kind,
      ...storedFrom(row.release),
      createdAt: dateFrom(row.createdAt),
    }));
  }

  /** Ends every lease: for SQLite at start (see `releaseAllLeases`), so a dead predecessor's intents are settled at once. */
  releaseAllLeases(): Promise<void> {
    return releaseAllLeases(this.db, "SeatIntent");
  }
}

/** The intent's JSON column: an exchange's flights left (an array), or what a call that cannot be undone commits (`{ commits }`). */
function storedJson(provider: Database["provider"], subject: CallSubject) {
  if (subject.commits) return sqlJson(provider, { commits: subject.commits });
  return subject.release ? sqlJson(provider, subject.release) : null;
}

function storedFrom(column: unknown): Pick<ClaimedIntent, "release" | "commits"> {
  const stored = column === null ? null : jsonFrom<string[] | { commits: unknown }>(column);
  if (stored === null) return { release: [], commits: null };
  return Array.isArray(stored) ? { release: stored, commits: null } : { release: [], commits: stored.commits };
}
