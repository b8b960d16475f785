import type { Database } from "../../db/database";
import { sqlTimestamp } from "../../db/sql-values";
import { GuardFailed, guarded, writeBatch, type GuardedStatement } from "../../db/write-batch";
import { AppError, appError } from "../../errors/app-error";
import { Prisma as Sql } from "../../generated/prisma-sqlite/client";
import { newId } from "../../ids";
import { clock } from "../../clock";
import { onAccount, type DuffelAccount, type DuffelAccounts } from "./duffel-accounts";
import { isRefusal } from "./duffel-errors";
import type { DuffelConnector } from "./duffel-connector";
import type { DuffelOffer, DuffelOrder, DuffelOrderPassenger } from "./duffel-shapes";
import type { SupplierAccountKind } from "../../gateway/contract/offers";

/** The metadata key a Duffel order carries our order id under: how a booking whose answer was lost is found again. */
export const ORDER_ID_METADATA = "aerogate_order_id";

/** Names the guard of `booked` in `GuardFailed`: the booking was settled otherwise meanwhile. */
const DUFFEL_BOOKING_GUARD = "duffel_booking";

export interface DuffelBookingRequest {
  /** What makes two requests the same booking, however often it is sent: our order id for an order's booking (a hold at booking, an instant order at ticketing). */
  idempotencyKey: string;
  /** Our order id the booking is named by (its Duffel order's metadata); a new `ord_…` when absent. */
  orderId?: string;
  /** Duffel's offer id (from a search or a read of the offer). */
  offerId: string;
  /** Whose Duffel account books it (the offer's): every later call of the booking uses the same. Absent: the tenant's own. */
  account?: SupplierAccountKind;
  /** `instant` pays from the Duffel balance now; `hold` keeps the seats until Duffel's `payment_required_by`. */
  type: "instant" | "hold";
  passengers: DuffelOrderPassenger[];
  /** Extras booked with an instant order, by Duffel's ids (a hold takes none). */
  services?: ReadonlyArray<{ id: string; quantity: number }>;
  /**
   * What the tenant agreed to pay, in Duffel's amount and currency: an instant order pays
   * exactly this, so a price Duffel changed meanwhile is refused (`price_changed`), never paid.
   */
  payment?: { amount: string; currency: string };
  /** How long an order Duffel accepted (202) is read again before it is answered unconfirmed; absent: until the call's deadline. */
  confirmWithinMs?: number;
}

export interface DuffelBookingRecord {
  /** Our order id (`ord_…`), also the Duffel order's `metadata.aerogate_order_id`. */
  id: string;
  tenantId: string;
  status: "requested" | "booked" | "failed";
  /** Whose Duffel account booked it: its payment, cancellation and refund use the same. */
  account: SupplierAccountKind;
  offerId: string;
  duffelOrderId: string | null;
  bookingReference: string | null;
  totalAmount: string | null;
  totalCurrency: string | null;
  paymentRequiredBy: string | null;
}

/** A booking Duffel made: our intent, and Duffel's order (null when the intent was booked already, by an earlier request or the reconciler). */
export interface PlacedBooking {
  intent: DuffelBookingRecord;
  order: DuffelOrder | null;
}

/**
 * Which Duffel order is which of ours: Duffel takes no idempotency key, so a booking is recorded
 * (DuffelBooking, keyed by our order id) before Duffel is called, the Duffel order carries our
 * order id in its metadata, and the record is committed with Duffel's order after. A repeat (the
 * call policy's retry, a job run again) finds Duffel's order by that id instead of booking again,
 * so each booking has at most one Duffel order; giving it back (`cancelAll`) finds it so too.
 */
export class DuffelBookings {
  constructor(
    private readonly db: Database,
    private readonly accounts: DuffelAccounts,
  ) {}

