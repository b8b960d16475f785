import type { BookingAnswer, BookingRef, CancellationQuote, OrderRef, RefundOutcome, SupplierBooking, SupplierOrder, TicketingAnswer } from "./bookings";
import type { SupplierOffer, SupplierSearch } from "./offers";

/**
 * The core of the contract between the gateway and whatever sells flights: what every supplier
 * does, shaped as airline commerce: search, book, ticket (pay), cancel (a quote, then its
 * confirmation), refund, and read a booking. What only some suppliers do is a capability
 * (capabilities.ts), declared by the connector in its own folder.
 *
 * A supplier is a remote system (docs/supplier-contract.md): nothing crosses the contract but
 * data, no call is made inside one of our transactions, and every call that changes the
 * supplier's state is keyed by our ids (the order's, an addition's, a change's), so repeating it
 * gives the same answer. Offers are priced in USD minor units; the gateway's callers convert them.
 */
export interface Supplier {
  /** Offers for the search, at most 50, in no particular order. */
  search(request: SupplierSearch): Promise<SupplierOffer[]>;
  /**
   * Books the offer for the order (`booking.id`), with the seats chosen at booking, all or
   * nothing: held until paid, `pay_now` for an offer it cannot hold, or `accepted`, to be
   * confirmed or failed later (read again with `readOrder`). Asked again for the
   * same order, it finds its booking and answers the same.
   * @throws SeatsUnavailable, SeatTaken, or the catalogue's 4xx (`offer_no_longer_available`, `price_changed`): nothing was booked.
   */
  book(booking: SupplierBooking): Promise<BookingAnswer>;
  /**
   * Gives back what these bookings hold (a hold let go, an order cancelled, a booking that never
   * became an order), in one go. A call naming only bookings is asked of every supplier: each
   * lets go of what it holds, and a booking it holds nothing of is passed over.
   */
  cancelBookings(bookings: readonly BookingRef[]): Promise<void>;
  /** The booking as the supplier has it now, or null when it has none for our order id. */
  readOrder(booking: BookingRef): Promise<SupplierOrder | null>;
  /** Tickets (and pays) the booking. A rejection also gives its seats back. */
  issueTickets(booking: SupplierBooking): Promise<TicketingAnswer>;
  /**
   * What cancelling the ticketed booking refunds, in minor units of `currency`, as the supplier's
   * own quote, named for `refundTickets` to confirm; nothing changes at the supplier until then.
   * Null when the supplier leaves the price to our refund rule.
   */
  quoteCancellation(order: OrderRef, currency: string): Promise<CancellationQuote | null>;
  /**
   * Refunds the booking's tickets (confirming the supplier's own quote `quoteReference`, when it
   * gave one); their seats go back on sale. An airline that refunds to credits instead of cash
   * answers them (asked again, the same credits).
   */
  refundTickets(booking: SupplierBooking, quoteReference: string | null): Promise<RefundOutcome | void>;
}
