import type { Database } from "../db/database";
import { sqlTimestamp } from "../db/sql-values";
import { GuardFailed } from "../db/write-batch";
import { Prisma as Sql } from "../generated/prisma-sqlite/client";
import { newId } from "../ids";
import type { Logger } from "../logger";
import type { ReportedChange } from "../gateway/contract/bookings";
import type { OrderSuppliers } from "../gateway/contract/gateway";
import type { SupplierSlice } from "../gateway/contract/offers";
import type { AirlineInitiatedChange } from "../orders/core/airline-change";
import { REPORTED_CHANGE_GUARD, airlineChangesOf, insertAirlineChange } from "../orders/core/airline-change-rows";
import type { Order } from "../orders/core/order";
import { orderSubject } from "../orders/core/order-subject";
import type { OrderCommits } from "../orders/core/order-commits";
import { ORDER_GUARD, touchIn } from "../orders/core/order-state-machine";
import { orderEvent } from "../orders/presentation/order-event-payload";
import { sharedSegment } from "../search/price-offer";
import type { StoredSegment, StoredSlice } from "../search/offer-payload";
import type { Environment } from "../gateway/contract/air";
import { withSlices } from "./schedule-change";

/** How often one reading tries again when the order changed between its read and its commit. */
const ATTEMPTS = 3;

/** A ticketed order, as a supplier's report is read for it. */
export interface ReportedOrder {
  order: Order;
  environment: Environment;
  now: Date;
}

/**
 * Airline changes a remote supplier reports (docs/rest-api.md#airline-initiated-changes): read
 * when its webhook says so or its poll asks, each recorded once per the supplier's change id as
 * the order's change (`aic_`), with `order.airline_initiated_change_detected`, in one transaction
 * with the order touched (so a quote or change offer priced before it is asked again), exactly
 * as our own airline's changes are. A change the tenant accepted at the supplier directly is
 * accepted here too (`applyAccepted`). Only TICKETED orders with no refund under way are read.
 */
export class ReportedChangeReader {
  constructor(
    private readonly db: Database,
    private readonly suppliers: OrderSuppliers,
    private readonly commits: OrderCommits,
    /** Commits the acceptance of a change accepted at the supplier (AirlineChangeService). */
    private readonly applyAccepted: (subject: ReportedOrder, change: AirlineInitiatedChange) => Promise<unknown>,
    private readonly log: Logger,
  ) {}