  /**
   * Records the intent (once per key) and asks Duffel for the order: the one carrying our order id
   * if Duffel has it, else a new one carrying it. Does not commit: the caller commits `booked`
   * with its own writes. A refusal Duffel gives (`offer_no_longer_available`, `price_changed`, a
   * bad token) fails the intent and is answered as the catalogue's error; a repeat of a failed
   * booking asks Duffel again (it made nothing). A timeout or a 5xx leaves the intent `requested`,
   * for a repeat or the reconciler to settle.
   */
  async place(tenantId: string, request: DuffelBookingRequest): Promise<PlacedBooking> {
    const account = await this.account(tenantId, request.account ?? "tenant");
    const intent = await this.claimIntent(tenantId, account.connectionId, request);
    if (intent.status === "booked") return { intent, order: null };
    let refused = false;
    const order = await onAccount(this.accounts, account, async (connector) => {
      try {
        return (await liveOrderOf(connector, intent)) ?? (await connector.createOrder(orderBody(intent.id, request), { confirmWithinMs: request.confirmWithinMs }));
      } catch (error) {
        refused = isRefusal(error);
        throw error;
      }
    }).catch(async (error: unknown) => {
      if (refused) await this.fail(intent.id);
      throw error;
    });
    return { intent, order };
  }

  /** `place`, committed with Duffel's order: the booking as recorded then. */
  async book(tenantId: string, request: DuffelBookingRequest): Promise<DuffelBookingRecord> {
    const placed = await this.place(tenantId, request);
    if (placed.order) await this.commit(placed.intent, placed.order);
    return (await this.find(tenantId, placed.intent.id))!;
  }

  /**
   * Duffel's offer as Duffel prices it now, read before booking it: 422 `offer_no_longer_available`
   * when Duffel no longer has it, 422 `price_changed` when its total is no longer `expected` (what
   * the tenant saw and agrees to pay).
   */
  async currentOffer(tenantId: string, kind: SupplierAccountKind, offerId: string, expected: { amount: string; currency: string }): Promise<DuffelOffer> {
    const offer = await onAccount(this.accounts, await this.account(tenantId, kind), (connector) => connector.getOffer(offerId)).catch((error: unknown) => {
      if (error instanceof AppError && error.code === "not_found") throw appError("offer_no_longer_available", { reason: "Duffel no longer has the offer; search again." });
      throw error;
    });
    if (offer.total_amount !== expected.amount || offer.total_currency !== expected.currency) {
      throw appError("price_changed", {
        message: "Duffel priced the offer again and its total changed.",
        reason: `Duffel prices the offer at ${offer.total_amount} ${offer.total_currency} now, not ${expected.amount} ${expected.currency}: search again and book a current offer.`,
      });
    }
    return offer;
  }

  /**
   * Undoes a booking Duffel made that is not the one asked for (it priced it again): Duffel's order
   * is cancelled and the booking failed. Best effort at Duffel: an order it cannot cancel lapses
   * unpaid at its own deadline.
   */
  async undo(intent: DuffelBookingRecord, order: DuffelOrder): Promise<void> {
    const account = await this.accounts.of(intent.tenantId, intent.account);
    if (account) await onAccount(this.accounts, account, (connector) => connector.cancelOrder(order.id)).catch(() => undefined);
    await this.fail(intent.id);
  }

  /** The statement that commits a requested booking with Duffel's order; its guard fails when the booking was settled meanwhile. */
  private booked(id: string, order: DuffelOrder): GuardedStatement {
    const paymentRequiredBy = order.payment_status.awaiting_payment ? order.payment_status.payment_required_by : null;
    return guarded(
      Sql.sql`UPDATE "DuffelBooking" SET "status" = 'booked', "duffelOrderId" = ${order.id}, "bookingReference" = ${order.booking_reference},
          "totalAmount" = ${order.total_amount}, "totalCurrency" = ${order.total_currency}, "paymentRequiredBy" = ${paymentRequiredBy},
          "updatedAt" = ${sqlTimestamp(this.db.provider, clock.now())}
        WHERE "id" = ${id} AND "status" = 'requested'`,
      DUFFEL_BOOKING_GUARD,
    );
  }

