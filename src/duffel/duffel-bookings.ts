import type { Database } from "../db/database";
import { appError } from "../errors/app-error";
import { newId } from "../ids";
import { clock } from "../clock";
import type { TestPause } from "../test-pause";
import type { TenantScope } from "../tenancy/tenant-scope";
import { onAccount, type DuffelAccount, type DuffelAccounts } from "./duffel-accounts";
import { isRefusal } from "./duffel-errors";
import type { DuffelConnector } from "./duffel-connector";
import type { DuffelOrder, DuffelOrderPassenger } from "./duffel-shapes";

/** The metadata key a Duffel order carries our order id under: how a booking whose answer was lost is found again. */
export const ORDER_ID_METADATA = "aerogate_order_id";

export interface DuffelBookingRequest {
  /** The tenant's Idempotency-Key: the same key is the same booking, however often it is sent. */
  idempotencyKey: string;
  /** Duffel's offer id (from a search or a read of the offer). */
  offerId: string;
  /** `instant` pays from the Duffel balance now; `hold` keeps the seats until Duffel's `payment_required_by`. */
  type: "instant" | "hold";
  passengers: DuffelOrderPassenger[];
  /**
   * What the tenant agreed to pay, in Duffel's amount and currency: an instant order pays
   * exactly this, so a price Duffel changed meanwhile is refused (`price_changed`), never paid.
   */
  payment?: { amount: string; currency: string };
}

export interface DuffelBookingRecord {
  /** Our order id (`ord_…`), also the Duffel order's `metadata.aerogate_order_id`. */
  id: string;
  status: "requested" | "booked" | "failed";
  offerId: string;
  duffelOrderId: string | null;
  bookingReference: string | null;
  totalAmount: string | null;
  totalCurrency: string | null;
  paymentRequiredBy: string | null;
}

/**
 * Bookings asked of Duffel, safe across crashes: the intent is recorded before Duffel is called,
 * the Duffel order carries our order id in its metadata, and our record is committed after. A
 * repeat of the same Idempotency-Key, or the reconciler after a crash, finds Duffel's order by
 * that id instead of booking again, so each intent has at most one Duffel order.
 */
export class DuffelBookings {
  constructor(
    private readonly db: Database,
    private readonly accounts: DuffelAccounts,
    private readonly pause: TestPause,
    /** How long a Duffel call may take: an intent older than twice this has no call still in flight, even one Duffel finishes late. */
    private readonly callTimeoutMs: number,
  ) {}

  /**
   * Books the offer once per Idempotency-Key. A refusal Duffel gives (`offer_no_longer_available`,
   * `price_changed`, a bad token) fails the booking and is answered as the catalogue's error; a
   * repeat of a failed booking asks Duffel again (it made nothing), so it answers as Duffel does
   * now. A timeout or a 5xx leaves the booking `requested`, settled by a repeat or by the reconciler.
   */
  async book(scope: TenantScope, request: DuffelBookingRequest): Promise<DuffelBookingRecord> {
    const account = await this.account(scope.tenantId);
    const intent = await this.claimIntent(scope.tenantId, account.connectionId, request);
    if (intent.status === "booked") return intent;
    if (intent.status === "failed") await this.db.prisma.duffelBooking.updateMany({ where: { id: intent.id, status: "failed" }, data: { status: "requested" } });
    let refused = false;
    const order = await onAccount(this.accounts, account, async (connector) => {
      try {
        return (await connector.findOrderByMetadata(ORDER_ID_METADATA, intent.id)) ?? (await connector.createOrder(orderBody(intent.id, request)));
      } catch (error) {
        refused = isRefusal(error);
        throw error;
      }
    }).catch(async (error: unknown) => {
      if (refused) await this.fail(intent.id);
      throw error;
    });
    await this.pause("after_duffel_order", { orderId: intent.id, duffelOrderId: order.id });
    return this.commit(intent.id, order);
  }

  /** The tenant's booking by our order id; null for an unknown id or another tenant's. */
  async find(scope: TenantScope, orderId: string): Promise<DuffelBookingRecord | null> {
    const row = await this.db.prisma.duffelBooking.findFirst({ where: { id: orderId, tenantId: scope.tenantId } });
    return row ? recordFromRow(row) : null;
  }

