import type { Database } from "../../db/database";
import { queryRows } from "../../db/query-rows";
import { sqlEnum } from "../../db/sql-enum";
import { exactNumber } from "../../db/sql-values";
import { guarded, GuardFailed, type BatchStatement } from "../../db/write-batch";
import { appError, type AppError } from "../../errors/app-error";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { passengersNeedingSeats, type PassengerType } from "../../gateway/contract/air";
import { HOLD_LIMIT_FIELDS, type HoldLimit, type HoldLimits } from "../../wallet/hold-limits";
import type { StoredOffer } from "../../search/offer-payload";

/** The seats a booking holds: on each of its flights (by flightKey), one per passenger who occupies a seat. */
export interface HeldSeats {
  flightKeys: string[];
  seats: number;
}

/** The seats a booking of `offer` holds, from its segments and its passengers. */
export function heldSeats(offer: Pick<StoredOffer, "payload">, passengers: ReadonlyArray<{ type: PassengerType }>): HeldSeats {
  const flightKeys = new Set(offer.payload.slices.flatMap((slice) => slice.segments.map((segment) => segment.flightKey)));
  return { flightKeys: [...flightKeys], seats: passengersNeedingSeats(passengers) };
}

/** Names a hold limit's guard in `GuardFailed`. */
const GUARDS: Record<HoldLimit, string> = { maxUnpaidOrders: "hold_limit:max_unpaid_orders", maxUnpaidSeatsPerFlight: "hold_limit:max_unpaid_seats_per_flight" };

/**
 * The hold limits of the wallet (wallet/hold-limits.ts) at booking: the most unpaid orders a
 * tenant holds, and the most seats they hold on one flight. A booking is checked twice. Before the
 * airline is asked (`check`), so a booking past a limit holds no seat and costs no supplier call.
 * Then in its commit (`guards`), where the database decides between racing bookings: the
 * statements take a per-tenant lock (PostgreSQL; SQLite runs one transaction at a time) and
 * re-count with the new order in, so concurrent bookings never pass a limit; a guard that fails
 * rolls the booking back, and the caller undoes its supplier call.
 */
export class UnpaidHolds {
  constructor(private readonly db: Database) {}

  /** 422 `hold_limit_reached` naming the limit when booking `held` would take the tenant past one of `limits`. */
  async check(tenantId: string, limits: HoldLimits, held: HeldSeats): Promise<void> {
    const pending = sqlEnum(this.db.provider, "OrderStatus", "PENDING");
    if (limits.maxUnpaidOrders !== null) {
      const [row] = await queryRows<{ count: bigint | number }>(this.db, Sql.sql`SELECT COUNT(*) AS "count" FROM "Order" WHERE "tenantId" = ${tenantId} AND "status" = ${pending}`);
      const unpaid = exactNumber(row?.count ?? 0);
      if (unpaid + 1 > limits.maxUnpaidOrders) throw this.refusal("maxUnpaidOrders", `the tenant holds ${unpaid} unpaid orders, and the limit is ${limits.maxUnpaidOrders}`);
    }
    if (limits.maxUnpaidSeatsPerFlight !== null && held.flightKeys.length > 0) {
      const rows = await queryRows<{ held: bigint | number }>(
        this.db,
        Sql.sql`SELECT SUM(f."seats") AS "held" FROM "OrderFlight" f JOIN "Order" o ON o."id" = f."orderId"
          WHERE f."tenantId" = ${tenantId} AND o."status" = ${pending} AND f."flightKey" IN (${Sql.join(held.flightKeys)}) GROUP BY f."flightKey"`,
      );
      const fullest = Math.max(0, ...rows.map((row) => exactNumber(row.held)));
      if (fullest + held.seats > limits.maxUnpaidSeatsPerFlight) {
        throw this.refusal("maxUnpaidSeatsPerFlight", `the tenant's unpaid orders hold ${fullest} seats on one of its flights, and it needs ${held.seats} more; the limit is ${limits.maxUnpaidSeatsPerFlight}`);
      }
    }
  }

  /**
   * For the booking's commit, after the order and its OrderFlight rows: on PostgreSQL the
   * tenant's hold lock (an advisory lock for the transaction, taken only when the wallet has a
   * limit), then one guard per limit, each re-counting the tenant's unpaid orders with this one
   * in (a statement after the lock sees every booking committed before it). A wallet without a
   * limit passes them unchanged.
   */
  guards(order: { id: string; tenantId: string }): BatchStatement[] {
    const { provider } = this.db;
    const pending = sqlEnum(provider, "OrderStatus", "PENDING");
    const touch = Sql.sql`UPDATE "Order" SET "updatedAt" = "updatedAt" WHERE "id" = ${order.id}`;
    const lock =
      provider === "postgresql"
        ? [
            Sql.sql`SELECT pg_advisory_xact_lock(hashtextextended(${`unpaid-holds:${order.tenantId}`}, 0)) FROM "Wallet"
              WHERE "tenantId" = ${order.tenantId} AND ("maxUnpaidOrders" IS NOT NULL OR "maxUnpaidSeatsPerFlight" IS NOT NULL)`,
          ]
        : [];
    return [
      ...lock,
      guarded(
        Sql.sql`${touch} AND NOT EXISTS (SELECT 1 FROM "Wallet" w WHERE w."tenantId" = ${order.tenantId} AND w."maxUnpaidOrders" IS NOT NULL
          AND w."maxUnpaidOrders" < (SELECT COUNT(*) FROM "Order" o WHERE o."tenantId" = ${order.tenantId} AND o."status" = ${pending}))`,
        GUARDS.maxUnpaidOrders,
      ),
      guarded(
        Sql.sql`${touch} AND NOT EXISTS (SELECT 1 FROM "Wallet" w, "OrderFlight" mine
          WHERE w."tenantId" = ${order.tenantId} AND w."maxUnpaidSeatsPerFlight" IS NOT NULL AND mine."orderId" = ${order.id}
            AND w."maxUnpaidSeatsPerFlight" < (SELECT SUM(f."seats") FROM "OrderFlight" f JOIN "Order" o ON o."id" = f."orderId"
              WHERE f."tenantId" = ${order.tenantId} AND f."flightKey" = mine."flightKey" AND o."status" = ${pending}))`,
        GUARDS.maxUnpaidSeatsPerFlight,
      ),
    ];
  }

  /** The refusal for a commit whose hold-limit guard failed (racing bookings took the room left); null for any other failure. */
  refusalFor(error: unknown): AppError | null {
    if (!(error instanceof GuardFailed)) return null;
    const limit = (Object.keys(GUARDS) as HoldLimit[]).find((name) => GUARDS[name] === error.guard);
    return limit ? this.refusal(limit, "bookings made meanwhile took the tenant to the limit") : null;
  }

  private refusal(limit: HoldLimit, why: string): AppError {
    const field = HOLD_LIMIT_FIELDS[limit];
    return appError("hold_limit_reached", { field, message: `${field}: this booking would pass the tenant's hold limit (${why}).` });
  }
}
