import type { Database } from "../../db/database";
import { queryRows } from "../../db/query-rows";
import { sqlEnumList } from "../../db/sql-enum";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import type { Logger } from "../../logger";
import { PollingLoop } from "../../polling-loop";
import type { Supplier } from "../../gateway/contract/supplier";
import { SEAT_OWNING_STATUSES } from "../core/order-actions";
import { finishSeatCall, undoSeatCall } from "./seat-calls";
import type { ClaimedSeatIntent, SeatIntentKind, SeatIntents } from "./seat-intents";

/** What the reconciler logs once it settled an intent of each kind. */
const SETTLED: Record<SeatIntentKind, string> = {
  hold: "seats held for a booking that never committed were released",
  release: "seats of a cancelled order were released for it (its process stopped, or lost the database, before releasing them)",
  sale: "seats sold for services that never committed were given back",
  exchange: "seats held for a change that never committed were given back; the booking keeps its flights",
  exchanged: "seats of the flights a committed change left were released for it",
};

/** Intents settled per round. */
const BATCH = 50;

export interface SeatReconcilerOptions {
  /** How often the intents are read (JOB_POLL_MS): intents whose lease ran out are settled then. */
  pollMs: number;
}

/**
 * The seat-recovery rule: after any crash, the airline and the orders agree. Every seat the
 * airline holds for us is in a committed order that owns seats (SEAT_OWNING_STATUSES) or back on
 * sale, and every seat it sold after booking is on its order. The reconciler settles the seat
 * work a process left unfinished (seat-intents.ts, docs/supplier-contract.md):
 *
 * - before a commit that never came (the process died between the airline's answer and the
 *   order's commit, or stalled past the lease), the call is undone: a `hold`'s seats released, a
 *   `sale` cancelled, an `exchange` cancelled (the booking keeps its flights); the request's
 *   fenced commit, should the process wake, fails;
 * - after a commit whose airline call was not made: a `release` intent's seats are released, an
 *   `exchanged` intent's flights left are released.
 *
 * Intents are claimed with a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL), so several
 * processes never settle the same one at once; every airline call here is safe to repeat, so a
 * settlement cut short by a crash is simply done again. On SQLite every lease ends at start (one
 * process serves the file), so what a dead process left is settled by its successor at once.
 */
export class SeatReconciler {
  readonly #loop: PollingLoop;

  constructor(
    private readonly db: Database,
    private readonly intents: SeatIntents,
    private readonly supplier: Supplier,
    private readonly log: Logger,
    options: SeatReconcilerOptions,
  ) {
    this.#loop = new PollingLoop(() => this.round(), options.pollMs, (error) => this.log.error({ err: error }, "seat intents could not be claimed"), db.availability);
  }

  start(): void {
    this.#loop.start();
  }

  /** Stops polling, and resolves once the round in progress (if any) has finished. */
  stop(): Promise<void> {
    return this.#loop.stop();
  }

  /** Settles up to one batch of abandoned intents; true when a full batch was claimed (more may be due). */
  async round(): Promise<boolean> {
    const claimed = await this.intents.claimAbandoned(BATCH);
    if (claimed.length === 0) return false;
    const releasing = claimed.filter((intent) => intent.kind === "hold" || intent.kind === "release");
    const holding = releasing.length === 0 ? new Set<string>() : await this.ordersHoldingSeats(releasing.map((intent) => intent.orderId));
    for (const intent of claimed) {
      try {
        await this.settle(intent, holding.has(intent.orderId));
      } catch (error) {
        // It stays claimed, and is claimed again (by any process) when the lease is over.
        this.log.error({ err: error, orderId: intent.orderId, intentId: intent.id, kind: intent.kind }, "seat intent could not be settled; it will be retried");
      }
    }
    return claimed.length === BATCH;
  }

  private async settle(intent: ClaimedSeatIntent, orderHoldsSeats: boolean): Promise<void> {
    const context = { orderId: intent.orderId, intentId: intent.id, tenantId: intent.tenantId, kind: intent.kind, since: intent.createdAt.toISOString() };
    if (orderHoldsSeats && (intent.kind === "hold" || intent.kind === "release")) {
      // Never expected (the order's commit removes a hold intent; a cancellation ends the order's
      // holding): the order is the seats' owner, so they stay with it.
      this.log.warn(context, "seat intent of an order that holds its seats dropped; seats kept");
    } else {
      if (intent.kind === "release" || intent.kind === "exchanged") await finishSeatCall(this.supplier, intent.kind, intent.orderId, intent.id, intent.release);
      else await undoSeatCall(this.supplier, intent.kind, intent.orderId, intent.id);
      this.log.warn(context, SETTLED[intent.kind]);
    }
    await this.intents.settled(intent.id);
  }

  /** Of `orderIds`, those whose order is committed and still owns seats (SEAT_OWNING_STATUSES). */
  private async ordersHoldingSeats(orderIds: string[]): Promise<Set<string>> {
    const rows = await queryRows<{ id: string }>(
      this.db,
      Sql.sql`SELECT "id" FROM "Order" WHERE "id" IN (${Sql.join(orderIds)}) AND "status" IN (${sqlEnumList(this.db.provider, "OrderStatus", SEAT_OWNING_STATUSES)})`,
    );
    return new Set(rows.map((row) => row.id));
  }
}
