import { appError } from "../../errors/app-error";
import type { Airport } from "../../locations/airport";
import type { CabinClass } from "../../gateway/contract/air";
import type { BookingRef, ChangeQuoteRequest, OrderRef, ReissuedTicket, SupplierBooking, SupplierChangeOffer } from "../../gateway/contract/bookings";
import type { QuotedChanges } from "../../gateway/contract/capabilities";
import { SupplierFailed } from "../../gateway/contract/errors";
import type { SupplierSlice } from "../../gateway/contract/offers";
import type { DuffelBookings } from "./duffel-bookings";
import { toSupplierSlice, UnknownPlace } from "./duffel-offers";
import { convertedAmount } from "./duffel-prices";
import type { DuffelOrder, DuffelOrderChangeOffer, DuffelSlice } from "./duffel-shapes";
import { ticketsOf } from "./duffel-ticketing";

/**
 * Order changes of Duffel orders (docs/duffel.md#order-changes), Duffel quoting them itself, with
 * the account that booked the order: the order's slices to remove are found among Duffel's order
 * slices by their flights, Duffel is asked for change offers (`POST /air/order_change_requests`),
 * and confirming one makes the pending change (`POST /air/order_changes`) and confirms it paying
 * its change total from the Duffel balance (`…/actions/confirm`). A confirmation repeated finds
 * Duffel's change of the offer (`order_change_id`) and confirms it only if it is not confirmed
 * yet. The e-tickets after the change are Duffel's order documents, read again.
 */
export class DuffelQuotedChanges implements QuotedChanges {
  constructor(
    private readonly bookings: DuffelBookings,
    private readonly airportByIata: (code: string) => Airport | undefined,
  ) {}

  async quoteChanges(booking: OrderRef, request: ChangeQuoteRequest, currency: string): Promise<SupplierChangeOffer[]> {
    const booked = await this.bookings.bookedOrder(booking);
    return this.bookings.on(booked, async (connector) => {
      const order = await connector.getOrder(booked.duffelOrderId);
      const remove = request.remove.map(({ flightKeys }) => ({ slice_id: this.sliceOf(order, flightKeys).id }));
      const add = request.add.map((slice) => ({ origin: slice.origin, destination: slice.destination, departure_date: slice.departureDate, cabin_class: request.cabinClass }));
      const asked = await connector.requestChange(order.id, { remove, add });
      return asked.order_change_offers.flatMap((offer) => {
        const quoted = this.quoteOf(offer, currency, request.cabinClass);
        return quoted ? [quoted] : [];
      });
    });
  }

  async confirmQuotedChange(booking: BookingRef, supplierOfferId: string): Promise<void> {
    const booked = await this.bookings.bookedOrder(booking);
    await this.bookings.on(booked, async (connector) => {
      const offer = await connector.getChangeOffer(supplierOfferId);
      const pending = offer.order_change_id ? await connector.getChange(offer.order_change_id) : await connector.createChange(offer.id);
      if (pending.confirmed_at !== null) return;
      const owed = pending.change_total_amount !== null && Number(pending.change_total_amount) > 0;
      await connector.confirmChange(pending.id, owed ? { amount: pending.change_total_amount!, currency: pending.change_total_currency! } : null);
    });
  }

  /** Duffel's order documents as they are after the change: asked again (the job's backoff) until Duffel shows e-tickets. */
  async reissueTickets(booking: SupplierBooking): Promise<ReissuedTicket[]> {
    const booked = await this.bookings.bookedOrder(booking);
    if (!booking.supplierOffer) throw new SupplierFailed(`order ${booking.id} names no Duffel offer`);
    const order = await this.bookings.on(booked, (connector) => connector.getOrder(booked.duffelOrderId));
    const tickets = ticketsOf(order, booking, booking.supplierOffer);
    if (tickets.length === 0) throw new SupplierFailed("Duffel has not reissued the changed order's e-tickets yet");
    return tickets;
  }

  /** Duffel's slice of the order flying exactly these flights (our order's slice); 422 when Duffel's order has none (it changed at Duffel). */
  private sliceOf(order: DuffelOrder, flightKeys: readonly string[]): DuffelSlice {
    const found = order.slices.find((slice) => {
      const segments = this.supplierSlice(slice)?.segments ?? [];
      return segments.length === flightKeys.length && segments.every((segment, index) => segment.flightKey === flightKeys[index]);
    });
    if (!found) throw appError("order_state_conflict", { reason: "Duffel's order no longer flies the slice to remove: read the order again." });
    return found;
  }

  /** Duffel's change offer in the contract's terms, priced in `currency`; null for one without a price or with a place we do not know. */
  private quoteOf(offer: DuffelOrderChangeOffer, currency: string, cabinClass: CabinClass): SupplierChangeOffer | null {
    if (offer.change_total_amount === null || offer.change_total_currency === null) return null;
    const added = offer.slices.add.map((slice) => this.supplierSlice(slice, cabinClass));
    if (added.some((slice) => slice === null)) return null;
    const penalty = offer.penalty_total_amount ?? offer.penalty_amount ?? null;
    const penaltyCurrency = offer.penalty_total_currency ?? offer.penalty_currency ?? offer.change_total_currency;
    return {
      supplierOfferId: offer.id,
      added: added as SupplierSlice[],
      changeTotalAmount: convertedAmount(offer.change_total_amount, offer.change_total_currency, currency).amountMinor,
      penaltyAmount: penalty === null ? 0 : convertedAmount(penalty, penaltyCurrency, currency).amountMinor,
      expiresAt: new Date(offer.expires_at),
    };
  }

  /**
   * A Duffel slice as the contract states it (duffel-offers.ts), or null for a place we do not
   * know. A change offer's segments carry no passengers, so their cabin is the one asked.
   */
  private supplierSlice(slice: DuffelSlice, cabinClass?: CabinClass): SupplierSlice | null {
    try {
      const mapped = toSupplierSlice({ ...slice, segments: slice.segments.map((segment) => ({ ...segment, passengers: segment.passengers ?? [] })) }, new Map(), this.airportByIata);
      return cabinClass ? { ...mapped, segments: mapped.segments.map((segment) => ({ ...segment, cabinClass })) } : mapped;
    } catch (error) {
      if (error instanceof UnknownPlace) return null;
      throw error;
    }
  }
}
