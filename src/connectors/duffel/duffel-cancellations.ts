import { AppError } from "../../errors/app-error";
import type { CancellationQuote, OrderRef, RefundOutcome, SupplierBooking } from "../../gateway/contract/bookings";
import type { DuffelOrderCancellation } from "./duffel-shapes";
import { ourPassengerIds } from "./duffel-travellers";
import type { DuffelAccounts } from "./duffel-accounts";
import type { DuffelBookingRecord, DuffelBookings } from "./duffel-bookings";
import { convertedAmount } from "./duffel-prices";

/**
 * Cancelling Duffel orders through Duffel's order cancellations (a quote, then its confirmation):
 * a ticketed order's refund is Duffel's quote, converted to the order's currency, and its
 * confirmation is the refund; an order over on our side (cancelled unpaid, past its deadline,
 * failed) is cancelled at Duffel so that its seats go back.
 */
export class DuffelCancellations {
  constructor(
    private readonly accounts: DuffelAccounts,
    private readonly bookings: DuffelBookings,
  ) {}

  /** Duffel's quote for cancelling the order: its refund in minor units of `currency` (the static table's rate when Duffel's currency is another), until Duffel's expiry. */
  async quote(order: Pick<OrderRef, "id" | "tenantId">, currency: string): Promise<CancellationQuote> {
    const booked = await this.bookings.bookedOrder(order);
    return quoteOf(await this.bookings.on(booked, (connector) => connector.quoteCancellation(booked.duffelOrderId!)), currency);
  }

  /**
   * The cancellation made at Duffel outside our API (its dashboard, the airline), as a confirmed
   * quote; null while Duffel's order is not cancelled, or for an order that is not Duffel's. An
   * order Duffel shows cancelled with no confirmed cancellation refunds nothing.
   */
  async cancellationAtSupplier(order: Pick<OrderRef, "id" | "tenantId">, currency: string): Promise<CancellationQuote | null> {
    const booked = await this.bookings.find(order.tenantId, order.id);
    if (booked?.status !== "booked" || !booked.duffelOrderId) return null;
    const duffelOrder = await this.bookings.on(booked, (connector) => connector.getOrder(booked.duffelOrderId!));
    if (duffelOrder.cancelled_at === null) return null;
    const confirmed = await this.bookings.on(booked, (connector) => connector.cancelOrder(booked.duffelOrderId!, null));
    return confirmed ? quoteOf(confirmed, currency) : { reference: "", refundAmount: 0, expiresAt: null };
  }

  /**
   * Confirms Duffel's quote `reference` (the one our confirmed quote repeats), or, without one, a
   * quote asked now: the order is cancelled at Duffel and Duffel refunds it. Confirmed already, or
   * cancelled at Duffel otherwise, it is done: safe to repeat.
   */
  async refund(order: Pick<OrderRef, "id" | "tenantId">, reference: string | null | undefined): Promise<DuffelOrderCancellation | null> {
    const booked = await this.bookings.bookedOrder(order);
    return this.bookings.on(booked, (connector) => connector.cancelOrder(booked.duffelOrderId!, reference));
  }

  /**
   * Refunds the booking's tickets (`refund`); when Duffel refunded to airline credits or a voucher,
   * those credits, in minor units of their currency, under our passenger ids and the airline that
   * owns the order. Credits with no amount stated keep it unknown (null).
   */
  async refundTickets(booking: SupplierBooking, reference: string | null): Promise<RefundOutcome | void> {
    const cancellation = await this.refund(booking, reference);
    if (!cancellation || !refundsToCredits(cancellation) || !booking.supplierOffer) return;
    const passengerIds = ourPassengerIds(booking, booking.supplierOffer);
    const credits = cancellation.airline_credits?.length
      ? cancellation.airline_credits
      : [{ id: cancellation.id, passenger_id: null, credit_amount: cancellation.refund_amount, credit_currency: cancellation.refund_currency, credit_code: null, credit_name: null, expires_at: null, issued_on: null }];
    return {
      airlineCredits: credits.map((credit) => ({
        passengerId: credit.passenger_id === null ? null : (passengerIds.get(credit.passenger_id) ?? null),
        airlineIataCode: booking.segments[0]?.marketingCarrier.iataCode ?? null,
        amount: credit.credit_amount === null || credit.credit_currency === null ? null : convertedAmount(credit.credit_amount, credit.credit_currency, credit.credit_currency).amountMinor,
        currency: credit.credit_currency,
        code: credit.credit_code,
        name: credit.credit_name,
        expiresAt: credit.expires_at === null ? null : new Date(credit.expires_at),
      })),
    };
  }

  /**
   * Cancels at Duffel the orders among `orderIds` that are Duffel's (any other id is not this
   * supplier's, and is passed over): a booked one through a quote confirmed at once, one recorded
   * but never settled (its process stopped between Duffel's answer and the record) by finding
   * Duffel's order under our order id; either is given back (`failed`) then, as is one Duffel no
   * longer has (404: it failed an order it had accepted). Another refusal is left be (Duffel lets an
   * unpaid hold lapse at its own deadline); a failure without an answer is thrown, for the release
   * to be asked again.
   */
  async cancelAll(orderIds: readonly string[]): Promise<void> {
    for (const booking of await this.bookings.liveAmong(orderIds)) {
      try {
        if (booking.status === "booked") await this.refund(booking, null);
        else await this.cancelUnsettled(booking);
        await this.bookings.cancelled(booking.id);
      } catch (error) {
        if (!(error instanceof AppError && error.status < 500)) throw error;
        if (error.code === "not_found") await this.bookings.cancelled(booking.id);
      }
    }
  }

  /** A booking recorded but never settled: Duffel's order under our order id cancelled, if it has one. */
  private async cancelUnsettled(booking: DuffelBookingRecord): Promise<void> {
    const order = await this.bookings.duffelOrderOf(booking);
    if (order) await this.bookings.on(booking, (connector) => connector.cancelOrder(order.id, null));
  }
}

/** Duffel refunds the cancellation to credits with the airline (airline credits, a voucher), not to money. */
function refundsToCredits(cancellation: Pick<DuffelOrderCancellation, "refund_to">): boolean {
  return cancellation.refund_to === "airline_credits" || cancellation.refund_to === "voucher";
}

/** Duffel's cancellation as our quote, its refund in minor units of `currency`: credits are no cash refund, and a cash refund Duffel does not price is unknown, never 0. */
function quoteOf(cancellation: DuffelOrderCancellation, currency: string): CancellationQuote {
  if (cancellation.refund_amount === null && !refundsToCredits(cancellation)) throw new AppError("supplier_error", { reason: "Duffel gave the cancellation no refund amount; ask again later." });
  const refundAmount = refundsToCredits(cancellation) ? 0 : convertedAmount(cancellation.refund_amount!, cancellation.refund_currency ?? currency, currency).amountMinor;
  return { reference: cancellation.id, refundAmount, expiresAt: cancellation.expires_at === null ? null : new Date(cancellation.expires_at) };
}