  /**
   * Settles bookings no call is working on any more (untouched for twice a call's timeout): each
   * is booked when Duffel has an order carrying its id, and failed when Duffel says it has none.
   * One Duffel cannot be asked about (no connection now, a refused token, no answer) is tried
   * again a while later. Returns how many it looked at.
   */
  async settleAbandoned(limit = 50): Promise<number> {
    const cutoff = new Date(clock.nowMs() - 2 * this.callTimeoutMs);
    const stale = await this.db.prisma.duffelBooking.findMany({ where: { status: "requested", updatedAt: { lt: cutoff } }, orderBy: { updatedAt: "asc" }, take: limit });
    for (const intent of stale) {
      const account = await this.accounts.forTenant(intent.tenantId);
      const order = account ? await onAccount(this.accounts, account, (connector: DuffelConnector) => connector.findOrderByMetadata(ORDER_ID_METADATA, intent.id)).catch(() => undefined) : undefined;
      if (order) await this.commit(intent.id, order);
      else if (order === null) await this.fail(intent.id);
      else await this.db.prisma.duffelBooking.updateMany({ where: { id: intent.id, status: "requested" }, data: { updatedAt: clock.now() } });
    }
    return stale.length;
  }

  private async account(tenantId: string): Promise<DuffelAccount> {
    const account = await this.accounts.forTenant(tenantId);
    if (!account) throw appError("invalid_field_value", { field: "supplier", message: "The tenant has no Duffel connection: connect one with POST /v1/supplier_connections." });
    return account;
  }

  /** The intent for the key: recorded now, or the one a first request (maybe of a crashed process) recorded. */
  private async claimIntent(tenantId: string, connectionId: string, request: DuffelBookingRequest): Promise<DuffelBookingRecord> {
    const key = { tenantId_idempotencyKey: { tenantId, idempotencyKey: request.idempotencyKey } };
    const row = await this.db.prisma.duffelBooking.upsert({
      where: key,
      create: { id: newId("ord"), tenantId, idempotencyKey: request.idempotencyKey, connectionId, offerId: request.offerId, status: "requested", createdAt: clock.now() },
      update: {},
    });
    if (row.offerId !== request.offerId) throw appError("idempotency_key_reused", { field: "Idempotency-Key" });
    return recordFromRow(row);
  }

  private async commit(id: string, order: DuffelOrder): Promise<DuffelBookingRecord> {
    const row = await this.db.prisma.duffelBooking.update({
      where: { id },
      data: {
        status: "booked",
        duffelOrderId: order.id,
        bookingReference: order.booking_reference,
        totalAmount: order.total_amount,
        totalCurrency: order.total_currency,
        paymentRequiredBy: order.payment_status.awaiting_payment ? order.payment_status.payment_required_by : null,
      },
    });
    return recordFromRow(row);
  }

  private async fail(id: string): Promise<void> {
    await this.db.prisma.duffelBooking.updateMany({ where: { id, status: "requested" }, data: { status: "failed" } });
  }
}

function orderBody(orderId: string, request: DuffelBookingRequest) {
  return {
    type: request.type,
    selected_offers: [request.offerId] as [string],
    passengers: request.passengers,
    ...(request.type === "instant" && request.payment && { payments: [{ type: "balance" as const, amount: request.payment.amount, currency: request.payment.currency }] }),
    metadata: { [ORDER_ID_METADATA]: orderId },
  };
}

function recordFromRow(row: Omit<DuffelBookingRecord, "status"> & { status: string }): DuffelBookingRecord {
  return {
    id: row.id,
    status: row.status === "booked" ? "booked" : row.status === "failed" ? "failed" : "requested",
    offerId: row.offerId,
    duffelOrderId: row.duffelOrderId,
    bookingReference: row.bookingReference,
    totalAmount: row.totalAmount,
    totalCurrency: row.totalCurrency,
    paymentRequiredBy: row.paymentRequiredBy,
  };
}
