import type { Database } from "../../db/database";
import { queryRows } from "../../db/query-rows";
import { sqlEnumList } from "../../db/sql-enum";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import type { Logger } from "../../logger";
import { PollingLoop } from "../../polling-loop";
import type { Supplier } from "../../supplier/supplier";
import { SEAT_OWNING_STATUSES } from "../core/order-actions";
import type { ClaimedSeatIntent, SeatIntents } from "./seat-intents";

/** Intents settled per round. */
const BATCH = 50;

export interface SeatReconcilerOptions {
  /** How often the intents are read (JOB_POLL_MS): intents whose lease ran out are settled then. */
  pollMs: number;
}

/**
 * The seat-recovery rule: after any crash, every seat the airline holds for us is either in a
 * committed order that owns seats (SEAT_OWNING_STATUSES) or back on sale. The reconciler settles
 * the seat work a process left unfinished (seat-intents.ts):
 *
 * - a `hold` intent whose lease is over is a booking that never committed (its process died
 *   between the airline's hold and the order's commit, or stalled past the lease): its seats
 *   are released, and its fenced commit, should the process wake, fails;
 * - a `release` intent whose lease is over is a cancellation committed whose seats were not
 *   given back: they are released.
 *
 * Intents are claimed with a lease (`FOR UPDATE SKIP LOCKED` on PostgreSQL), so several
 * processes never settle the same one at once; releasing is idempotent at the airline, so a
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
    const holding = await this.ordersHoldingSeats(claimed.map((intent) => intent.orderId));
    for (const intent of claimed) {
      try {
        await this.settle(intent, holding.has(intent.orderId));
      } catch (error) {
        // It stays claimed, and is claimed again (by any process) when the lease is over.
        this.log.error({ err: error, orderId: intent.orderId, kind: intent.kind }, "seat intent could not be settled; it will be retried");
      }
    }
    return claimed.length === BATCH;
  }

  private async settle(intent: ClaimedSeatIntent, orderHoldsSeats: boolean): Promise<void> {
    const context = { orderId: intent.orderId, tenantId: intent.tenantId, kind: intent.kind, since: intent.createdAt.toISOString() };
    if (orderHoldsSeats) {
      // Never expected (the order's commit removes a hold intent; a cancellation ends the order's
      // holding): the order is the seats' owner, so they stay with it.
      this.log.warn(context, "seat intent of an order that holds its seats dropped; seats kept");
    } else {
      await this.supplier.releaseSeats(intent.orderId);
      this.log.warn(
        context,
        intent.kind === "hold" ? "seats held for a booking that never committed were released" : "seats of a cancelled order were released for it (its process stopped, or lost the database, before releasing them)",
      );
    }
    await this.intents.released(intent.orderId);
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
