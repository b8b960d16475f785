import type { Database } from "../../db/database";
import { sqlJson, sqlTimestamp } from "../../db/sql-values";
import type { GuardedStatement } from "../../db/write-batch";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { convertMinor } from "../../money/exchange-rates";
import { walletChange } from "../../wallet/wallet-change";
import type { WalletService } from "../../wallet/wallet.service";
import { newId } from "../../ids";
import type { Order, SelectedService } from "../core/order";
import { isTicketed } from "../core/order-actions";
import { touchIn } from "../core/order-state-machine";
import type { ServiceAddition } from "./service-addition";

/**
 * A new addition of the services selected to the order, dated strictly later than the order's
 * last change (so a racing addition that read it cannot match its guard): paid at once on a
 * ticketed order, each service owed an EMD of ours when `emds` (the supplier numbers them after).
 */
export function newAddition(order: Order, selected: readonly SelectedService[], amount: number, now: Date, emds: boolean): ServiceAddition {
  const at = new Date(Math.max(now.getTime(), order.updatedAt.getTime() + 1));
  const additionId = newId("osa", at.getTime());
  return {
    id: additionId,
    orderId: order.id,
    tenantId: order.tenantId,
    services: selected.map((service) => ({ ...service, additionId, ...(emds && { emdId: newId("doc", at.getTime()) }) })),
    totalAmount: amount,
    currency: order.currency,
    paidAt: isTicketed(order) ? at : null,
    createdAt: at,
  };
}

/**
 * What an addition writes to its order, whichever way it is sold: the order as it leaves it, and
 * the statements writing it (its services and total, guarded on the order being as it was read:
 * its `updatedAt`, moved forward by every addition, its total, and on a ticketed order unless
 * `refundGuard` is false, no refund asked) and the addition's record.
 */
export function additionWrites(db: Database, order: Order, addition: ServiceAddition, { refundGuard = true } = {}): { updated: Order; statements: [GuardedStatement, Sql.Sql] } {
  const { provider } = db;
  const updated: Order = { ...order, services: [...order.services, ...addition.services], totalAmount: order.totalAmount + addition.totalAmount, updatedAt: addition.createdAt };
  const orderWrite = touchIn(
    db,
    order,
    order.status,
    addition.createdAt,
    Sql.sql`, "services" = ${sqlJson(provider, updated.services)}, "totalAmount" = ${updated.totalAmount}`,
    Sql.sql`AND "updatedAt" = ${sqlTimestamp(provider, order.updatedAt)} AND "totalAmount" = ${order.totalAmount} ${refundGuard && isTicketed(order) ? Sql.sql`AND "refundRequestedAt" IS NULL` : Sql.empty}`,
  );
  const insert = Sql.sql`INSERT INTO "OrderServiceAddition" ("id", "orderId", "tenantId", "services", "totalAmount", "currency", "paidAt", "createdAt")
    VALUES (${addition.id}, ${addition.orderId}, ${addition.tenantId}, ${sqlJson(provider, addition.services)}, ${addition.totalAmount}, ${addition.currency},
      ${addition.paidAt && sqlTimestamp(provider, addition.paidAt)}, ${sqlTimestamp(provider, addition.createdAt)})`;
  return { updated, statements: [orderWrite, insert] };
}

/**
 * The services' debit from the wallet, in its currency: a `services_debit` entry once per
 * addition (the ledger's unique order, type and operation), guarded by the balance in the
 * database, so concurrent additions never overdraw it; `owed` (the supplier was paid for them
 * already) lands even past the credit limit, the money having moved.
 */
export async function servicesDebit(db: Database, wallets: WalletService, order: Pick<Order, "id" | "tenantId">, addition: ServiceAddition, owed = false) {
  const wallet = await wallets.get(order.tenantId);
  const amount = convertMinor(addition.totalAmount, addition.currency, wallet.currency);
  const change = walletChange(db, {
    tenantId: order.tenantId,
    type: "services_debit",
    amount: -amount,
    currency: wallet.currency,
    orderId: order.id,
    reference: addition.id,
    operationId: addition.id,
    at: addition.createdAt,
    owed,
  });
  return { statements: change.statements, amount, currency: wallet.currency };
}
