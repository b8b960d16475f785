import type { Database } from "../db/database";
import { sqlJson, sqlTimestamp } from "../db/sql-values";
import { guarded, type BatchStatement, type GuardedStatement } from "../db/write-batch";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import type { SelectedService } from "../orders/core/order";
import { touchIn } from "../orders/core/order-state-machine";
import type { StoredOffer } from "../search/offer-payload";
import { fromLiveTenant } from "../tenants/live-tenant";
import { CHANGE_OFFER_LIFETIME_MS, storedChangeOffer, type OrderChange, type OrderChangeRequest } from "./order-change";

/** Names the guard of a change request's insert in `GuardFailed`: the tenant was deleted meanwhile. */
export const CHANGE_TENANT_GUARD = "change_tenant";

/** Names the guard of a confirmation in `GuardFailed`: the change was confirmed already. */
export const CHANGE_GUARD = "order_change";

/**
 * A change request and its offers, one batch; nothing is written for a tenant deleted meanwhile.
 * The request expires with its offers (retention removes it after: change-retention.ts).
 */
export function insertChangeRequest(db: Database, request: OrderChangeRequest): BatchStatement[] {
  const { provider } = db;
  const at = sqlTimestamp(provider, request.createdAt);
  return [
    guarded(
      Sql.sql`INSERT INTO "OrderChangeRequest" ("id", "orderId", "tenantId", "slices", "noPenalty", "expiresAt", "createdAt")
        SELECT ${request.id}, ${request.orderId}, "id", ${sqlJson(provider, request.slices)}, ${request.noPenalty ? Sql.sql`TRUE` : Sql.sql`FALSE`},
          ${sqlTimestamp(provider, new Date(request.createdAt.getTime() + CHANGE_OFFER_LIFETIME_MS))}, ${at}
        ${fromLiveTenant(provider, request.tenantId)}`,
      CHANGE_TENANT_GUARD,
    ),
    ...request.offers.map(
      (offer) => Sql.sql`INSERT INTO "OrderChangeOffer" ("id", "changeRequestId", "orderId", "tenantId", "payload", "changeTotalAmount", "penaltyAmount",
          "newTotalAmount", "currency", "expiresAt", "createdAt")
        VALUES (${offer.id}, ${request.id}, ${offer.orderId}, ${offer.tenantId}, ${sqlJson(provider, storedChangeOffer(offer))}, ${BigInt(offer.changeTotalAmount)},
          ${BigInt(offer.penaltyAmount)}, ${BigInt(offer.newTotalAmount)}, ${offer.currency}, ${sqlTimestamp(provider, offer.expiresAt)}, ${at})`,
    ),
  ];
}

/**
 * The change's request is kept with the order from its confirmation on (retention removes only
 * requests with an `expiresAt`: change-retention.ts).
 */
export function keepChangeRequest(db: Database, change: OrderChange): BatchStatement {
  return Sql.sql`UPDATE "OrderChangeRequest" SET "expiresAt" = NULL WHERE "id" = ${change.offer.changeRequestId} AND "tenantId" = ${change.tenantId}`;
}

/** Marks the change confirmed, once: of racing confirmations one changes the row, the others fail `CHANGE_GUARD`. */
export function confirmChange(db: Database, change: OrderChange, at: Date): GuardedStatement {
  return guarded(
    Sql.sql`UPDATE "OrderChange" SET "confirmedAt" = ${sqlTimestamp(db.provider, at)}
      WHERE "id" = ${change.id} AND "tenantId" = ${change.tenantId} AND "confirmedAt" IS NULL`,
    CHANGE_GUARD,
  );
}

/**
 * The order as changed: its booked offer, services and total replaced, within TICKETED (a change
 * is no transition), guarded like one: only if no refund is under way and the order is still as
 * it was priced (`updatedAt` unchanged), else the batch fails `ORDER_GUARD`.
 */
export function replaceBooking(
  db: Database,
  order: { id: string; tenantId: string; updatedAt: Date },
  booking: { offer: StoredOffer; services: SelectedService[]; totalAmount: number },
  at: Date,
): GuardedStatement {
  const { provider } = db;
  const set = Sql.sql`, "offerSnapshot" = ${sqlJson(provider, booking.offer)}, "services" = ${sqlJson(provider, booking.services)}, "totalAmount" = ${BigInt(booking.totalAmount)}`;
  return touchIn(db, order, "TICKETED", at, set, Sql.sql`AND "refundRequestedAt" IS NULL AND "updatedAt" = ${sqlTimestamp(provider, order.updatedAt)}`);
}
