import type { Database } from "../../db/database";
import type { BatchStatement } from "../../db/write-batch";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { newId } from "../../ids";
import type { Order, OrderDocument, OrderPassenger } from "../core/order";
import { insertDocument } from "../core/order-rows";
import { touchIn } from "../core/order-state-machine";
import { ticketReissues } from "../core/order-supplier";
import { supplierBooking } from "../core/supplier-booking";
import type { OrderSuppliers } from "../../gateway/contract/gateway";

/**
 * The `reissue` job's work (order-job-runner.ts) after a confirmed change: the order's supplier reissues
 * the order's e-tickets for its slices as they now are, and the new numbers replace the old
 * tickets (EMDs stay). The reissue is named by the order's latest confirmed change, so a run
 * repeated after a crash gets the same numbers, and changes confirmed while one waited are all
 * covered by the next run (the job is queued again by each confirmation).
 */
export class TicketReissue {
  constructor(
    private readonly db: Database,
    private readonly suppliers: OrderSuppliers,
  ) {}

  /** The statements that put the reissued e-tickets on the TICKETED order (none if it has no confirmed change). */
  async outcome(order: Order, passengers: OrderPassenger[], environment: "sandbox" | "live", at: Date): Promise<BatchStatement[]> {
    const latest = await this.db.prisma.orderChange.findFirst({
      where: { orderId: order.id, tenantId: order.tenantId, confirmedAt: { not: null } },
      orderBy: [{ confirmedAt: "desc" }, { id: "desc" }],
      select: { id: true },
    });
    if (!latest) return [];
    const tickets = await ticketReissues(order.offer.payload, this.suppliers).reissueTickets(supplierBooking(order, passengers, environment), latest.id);
    const documents = tickets.map(
      (ticket): OrderDocument => ({ id: newId("doc", at.getTime()), orderId: order.id, passengerId: ticket.passengerId, type: "electronic_ticket", uniqueIdentifier: ticket.number, createdAt: at }),
    );
    return [
      touchIn(this.db, order, "TICKETED", at),
      Sql.sql`DELETE FROM "OrderDocument" WHERE "orderId" = ${order.id} AND "tenantId" = ${order.tenantId} AND "type" = 'electronic_ticket'`,
      ...documents.map((document) => insertDocument(this.db, order, document)),
    ];
  }
}
