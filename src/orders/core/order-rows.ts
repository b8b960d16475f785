import type { Database } from "../../db/database";
import { sqlEnum } from "../../db/sql-enum";
import { sqlJson, sqlTimestamp } from "../../db/sql-values";
import { guarded, type BatchStatement } from "../../db/write-batch";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { fromLiveTenant } from "../../tenants/live-tenant";
import type { Order, OrderDocument, PassengerDetails } from "./order";
import type { BookedPassenger } from "./passenger-rules";
import { heldSeats } from "../payment/unpaid-holds";

/** Names the guard of an order insert in `GuardFailed`: the tenant was deleted meanwhile. */
export const TENANT_GUARD = "tenant";

/**
 * A new order, its passengers and the seats it holds on each flight (OrderFlight, what the hold
 * limits count) as one batch. The order is inserted from the tenant's row, so nothing is written
 * for a tenant deleted meanwhile; booking an offer twice fails on the unique (tenantId, offerId).
 * Raw SQL, as search's rows are: this is a hot path.
 */
export function insertOrder(db: Database, order: Order, passengers: readonly BookedPassenger[]): BatchStatement[] {
  const { provider } = db;
  const at = sqlTimestamp(provider, order.createdAt);
  const held = heldSeats(order.offer, passengers);
  return [
    guarded(
      Sql.sql`INSERT INTO "Order" ("id", "tenantId", "offerId", "status", "totalAmount", "currency", "offerSnapshot", "services", "metadata",
          "bookingReference", "paymentRequiredBy", "settlement", "createdAt", "updatedAt")
        SELECT ${order.id}, "id", ${order.offerId}, ${sqlEnum(provider, "OrderStatus", order.status)}, ${order.totalAmount}, ${order.currency},
          ${sqlJson(provider, order.offer)}, ${sqlJson(provider, order.services)}, ${sqlJson(provider, order.metadata)},
          ${order.bookingReference}, ${order.paymentRequiredBy && sqlTimestamp(provider, order.paymentRequiredBy)}, ${order.settlement}, ${at}, ${at}
        ${fromLiveTenant(provider, order.tenantId)}`,
      TENANT_GUARD,
    ),
    ...passengers.map(
      (passenger) => Sql.sql`INSERT INTO "OrderPassenger" ("orderId", "id", "tenantId", "position", "type", "title", "givenName", "familyName",
          "bornOn", "gender", "email", "phoneNumber", "identityDocuments", "loyaltyProgrammeAccounts", "infantPassengerId")
        VALUES (${order.id}, ${passenger.id}, ${order.tenantId}, ${passenger.position}, ${passenger.type}, ${passenger.title}, ${passenger.givenName},
          ${passenger.familyName}, ${passenger.bornOn}, ${passenger.gender}, ${passenger.email}, ${passenger.phoneNumber},
          ${sqlJson(provider, passenger.identityDocuments)}, ${sqlJson(provider, passenger.loyaltyProgrammeAccounts ?? [])}, ${passenger.infantPassengerId ?? null})`,
    ),
    ...(held.flightKeys.length === 0
      ? []
      : [
          Sql.sql`INSERT INTO "OrderFlight" ("orderId", "flightKey", "tenantId", "seats")
            VALUES ${Sql.join(held.flightKeys.map((flightKey) => Sql.sql`(${order.id}, ${flightKey}, ${order.tenantId}, ${held.seats})`))}`,
        ]),
  ];
}

/** Writes a passenger's details as they now are. */
export function updatePassenger(db: Database, orderId: string, passengerId: string, details: PassengerDetails): Sql.Sql {
  return Sql.sql`UPDATE "OrderPassenger" SET "title" = ${details.title}, "givenName" = ${details.givenName}, "familyName" = ${details.familyName},
      "bornOn" = ${details.bornOn}, "gender" = ${details.gender}, "email" = ${details.email}, "phoneNumber" = ${details.phoneNumber},
      "identityDocuments" = ${sqlJson(db.provider, details.identityDocuments)},
      "loyaltyProgrammeAccounts" = ${sqlJson(db.provider, details.loyaltyProgrammeAccounts ?? [])}, "infantPassengerId" = ${details.infantPassengerId ?? null}
    WHERE "orderId" = ${orderId} AND "id" = ${passengerId}`;
}

/** A document issued for the order (an e-ticket, an EMD). */
export function insertDocument(db: Database, order: { id: string; tenantId: string }, document: OrderDocument): Sql.Sql {
  return Sql.sql`INSERT INTO "OrderDocument" ("id", "orderId", "tenantId", "passengerId", "type", "uniqueIdentifier", "createdAt")
    VALUES (${document.id}, ${order.id}, ${order.tenantId}, ${document.passengerId}, ${document.type}, ${document.uniqueIdentifier}, ${sqlTimestamp(db.provider, document.createdAt)})`;
}
