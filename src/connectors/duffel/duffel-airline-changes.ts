import type { Database } from "../../db/database";
import { AppError } from "../../errors/app-error";
import type { Airport } from "../../locations/airport";
import type { BookingRef, ReportedChange } from "../../gateway/contract/bookings";
import type { ReportedChanges } from "../../gateway/contract/capabilities";
import type { SupplierOrderSignals, SupplierPoll } from "../../gateway/contract/connector";
import { onAccount, type DuffelAccount, type DuffelAccounts } from "./duffel-accounts";
import type { DuffelBookingRecord, DuffelBookings } from "./duffel-bookings";
import { toSupplierSlice, UnknownPlace } from "./duffel-offers";
import type { DuffelAirlineInitiatedChange } from "./duffel-shapes";

/** How many booked Duffel orders one round of the poll asks about: each is at most two calls to Duffel (is it cancelled, its airline changes). */
export const CHANGES_POLL_BATCH = 20;

/**
 * Duffel's airline-initiated changes of our bookings (docs/duffel.md#airline-initiated-changes):
 * read with the tenant's account (`GET /air/airline_initiated_changes?order_id=`), and accepted
 * at Duffel (`…/actions/accept`). Their slices carry no passengers' types, so their baggage is
 * left to the order's fare (the airline's change does not change it).
 */
export class DuffelReportedChanges implements ReportedChanges {
  constructor(
    private readonly accounts: DuffelAccounts,
    private readonly bookings: DuffelBookings,
    private readonly airportByIata: (code: string) => Airport | undefined,
  ) {}

  async reportedChanges(booking: BookingRef): Promise<ReportedChange[]> {
    const recorded = await this.recorded(booking);
    return recorded?.duffelOrderId ? this.changesAt(recorded, await this.bookings.account(recorded.tenantId, recorded.account)) : [];
  }

  /** Accepts at Duffel; a change Duffel refuses to accept because it was accepted already is done. */
  async acceptReportedChange(booking: BookingRef, supplierChangeId: string): Promise<void> {
    const recorded = await this.recorded(booking);
    // The account that booked it (the tenant's own, or the owner's platform account).
    const account = await this.bookings.account(booking.tenantId, recorded?.account ?? "tenant");
    try {
      await onAccount(this.accounts, account, (connector) => connector.acceptAirlineInitiatedChange(supplierChangeId));
    } catch (error) {
      if (!(error instanceof AppError) || error.status >= 500) throw error;
      const now = recorded ? await this.changesAt(recorded, account) : [];
      if (now.find((change) => change.supplierChangeId === supplierChangeId)?.actionTaken !== "accepted") throw error;
    }
  }

  /** The changes Duffel reports for the recorded booking's order, read with `account`. */
  private async changesAt(recorded: DuffelBookingRecord, account: DuffelAccount): Promise<ReportedChange[]> {
    const duffelOrderId = recorded.duffelOrderId;
    if (!duffelOrderId) return [];
    const changes = await onAccount(this.accounts, account, (connector) => connector.listAirlineInitiatedChanges(duffelOrderId));
    return changes.flatMap((change) => {
      const reported = this.reported(change);
      return reported ? [reported] : [];
    });
  }

  /** Our record of the booking, when it is the tenant's and Duffel made or may have made it. */
  private async recorded(booking: BookingRef): Promise<DuffelBookingRecord | null> {
    const [recorded] = await this.bookings.liveAmong([booking.id]);
    return recorded?.tenantId === booking.tenantId ? recorded : null;
  }

  /** The change in the contract's terms; null when a place is not in our index (it cannot be shown as our flights). */
  private reported(change: DuffelAirlineInitiatedChange): ReportedChange | null {
    try {
      const slices = (list: DuffelAirlineInitiatedChange["added"]) => list.map((slice) => toSupplierSlice(slice, new Map(), this.airportByIata));
      return { supplierChangeId: change.id, removed: slices(change.removed), added: slices(change.added), actionTaken: change.action_taken };
    } catch (error) {
      if (error instanceof UnknownPlace) return null;
      throw error;
    }
  }
}

/**
 * The poll for connections whose webhooks cannot reach us: every `everyMs`, the next
 * CHANGES_POLL_BATCH booked Duffel orders (in id order, wrapping around; each process keeps its
 * own place), of which the domain keeps those still open here and not yet departed; each is
 * handed to the domain to read whether Duffel cancelled it, then its airline changes (asked of
 * Duffel for ticketed ones only). A round is at most two calls per order of the batch.
 */
export function duffelChangesPoll(db: Database, signals: SupplierOrderSignals, everyMs: number): SupplierPoll {
  let after = "";
  return {
    name: "duffel_orders",
    everyMs,
    round: async () => {
      const rows = await db.prisma.duffelBooking.findMany({
        where: { status: "booked", duffelOrderId: { not: null }, id: { gt: after } },
        select: { id: true },
        orderBy: { id: "asc" },
        take: CHANGES_POLL_BATCH,
      });
      after = rows.length === CHANGES_POLL_BATCH ? rows.at(-1)!.id : "";
      for (const orderId of await signals.open(rows.map((row) => row.id))) {
        await signals.cancelled(orderId);
        await signals.airlineChanged(orderId);
      }
      return false;
    },
  };
}