  /** The booked hold is paid at Duffel's total now (its price checked again before payment, and accepted). */
  async payableAt(id: string, order: Pick<DuffelOrder, "total_amount" | "total_currency">): Promise<void> {
    await this.db.prisma.duffelBooking.updateMany({ where: { id, status: "booked" }, data: { totalAmount: order.total_amount, totalCurrency: order.total_currency, updatedAt: clock.now() } });
  }

  /** Duffel's order of a booked record as Duffel has it now; null when Duffel has none any more (it failed an order it had accepted). */
  async currentOrder(booking: DuffelBookingRecord & { duffelOrderId: string }): Promise<DuffelOrder | null> {
    return onAccount(this.accounts, await this.account(booking.tenantId, booking.account), (connector) => connector.getOrder(booking.duffelOrderId)).catch((error: unknown) => {
      if (error instanceof AppError && (error.code === "not_found" || error.code === "offer_no_longer_available")) return null;
      throw error;
    });
  }

  /** The tenant's booking by our order id; null for an unknown id or another tenant's. */
  async find(tenantId: string, orderId: string): Promise<DuffelBookingRecord | null> {
    const row = await this.db.prisma.duffelBooking.findFirst({ where: { id: orderId, tenantId } });
    return row ? recordFromRow(row) : null;
  }

  /** The bookings among these order ids (any tenant's) that Duffel made or may have made (booked, or requested and not settled): those whose calls go to Duffel. */
  async liveAmong(orderIds: readonly string[]): Promise<DuffelBookingRecord[]> {
    if (orderIds.length === 0) return [];
    const rows = await this.db.prisma.duffelBooking.findMany({ where: { id: { in: [...orderIds] }, status: { in: ["booked", "requested"] } } });
    return rows.map(recordFromRow);
  }

  /** Duffel's live order for a booking recorded but never settled (its process stopped between Duffel's answer and the record), found by our order id; null when Duffel has none. */
  async duffelOrderOf(booking: DuffelBookingRecord): Promise<DuffelOrder | null> {
    return onAccount(this.accounts, await this.account(booking.tenantId, booking.account), (connector) => liveOrderOf(connector, booking));
  }

  /**
   * The tenant's Duffel account of `kind`, or 422 naming `supplier` when it has none (any more):
   * its own connection, or the owner's platform account of its mode.
   */
  async account(tenantId: string, kind: SupplierAccountKind): Promise<DuffelAccount> {
    const account = await this.accounts.of(tenantId, kind);
    if (account) return account;
    const message =
      kind === "platform"
        ? "The platform has no Duffel account for this tenant's mode any more: the owner connects one with POST /v1/platform_accounts."
        : "The tenant has no Duffel connection: connect one with POST /v1/supplier_connections.";
    throw appError("invalid_field_value", { field: "supplier", message });
  }

  /** The tenant's booking Duffel holds an order for; 404 `not_found` when it has none. */
  async bookedOrder(order: { id: string; tenantId: string }): Promise<DuffelBookingRecord & { duffelOrderId: string }> {
    const booked = await this.find(order.tenantId, order.id);
    if (booked?.status !== "booked" || !booked.duffelOrderId) throw new AppError("not_found", { reason: `order ${order.id} has no order at Duffel` });
    return { ...booked, duffelOrderId: booked.duffelOrderId };
  }

  /** Runs `call` with the account that made the booking (the tenant's own, or the owner's platform account). */
  async on<T>(booked: DuffelBookingRecord, call: (connector: DuffelConnector) => Promise<T>): Promise<T> {
    return onAccount(this.accounts, await this.account(booked.tenantId, booked.account), call);
  }

