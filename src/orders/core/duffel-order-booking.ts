import type { Database } from "../../db/database";
import { isUniqueViolation } from "../../db/errors";
import { GuardFailed } from "../../db/write-batch";
import { DUFFEL_BOOKING_GUARD, type DuffelBookingRecord, type DuffelBookings } from "../../duffel/duffel-bookings";
import type { DuffelOrder } from "../../duffel/duffel-shapes";
import { duffelPassengers } from "../../duffel/duffel-travellers";
import { AppError, appError } from "../../errors/app-error";
import { tenantClock, type TenantClock } from "../../tenancy/tenant-clock";
import type { TenantScope } from "../../tenancy/tenant-scope";
import { orderEvent } from "../presentation/order-event-payload";
import type { OrderHolds } from "../payment/hold-deadline";
import type { UnpaidHolds } from "../payment/unpaid-holds";
import { itineraryDates, orderFrom, type Order, type OrderRecord } from "./order";
import type { OrderCommits } from "./order-commits";
import { insertOrder, TENANT_GUARD } from "./order-rows";
import type { BookedPassenger } from "./passenger-rules";

/** A booking as it ended: the order committed now (with its passengers), or the one an earlier request or the reconciler committed for the same key. */
export type DuffelOrderBooked = { order: Order; passengers: BookedPassenger[] } | { existingOrderId: string };

/** What a Duffel booking becomes on our side, kept with its intent (DuffelBooking.draft) until it is committed. */
interface OrderDraft {
  order: OrderRecord;
  passengers: BookedPassenger[];
}

/**
 * Booking a Duffel offer as an Aerogate order (docs/duffel.md#how-an-order-maps-to-duffel). The
 * offer is read from Duffel first (gone: 422 `offer_no_longer_available`; priced again: 422
 * `price_changed`; nothing is booked or debited either way). One Duffel can hold becomes a Duffel
 * `hold` order now, under DuffelBookings' intent keyed by the tenant's Idempotency-Key (record the
 * intent with the order it becomes, call Duffel, commit the order with the booking in one
 * transaction); one that requires instant payment is only our PENDING order, for 15 minutes, and
 * is booked at Duffel as an instant order when it is ticketed (duffel/duffel-ticketing.ts). After a
 * crash between Duffel's answer and our commit, the same key, or the reconciler
 * (`settleAbandoned`), finds Duffel's order by our order id and commits the order it was to become.
 * Nothing is charged until ticketing, as for every order.
 */
export class DuffelOrderBooking {
  constructor(
    private readonly db: Database,
    private readonly bookings: DuffelBookings,
    private readonly holds: OrderHolds,
    private readonly unpaidHolds: UnpaidHolds,
    private readonly commits: OrderCommits,
  ) {}

  /** Books `pending` (an order checked and priced by OrderService.create, not yet committed) for its passengers. */
  async book(scope: TenantScope, pending: Order, passengers: BookedPassenger[], idempotencyKey: string | undefined): Promise<DuffelOrderBooked> {
    const offer = pending.offer.payload.supplierOffer;
    if (!offer) throw appError("offer_no_longer_available", { reason: "The offer names no Duffel offer to book; search again." });
    const key = idempotencyKey ?? pending.id;
    const recorded = await this.bookings.forKey(scope.tenantId, key);
    if (recorded?.status === "booked") return { existingOrderId: recorded.id };
    // A first request (or one whose first try Duffel refused) checks the offer as Duffel prices it
    // now; a repeat of a hold asked already finishes that hold.
    const current = recorded?.status === "requested" ? null : await this.bookings.currentOffer(scope.tenantId, offer.id, { amount: offer.totalAmount, currency: offer.totalCurrency });
    if (current?.payment_requirements.requires_instant_payment) {
      const order = { ...pending, paymentRequiredBy: this.holds.paymentDeadline(pending.createdAt, itineraryDates(pending.offer).firstDepartureUtc, { requiresInstantPayment: true }) };
      await this.commit(order, passengers, [], scope.clock).catch((error: unknown) => {
        throw this.refusal(error) ?? error;
      });
      return { order, passengers };
    }
    const placed = await this.bookings.place(scope.tenantId, {
      idempotencyKey: key,
      orderId: pending.id,
      offerId: offer.id,
      type: "hold",
      passengers: duffelPassengers(passengers.map((passenger) => ({ traveller: passenger })), offer),
      draft: draftOf(pending, passengers),
    });
    if (!placed.order) return { existingOrderId: placed.intent.id };
    return this.finish(placed.intent, placed.order, scope.clock);
  }

