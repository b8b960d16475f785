import { AppError } from "../../errors/app-error";
import { SupplierFailed } from "../../gateway/contract/errors";
import type { OrderRef, SupplierBooking, TicketingAnswer } from "../../gateway/contract/bookings";
import type { SupplierOfferRef } from "../../gateway/contract/offers";
import { convertedAmount } from "./duffel-prices";
import { onAccount, type DuffelAccounts } from "./duffel-accounts";
import type { DuffelBookingRecord, DuffelBookings } from "./duffel-bookings";
import type { DuffelExtras } from "./duffel-extras";
import { formatMinor, parseMinor } from "../../money/format";
import type { DuffelOrder } from "./duffel-shapes";
import { duffelPassengers, ourPassengerIds } from "./duffel-travellers";

/**
 * Ticketing a Duffel order (docs/duffel.md#how-an-order-maps-to-duffel), keyed by our order id so
 * that a job run again after a crash finds its work done:
 * - a hold booked at Duffel is paid (POST /air/payments, Duffel's booked total from the Duffel
 *   balance) unless Duffel has it paid already;
 * - an offer that could not be held, or booked with services, is booked now as an instant order
 *   with its services, paying the offer's total and theirs (DuffelBookings, found again by our
 *   order id);
 * then the e-tickets are Duffel's order's documents. Until Duffel has confirmed the order (a 202)
 * and issued them, the ticketing is `pending` and asked again later (the job's backoff), paying
 * nothing twice: a paid order is not paid again, an order booked is found by our order id. A refusal (the price changed, the offer is
 * gone, the token was revoked, the tenant's connection is gone, the order was cancelled at Duffel) is the airline's rejection: the
 * order fails and the wallet gets its debit back, and a hold left unpaid is cancelled at Duffel.
 * A timeout or a 5xx is thrown: the job is run again.
 */
export class DuffelTicketing {
  constructor(
    private readonly accounts: DuffelAccounts,
    private readonly bookings: DuffelBookings,
    /** What the services booked with an order cost at Duffel: an instant order pays them with the fare. */
    private readonly extras: Pick<DuffelExtras, "servicesTotal">,
    /** Cancels a hold at Duffel (the rejection gives its seats back), as the order's release does. */
    private readonly cancelHolds: (orderIds: string[]) => Promise<void>,
    /** Tells the domain Duffel cancelled the order on its side, for it to be cancelled here. */
    private readonly cancelledAtDuffel: (orderId: string) => Promise<void>,
  ) {}

  /**
   * Duffel's hold priced again before it is paid (PricedHolds): the change of Duffel's total now
   * against the offer's as booked, in minor units of `currency`; Duffel's total now is recorded as
   * the one the hold is paid at. 0 for a booking Duffel holds nothing for yet (an instant order is
   * booked at ticketing at the offer's total) or has paid. A hold Duffel cancelled on its side (no
   * webhook told us yet) is refused with 409 `order_state_conflict` before anything is paid, and
   * the domain is told, which cancels it here.
   */
  async holdPriceChange(order: OrderRef & { supplierOffer?: SupplierOfferRef }, currency: string): Promise<number> {
    const booked = await this.bookings.find(order.tenantId, order.id);
    const offer = order.supplierOffer;
    if (booked?.status !== "booked" || !booked.duffelOrderId || !offer) return 0;
    const current = await onAccount(this.accounts, await this.bookings.account(order.tenantId, booked.account), (connector) => connector.getOrder(booked.duffelOrderId!));
    if (current.cancelled_at !== null) {
      await this.cancelledAtDuffel(order.id);
      throw cancelledAtDuffel(booked.duffelOrderId);
    }
    if (!current.payment_status.awaiting_payment) return 0;
    if (current.total_amount !== booked.totalAmount || current.total_currency !== booked.totalCurrency) await this.bookings.payableAt(order.id, current);
    return convertedAmount(current.total_amount, current.total_currency, currency).amountMinor - convertedAmount(offer.totalAmount, offer.totalCurrency, currency).amountMinor;
  }