  /** Duffel made nothing for the booking (it refused, or has no order under its id): failed, unless settled otherwise meanwhile. */
  async fail(id: string): Promise<void> {
    await this.db.prisma.duffelBooking.updateMany({ where: { id, status: "requested" }, data: { status: "failed", updatedAt: clock.now() } });
  }

  /** The booking was given back at Duffel (its order cancelled, or none found): failed, so that nothing of it is asked of Duffel again. */
  async cancelled(id: string): Promise<void> {
    await this.db.prisma.duffelBooking.updateMany({ where: { id, status: { in: ["booked", "requested"] } }, data: { status: "failed", updatedAt: clock.now() } });
  }

  /** Commits the booking alone; one settled meanwhile (by a repeat, or the reconciler) stays as it was settled. */
  async commit(intent: DuffelBookingRecord, order: DuffelOrder): Promise<void> {
    try {
      await writeBatch(this.db, [this.booked(intent.id, order)]);
    } catch (error) {
      if (!(error instanceof GuardFailed && error.guard === DUFFEL_BOOKING_GUARD)) throw error;
    }
  }

  /**
   * The intent for the key: recorded now, or the one a first call (maybe of a crashed process)
   * recorded. A failed one is asked again (Duffel made nothing for it).
   */
  private async claimIntent(tenantId: string, connectionId: string, request: DuffelBookingRequest): Promise<DuffelBookingRecord> {
    const key = { tenantId_idempotencyKey: { tenantId, idempotencyKey: request.idempotencyKey } };
    const now = clock.now();
    const row = await this.db.prisma.duffelBooking.upsert({
      where: key,
      create: {
        id: request.orderId ?? newId("ord", now.getTime()),
        tenantId,
        idempotencyKey: request.idempotencyKey,
        connectionId,
        account: request.account ?? "tenant",
        offerId: request.offerId,
        status: "requested",
        createdAt: now,
        updatedAt: now,
      },
      update: {},
    });
    if (row.offerId !== request.offerId) throw appError("idempotency_key_reused", { field: "Idempotency-Key" });
    if (row.status !== "booked") await this.db.prisma.duffelBooking.updateMany({ where: { id: row.id, status: { not: "booked" } }, data: { status: "requested", updatedAt: now } });
    return { ...recordFromRow(row), status: row.status === "booked" ? "booked" : "requested" };
  }
}

/** Duffel's order of the booking's offer carrying our order id, unless it was cancelled (an undone booking: a repeat books afresh); null when there is none. */
async function liveOrderOf(connector: DuffelConnector, booking: Pick<DuffelBookingRecord, "id" | "offerId">): Promise<DuffelOrder | null> {
  const order = await connector.findOfferOrder(booking.offerId, ORDER_ID_METADATA, booking.id);
  return order && order.cancelled_at === null ? order : null;
}

function orderBody(orderId: string, request: DuffelBookingRequest) {
  return {
    type: request.type,
    selected_offers: [request.offerId] as [string],
    passengers: request.passengers,
    ...(request.type === "instant" && request.payment && { payments: [{ type: "balance" as const, amount: request.payment.amount, currency: request.payment.currency }] }),
    ...(request.type === "instant" && request.services?.length && { services: request.services.map((service) => ({ id: service.id, quantity: service.quantity })) }),
    metadata: { [ORDER_ID_METADATA]: orderId },
  };
}

type BookingRow = Omit<DuffelBookingRecord, "status" | "account"> & { status: string; account: string };

function recordFromRow(row: BookingRow): DuffelBookingRecord {
  return {
    id: row.id,
    tenantId: row.tenantId,
    status: row.status === "booked" ? "booked" : row.status === "failed" ? "failed" : "requested",
    account: row.account === "platform" ? "platform" : "tenant",
    offerId: row.offerId,
    duffelOrderId: row.duffelOrderId,
    bookingReference: row.bookingReference,
    totalAmount: row.totalAmount,
    totalCurrency: row.totalCurrency,
    paymentRequiredBy: row.paymentRequiredBy,
  };
}