  /** Settles Duffel bookings a crashed process left unfinished (DuffelBookings.settleAbandoned): each with Duffel's order becomes the order it was to be. */
  settleAbandoned(limit: number): Promise<number> {
    return this.bookings.settleAbandoned(limit, async (intent, order) => {
      if (intent.draft === null) await this.bookings.commit(intent, order);
      else await this.finish(intent, order, await this.clockOf(intent.tenantId)).catch((error: unknown) => {
        // Refused for good (the offer was booked by another order, the tenant is gone, a hold limit): undone at Duffel already.
        if (!(error instanceof AppError)) throw error;
      });
    });
  }

  /**
   * Commits the order the intent was to become, with Duffel's order: its booking reference, and a
   * payment deadline no later than Duffel's for the hold (Duffel's is real time: on the tenant's
   * clock it is as far ahead as that clock is). Settled meanwhile by another request or the
   * reconciler: that one's order stands. Refused for good (a total Duffel changed, the offer booked
   * by another order, the tenant deleted, a hold limit reached): Duffel's order is cancelled and
   * the booking failed.
   */
  private async finish(intent: DuffelBookingRecord, duffelOrder: DuffelOrder, clock: TenantClock): Promise<DuffelOrderBooked> {
    const draft = intent.draft as OrderDraft;
    const pending = orderFrom(draft.order);
    const offer = pending.offer.payload.supplierOffer!;
    if (duffelOrder.total_amount !== offer.totalAmount || duffelOrder.total_currency !== offer.totalCurrency) {
      await this.bookings.undo(intent, duffelOrder);
      throw appError("price_changed", { message: "Duffel priced the offer again and its total changed.", reason: `Duffel booked it at ${duffelOrder.total_amount} ${duffelOrder.total_currency}; search again and book a current offer.` });
    }
    const supplierDeadline = duffelOrder.payment_status.payment_required_by === null ? null : new Date(Date.parse(duffelOrder.payment_status.payment_required_by) + clock.offsetMs);
    const paymentRequiredBy = supplierDeadline && pending.paymentRequiredBy && supplierDeadline < pending.paymentRequiredBy ? supplierDeadline : pending.paymentRequiredBy;
    const order: Order = { ...pending, bookingReference: duffelOrder.booking_reference, paymentRequiredBy };
    try {
      await this.commit(order, draft.passengers, [this.bookings.booked(intent.id, duffelOrder)], clock);
    } catch (error) {
      if (error instanceof GuardFailed && error.guard === DUFFEL_BOOKING_GUARD) return { existingOrderId: intent.id };
      const refused = this.refusal(error);
      if (!refused) throw error;
      if (isUniqueViolation(error) && (await this.db.prisma.order.count({ where: { id: intent.id } })) > 0) return { existingOrderId: intent.id };
      await this.bookings.undo(intent, duffelOrder);
      throw refused;
    }
    return { order, passengers: draft.passengers };
  }

  /**
   * The order, its passengers, the wallet's hold-limit guards, its payment deadline's job and
   * `also`, with its `order.created` event dated on the tenant's clock, in one transaction.
   */
  private async commit(order: Order, passengers: readonly BookedPassenger[], also: Parameters<OrderCommits["commit"]>[1], clock: TenantClock): Promise<void> {
    await this.commits.commit(
      [order],
      [...insertOrder(this.db, order, passengers), ...this.unpaidHolds.guards(order), this.holds.expiry(order, order.paymentRequiredBy!, clock), ...also],
      [orderEvent(order, clock.now(), { type: "order.created" })],
    );
  }

  /** Why a commit failed for good, as the booking answers it; null for a failure that may pass (the booking stays, for a repeat or the reconciler). */
  private refusal(error: unknown): AppError | null {
    if (isUniqueViolation(error)) return appError("offer_no_longer_available", { reason: "The offer is booked already by another order." });
    if (error instanceof GuardFailed && error.guard === TENANT_GUARD) return appError("tenant_not_found");
    return this.unpaidHolds.refusalFor(error);
  }

  /** The tenant's clock, for a booking the reconciler finishes outside any request (real time for a tenant gone). */
  private async clockOf(tenantId: string): Promise<TenantClock> {
    const tenant = await this.db.prisma.tenant.findUnique({ where: { id: tenantId }, select: { clockOffsetSeconds: true } });
    return tenantClock(tenant ?? { clockOffsetSeconds: 0 });
  }
}

/** The order and its passengers as JSON, read back by `orderFrom` as a stored order is. */
function draftOf(order: Order, passengers: readonly BookedPassenger[]): OrderDraft {
  const { offer, ...rest } = order;
  return JSON.parse(JSON.stringify({ order: { ...rest, offerSnapshot: offer }, passengers })) as OrderDraft;
}