  /** Reads the order's reported changes and records the new ones; never throws (a failure is logged, and the next webhook or poll reads again). */
  async read(orderId: string): Promise<void> {
    try {
      for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
        const subject = await this.ticketed(orderId);
        if (!subject) return;
        const reports = this.suppliers.declared(subject.order.offer.payload, "reportedChanges");
        if (!reports) return;
        const reported = await reports.reportedChanges({ id: subject.order.id, tenantId: subject.order.tenantId, environment: subject.environment });
        if (await this.record(subject, reported)) return;
      }
    } catch (error) {
      this.log.warn({ err: error, orderId }, "reading the airline changes a supplier reports failed; the next webhook or poll reads them again");
    }
  }

  /** Records what is new; false when the order changed meanwhile (read it again). */
  private async record(subject: ReportedOrder, reported: ReportedChange[]): Promise<boolean> {
    const { now } = subject;
    let { order } = subject;
    const [known] = await airlineChangesOf(this.db.prisma, order.tenantId, [order.id]);
    const bySupplierId = new Map(known!.flatMap((change) => (change.supplierChangeId === null ? [] : [[change.supplierChangeId, change] as const])));
    for (const report of reported) {
      const recorded = bySupplierId.get(report.supplierChangeId);
      if (recorded) {
        if (recorded.actionTaken !== null || report.actionTaken !== "accepted") continue;
        try {
          await this.applyAccepted(subject, recorded);
        } catch (error) {
          if (error instanceof GuardFailed) return false;
          throw error;
        }
        return false;
      }
      if (report.actionTaken !== null) continue;
      const change = changeOf(order, report, now);
      if (!change) {
        this.log.warn({ orderId: order.id, supplierChangeId: report.supplierChangeId }, "a reported airline change names slices the order does not have; not recorded");
        continue;
      }
      try {
        await this.commits.commit(
          [order],
          [touchIn(this.db, order, "TICKETED", now, Sql.empty, Sql.sql`AND "refundRequestedAt" IS NULL AND "updatedAt" = ${sqlTimestamp(this.db.provider, order.updatedAt)}`), insertAirlineChange(this.db, change)],
          [orderEvent(order, now, { type: "order.airline_initiated_change_detected", change })],
        );
      } catch (error) {
        if (error instanceof GuardFailed && error.guard === REPORTED_CHANGE_GUARD) continue;
        if (error instanceof GuardFailed && error.guard === ORDER_GUARD) return false;
        throw error;
      }
      // Touched by the commit, and otherwise as read: the next change is recorded against it.
      order = { ...order, updatedAt: now };
    }
    return true;
  }

  /** The order with its tenant's environment and clock, when it is TICKETED with no refund under way; null otherwise. */
  private async ticketed(orderId: string): Promise<ReportedOrder | null> {
    const subject = await orderSubject(this.db, orderId);
    if (!subject || subject.order.status !== "TICKETED" || subject.order.refundRequestedAt !== null) return null;
    return { order: subject.order, environment: subject.environment, now: subject.clock.now() };
  }
}

/**
 * The reported change as the order's: `removed` the order's own slices it names (by their
 * flights, else by route and day), `added` the supplier's new slices, each segment keeping the id
 * (and so the services) of the order's segment on the same flight, and the fare's baggage. Null
 * when it names a slice the order does not have.
 */
export function changeOf(order: Order, report: ReportedChange, now: Date): AirlineInitiatedChange | null {
  const slices = order.offer.payload.slices;
  const removed = report.removed.map((reported) => slices.find((slice) => sameFlights(slice, reported)) ?? slices.find((slice) => sameRoute(slice, reported)));
  if (removed.length === 0 || removed.some((slice) => slice === undefined)) return null;
  const booked = new Map(slices.flatMap((slice) => slice.segments).map((segment) => [segment.flightKey, segment]));
  const added = report.added.map((slice, index): StoredSlice => {
    const segments = slice.segments.map((segment): StoredSegment => {
      const same = booked.get(segment.flightKey);
      const fare = same ?? removed[Math.min(index, removed.length - 1)]!.segments[0]!;
      return { id: same?.id ?? newId("seg"), ...sharedSegment(segment), baggageAllowances: fare.baggageAllowances };
    });
    const replaced = removed[index];
    const keepsId = replaced !== undefined && replaced.segments.every((segment) => segments.some((kept) => kept.id === segment.id));
    return { id: keepsId ? replaced.id : newId("sli"), origin: slice.origin.iataCode, destination: slice.destination.iataCode, departureDate: slice.departureDate, durationMinutes: slice.durationMinutes, segments };
  });
  return {
    id: newId("aic", now.getTime()),
    orderId: order.id,
    tenantId: order.tenantId,
    removed: withSlices(order.offer.payload, removed as StoredSlice[]),
    added: withSlices(order.offer.payload, added),
    actionTaken: null,
    supplierChangeId: report.supplierChangeId,
    createdAt: now,
    updatedAt: now,
  };
}

function sameFlights(slice: StoredSlice, reported: SupplierSlice): boolean {
  return slice.segments.length === reported.segments.length && slice.segments.every((segment, index) => segment.flightKey === reported.segments[index]!.flightKey);
}

function sameRoute(slice: StoredSlice, reported: SupplierSlice): boolean {
  return slice.origin === reported.origin.iataCode && slice.destination === reported.destination.iataCode && slice.departureDate === reported.departureDate;
}