  async issueTickets(booking: SupplierBooking): Promise<TicketingAnswer> {
    const offer = booking.supplierOffer;
    if (!offer) throw new SupplierFailed(`order ${booking.id} names no Duffel offer`);
    let order: DuffelOrder;
    try {
      order = await this.paidOrder(booking);
    } catch (error) {
      // Duffel accepted the order (202) and has not confirmed it, or did not answer in time: asked again later, found by our order id.
      if (error instanceof AppError && error.code === "supplier_timeout") return { outcome: "pending", reason: "Duffel has not confirmed the order yet" };
      if (!(error instanceof AppError && error.status < 500)) throw error;
      await this.cancelHolds([booking.id]).catch(() => undefined);
      return { outcome: "rejected", reason: "airline_rejected" };
    }
    if (!order.booking_reference) return { outcome: "pending", reason: "Duffel has not confirmed the order yet" };
    const tickets = ticketsOf(order, booking, offer);
    // Paid, its tickets not issued yet: Duffel's order is read again until they are.
    if (tickets.length === 0) return { outcome: "pending", reason: "Duffel has not issued the order's e-tickets yet" };
    return { outcome: "ticketed", tickets, bookingReference: order.booking_reference };
  }

  /** Duffel's order for the booking, paid: the hold paid now, or an instant order made now; as Duffel has it after. */
  private async paidOrder(booking: SupplierBooking): Promise<DuffelOrder> {
    const offer = booking.supplierOffer!;
    const found = await this.bookings.find(booking.tenantId, booking.id);
    const held = found?.status === "booked" ? found : await this.bookInstant(booking, offer);
    const duffelOrderId = held.duffelOrderId!;
    const account = await this.bookings.account(booking.tenantId, held.account);
    return onAccount(this.accounts, account, async (connector) => {
      const order = await connector.getOrder(duffelOrderId);
      // Cancelled at Duffel (its dashboard, the airline) before we paid: nothing to pay, the ticketing is refused.
      if (order.cancelled_at !== null) throw cancelledAtDuffel(duffelOrderId);
      if (!order.payment_status.awaiting_payment) return order;
      await connector.createPayment(duffelOrderId, { amount: held.totalAmount!, currency: held.totalCurrency! });
      return connector.getOrder(duffelOrderId);
    });
  }

  /** The booking as an instant order paying the offer's total and its services' (Duffel's prices now): Duffel refuses a payment that is not the order's total. */
  private async bookInstant(booking: SupplierBooking, offer: SupplierOfferRef): Promise<DuffelBookingRecord> {
    const servicesTotal = await this.extras.servicesTotal({ ...booking, supplierOffer: offer });
    const amount = formatMinor(parseMinor(offer.totalAmount, offer.totalCurrency)! + parseMinor(servicesTotal, offer.totalCurrency)!, offer.totalCurrency);
    return this.bookings.book(booking.tenantId, {
      idempotencyKey: booking.id,
      orderId: booking.id,
      offerId: offer.id,
      account: offer.account ?? "tenant",
      type: "instant",
      passengers: duffelPassengers(booking.passengers, offer),
      services: booking.services,
      payment: { amount, currency: offer.totalCurrency },
    });
  }
}

/** The refusal to pay a Duffel order Duffel cancelled on its side (its dashboard, the airline). */
function cancelledAtDuffel(duffelOrderId: string): AppError {
  return new AppError("order_state_conflict", { reason: `Duffel's order ${duffelOrderId} was cancelled at Duffel: it can no longer be paid.` });
}

/** The e-tickets among Duffel's order documents, each for our passenger (by Duffel's passenger id, else in order). */
export function ticketsOf(order: Pick<DuffelOrder, "documents">, booking: Pick<SupplierBooking, "passengers">, offer: SupplierOfferRef): Array<{ passengerId: string; number: string }> {
  const passengerIds = ourPassengerIds(booking, offer);
  return order.documents
    .filter((document) => document.type === "electronic_ticket")
    .map((document, index) => ({ passengerId: passengerIds.get(document.passenger_ids?.[0] ?? "") ?? booking.passengers[index]?.id ?? booking.passengers[0]!.id, number: document.unique_identifier }));
}
