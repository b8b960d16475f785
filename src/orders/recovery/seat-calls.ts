import { appError } from "../../errors/app-error";
import { SeatsUnavailable, SeatTaken, type BookingRef, type SeatChoice, type SeatExchange, type Supplier, type SupplierBooking } from "../../gateway/contract/supplier";
import type { SeatCall, SeatCallKind, SeatCallSubject, SeatIntentKind, SeatIntents } from "./seat-intents";

/**
 * The airline call that takes back what a call before an order's commit did (the commit never
 * came): a booking's hold released, a sale cancelled, an exchange cancelled. Safe to repeat.
 */
export function undoSeatCall(supplier: Supplier, kind: SeatCallKind, orderId: string, id: string): Promise<void> {
  if (kind === "hold") return supplier.releaseSeats(orderId);
  if (kind === "sale") return supplier.cancelSeatSale(orderId, id);
  return supplier.cancelSeatExchange(orderId, id);
}

/** The airline call owed after an order's commit: a cancelled order's seats released, a change's flights left released. Safe to repeat. */
export function finishSeatCall(supplier: Supplier, kind: Exclude<SeatIntentKind, SeatCallKind>, orderId: string, id: string, release: readonly string[]): Promise<void> {
  return kind === "release" ? supplier.releaseSeats(orderId) : supplier.completeSeatExchange(orderId, id, release);
}

/**
 * The intent, call, commit, reconcile sequence of seat work asked of the airline before an
 * order's commit (docs/supplier-contract.md#the-sequence): the intent is written first, then the
 * airline is asked, outside any transaction of ours; the caller's commit carries
 * `SeatIntents.committed(call)`. A commit that fails is undone here at once, and whatever a crash
 * leaves is undone (or finished) by the seat reconciler.
 */
export class SeatCalls {
  constructor(
    readonly intents: SeatIntents,
    private readonly supplier: Supplier,
  ) {}

  /** Supplier.holdSeats for a new order, under a `hold` intent keyed by the order's id. */
  hold(booking: SupplierBooking) {
    return this.make("hold", { id: booking.id, orderId: booking.id, tenantId: booking.tenantId }, () => this.supplier.holdSeats(booking));
  }

  /** Supplier.sellSeats, under a `sale` intent keyed by the sale's id (the addition's). */
  sell(booking: BookingRef, saleId: string, seats: readonly SeatChoice[]) {
    return this.make("sale", { id: saleId, orderId: booking.id, tenantId: booking.tenantId }, () => this.supplier.sellSeats(booking, saleId, seats));
  }

  /**
   * Supplier.exchangeSeats, under an `exchange` intent keyed by the change's id: the call, for
   * the commit. "raced" when a racing request's exchange of the same change was under way (it is
   * settled now: read the change again); "committed" when, once the intent is this request's,
   * `committed()` says a racing request committed the change before (the airline's exchange is
   * that commit's, neither to be made again nor undone). 409 `order_state_conflict` when the
   * racing request's intent is not settled within two leases. @throws SeatsUnavailable
   */
  async exchange(booking: BookingRef, exchangeId: string, exchange: SeatExchange, committed: () => Promise<boolean>): Promise<SeatCall | "raced" | "committed"> {
    const made = await this.make("exchange", { id: exchangeId, orderId: booking.id, tenantId: booking.tenantId, release: exchange.release }, async () => {
      if (await committed()) return "committed";
      await this.supplier.exchangeSeats(booking, exchangeId, exchange);
      return "made";
    });
    if (made === null) {
      if (await this.intents.awaitTurn(exchangeId)) return "raced";
      throw appError("order_state_conflict", { reason: "Another request answering this change is under way; try again." });
    }
    if (made.answer === "made") return made.call;
    await this.intents.settled(made.call.id);
    return "committed";
  }

  /**
   * Writes the intent and asks the airline (`ask`); the call, for the commit. Null when a
   * racing request holds an intent of the same key (see `SeatIntents.awaitTurn`). A refusal
   * (SeatsUnavailable, SeatTaken) did nothing at the airline: the intent goes and the refusal is
   * thrown. Any other failure (a timeout) may have done the work: it is undone, or left to the
   * reconciler when the airline cannot be reached.
   */
  private async make<T>(kind: SeatCallKind, subject: SeatCallSubject, ask: () => Promise<T>): Promise<{ call: SeatCall; answer: T } | null> {
    const call = await this.intents.begin(kind, subject);
    if (!call) return null;
    try {
      return { call, answer: await ask() };
    } catch (error) {
      if (error instanceof SeatsUnavailable || error instanceof SeatTaken) await this.intents.settled(call.id);
      else await this.undo(call);
      throw error;
    }
  }

  /** The order's commit failed (or will not be tried): the call is undone at the airline and its intent goes; left to the reconciler if that fails too. */
  async undo(call: SeatCall): Promise<void> {
    try {
      await undoSeatCall(this.supplier, call.kind, call.orderId, call.id);
      await this.intents.settled(call.id);
    } catch {
      // The intent stays, leased: the seat reconciler undoes the call once the lease is over.
    }
  }

  /**
   * After a commit that owes a release (a cancellation's `release` intents): the orders' seats go
   * back on sale and the intents go. The commit stands whatever the airline says: if it cannot be
   * reached, the intents stay and the seat reconciler releases the seats after their lease.
   */
  async release(...orderIds: string[]): Promise<void> {
    if (orderIds.length === 0) return;
    try {
      await this.supplier.releaseSeats(...orderIds);
      await this.intents.settled(...orderIds);
    } catch {
      // The release intents stay: the seat reconciler gives the seats back once their lease is over.
    }
  }

  /** After the commit: an exchange's flights left are released, and the intent goes (left to the reconciler if that fails). */
  async finish(call: SeatCall): Promise<void> {
    try {
      if (call.kind === "exchange") await finishSeatCall(this.supplier, "exchanged", call.orderId, call.id, call.release);
      await this.intents.settled(call.id);
    } catch {
      // The intent stays: the seat reconciler finishes the call once the lease is over.
    }
  }
}
