import { AppError } from "../../errors/app-error";
import type { CancellationQuote, OrderRef } from "../../gateway/contract/bookings";
import { onAccount, type DuffelAccounts } from "./duffel-accounts";
import type { DuffelBookingRecord, DuffelBookings } from "./duffel-bookings";
import { convertedAmount } from "./duffel-prices";
import type { DuffelConnector } from "./duffel-connector";

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
    const booked = await this.booked(order);
    const quote = await this.on(booked, (connector) => connector.quoteCancellation(booked.duffelOrderId!));
    const refundAmount = quote.refund_amount === null ? 0 : convertedAmount(quote.refund_amount, quote.refund_currency ?? currency, currency).amountMinor;
    return { reference: quote.id, refundAmount, expiresAt: quote.expires_at === null ? null : new Date(quote.expires_at) };
  }

  /**
   * Confirms Duffel's quote `reference` (the one our confirmed quote repeats), or, without one, a
   * quote asked now: the order is cancelled at Duffel and Duffel refunds it. Confirmed already, or
   * cancelled at Duffel otherwise, it is done: safe to repeat.
   */
  async refund(order: Pick<OrderRef, "id" | "tenantId">, reference: string | null | undefined): Promise<void> {
    const booked = await this.booked(order);
    await this.on(booked, (connector) => connector.cancelOrder(booked.duffelOrderId!, reference));
  }

  /**
   * Cancels at Duffel the orders among `orderIds` that are Duffel's (any other id is not this
   * supplier's, and is passed over): a booked one through a quote confirmed at once, one recorded
   * but never settled (its process stopped between Duffel's answer and the record) by finding
   * Duffel's order under our order id; either is given back (`failed`) then. A refusal is left be
   * (Duffel lets an unpaid hold lapse at its own deadline); a failure without an answer is thrown,
   * for the release to be asked again.
   */
  async cancelAll(orderIds: readonly string[]): Promise<void> {
    for (const booking of await this.bookings.liveAmong(orderIds)) {
      try {
        if (booking.status === "booked") await this.refund(booking, null);
        else await this.cancelUnsettled(booking);
        await this.bookings.cancelled(booking.id);
      } catch (error) {
        if (!(error instanceof AppError && error.status < 500)) throw error;
      }
    }
  }

  /** A booking recorded but never settled: Duffel's order under our order id cancelled, if it has one. */
  private async cancelUnsettled(booking: DuffelBookingRecord): Promise<void> {
    const order = await this.bookings.duffelOrderOf(booking);
    if (order) await this.on(booking, (connector) => connector.cancelOrder(order.id, null));
  }

  private async booked(order: Pick<OrderRef, "id" | "tenantId">): Promise<DuffelBookingRecord> {
    const booked = await this.bookings.find(order.tenantId, order.id);
    if (booked?.status !== "booked" || !booked.duffelOrderId) throw new AppError("not_found", { reason: `order ${order.id} has no order at Duffel` });
    return booked;
  }

  private async on<T>(booked: DuffelBookingRecord, call: (connector: DuffelConnector) => Promise<T>): Promise<T> {
    return onAccount(this.accounts, await this.bookings.account(booked.tenantId), call);
  }
}
