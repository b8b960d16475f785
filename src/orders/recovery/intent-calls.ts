import { appError } from "../../errors/app-error";
import type { BookedService, BookingRef, SeatChoice, SupplierBooking } from "../../gateway/contract/bookings";
import type { Services } from "../../gateway/contract/capabilities";
import { inCatalogueWords, isRefusal } from "../../gateway/contract/errors";
import type { EverySupplier } from "../../gateway/contract/gateway";
import type { Supplier } from "../../gateway/contract/supplier";
import type { CallIntents, CallKind, CallSubject, IntentCall, IntentKind } from "./call-intents";

/**
 * The supplier call that takes back what a call before an order's commit did (the commit never
 * came): a booking given back, a sale cancelled, a change cancelled. Named only by the booking
 * and the call's key, so every supplier is asked, and each undoes what it did, if anything.
 * Safe to repeat.
 */
export function undoCall(suppliers: EverySupplier, kind: CallKind, booking: BookingRef, id: string): Promise<void> {
  if (kind === "hold") return suppliers.cancelBookings([booking]);
  if (kind === "sale") return suppliers.cancelSeatSale(booking, id);
  return suppliers.cancelChange(booking, id);
}

/** The supplier call owed after an order's commit: a cancelled order's booking given back, a change's flights left released. Safe to repeat. */
export function finishCall(suppliers: EverySupplier, kind: Exclude<IntentKind, CallKind>, booking: BookingRef, id: string, release: readonly string[]): Promise<void> {
  return kind === "release" ? suppliers.cancelBookings([booking]) : suppliers.completeChange(booking, id, release);
}

/** The key of the intent of an order's sale paid at the supplier: one per order at a time. */
export function paidSaleKey(orderId: string): string {
  return `${orderId}.services`;
}

/**
 * The intent, call, commit, reconcile sequence of every supplier's state-changing call made
 * before an order's commit (docs/supplier-contract.md#the-sequence), whichever the supplier: the
 * intent is written first, then the supplier is asked, outside any transaction of ours; the
 * caller's commit carries `CallIntents.committed(call)`. A commit that fails is undone here at
 * once, and whatever a crash leaves is undone (or finished) by the reconciler.
 */
export class IntentCalls {
  constructor(
    readonly intents: CallIntents,
    /** Calls naming only a booking: undoing and finishing ask every supplier. */
    private readonly suppliers: EverySupplier,
  ) {}

  /**
   * `book` of the order's supplier for a new order, under a `hold` intent keyed by the order's id.
   * A booking that failed without an answer is read back first: what the supplier holds of it is
   * given back, and a booking it never made leaves nothing to undo.
   */
  book(supplier: Supplier, booking: SupplierBooking) {
    return this.make("hold", { id: booking.id, booking }, () => supplier.book(booking), async (call) => {
      if ((await supplier.readOrder(booking).catch(() => undefined)) === null) await this.intents.settled(call.id);
      else await this.undo(call);
    });
  }

  /** `sellSeats` of the order's supplier, under a `sale` intent keyed by the sale's id (the addition's). */
  sell(services: Services, booking: BookingRef, saleId: string, seats: readonly SeatChoice[]) {
    return this.make("sale", { id: saleId, booking }, () => services.sellSeats(booking, saleId, seats));
  }

  /**
   * `sellServices` of the order's supplier: a sale paid at the supplier, which cannot be undone,
   * under a `sale` intent keyed by the order (`paidSaleKey`: one such sale of an order at a time,
   * so racing additions never both pay) that carries what its commit writes (`commits`). A call
   * that fails without a refusal may have paid: its intent stays, and once its lease is over the
   * reconciler commits the addition if the supplier made the sale, or drops it. "raced" when
   * another addition's sale of the order was under way (it is settled now: read the order again),
   * or, once the intent is this request's, `unchanged()` says another addition committed since
   * the booking was read (the supplier is not asked); 409 `order_state_conflict` when a racing
   * sale is not settled within two leases.
   */
  async sellPaid(services: Services, booking: SupplierBooking, saleId: string, sold: readonly BookedService[], commits: object, unchanged: () => Promise<boolean>): Promise<IntentCall | "raced"> {
    const key = paidSaleKey(booking.id);
    const made = await this.make(
      "sale",
      { id: key, booking, commits },
      async () => {
        if (!(await unchanged())) return "changed";
        await services.sellServices(booking, saleId, sold);
        return "sold";
      },
      // It may have been paid: the reconciler finds out, once the lease is over.
      () => Promise.resolve(),
    );
    if (made?.answer === "sold") return made.call;
    if (made) {
      await this.intents.settled(made.call.id);
      return "raced";
    }
    if (await this.intents.awaitTurn(key)) return "raced";
    throw appError("order_state_conflict", { reason: "Another addition of services to this order is under way; try again." });
  }

  /**
   * The order's supplier's change call (`ask`: its `changeFlights`, or its confirmation of a change
   * it quoted), under an `exchange` intent keyed by the change's id, leaving `release` once
   * committed: the call, for the commit. "raced" when a racing request's change of the same id was under way
   * (it is settled now: read the change again); "committed" when, once the intent is this
   * request's, `committed()` says a racing request committed the change before (the supplier's
   * change is that commit's, neither to be made again nor undone). 409 `order_state_conflict`
   * when the racing request's intent is not settled within two leases. @throws SeatsUnavailable
   */
  async change(booking: BookingRef, changeId: string, release: readonly string[], ask: () => Promise<void>, committed: () => Promise<boolean>): Promise<IntentCall | "raced" | "committed"> {
    const made = await this.make("exchange", { id: changeId, booking, release }, async () => {
      if (await committed()) return "committed";
      await ask();
      return "made";
    });
    if (made === null) {
      if (await this.intents.awaitTurn(changeId)) return "raced";
      throw appError("order_state_conflict", { reason: "Another request answering this change is under way; try again." });
    }
    if (made.answer === "made") return made.call;
    await this.intents.settled(made.call.id);
    return "committed";
  }

  /**
   * Writes the intent and asks the supplier (`ask`); the call, for the commit. Null when a
   * racing request holds an intent of the same key (see `CallIntents.awaitTurn`). A refusal
   * (contract/errors.ts: nothing was done) lets the intent go and is thrown. Any other failure (a
   * timeout) may have done the work: it is undone (`undo`, by default the call's undo), or left to
   * the reconciler when the supplier cannot be reached, and thrown in the catalogue's words (502,
   * 504).
   */
  private async make<T>(kind: CallKind, subject: CallSubject, ask: () => Promise<T>, undo: (call: IntentCall) => Promise<void> = (call) => this.undo(call)): Promise<{ call: IntentCall; answer: T } | null> {
    const call = await this.intents.begin(kind, subject);
    if (!call) return null;
    try {
      return { call, answer: await ask() };
    } catch (error) {
      if (isRefusal(error)) await this.intents.settled(call.id);
      else await undo(call).catch(() => undefined);
      throw inCatalogueWords(error);
    }
  }

  /** The order's commit failed (or will not be tried): the call is undone at the supplier and its intent goes; left to the reconciler if that fails too. */
  async undo(call: IntentCall): Promise<void> {
    try {
      await undoCall(this.suppliers, call.kind, call.booking, call.id);
      await this.intents.settled(call.id);
    } catch {
      // The intent stays, leased: the reconciler undoes the call once the lease is over.
    }
  }

  /**
   * After a commit that owes a release (a cancellation's `release` intents): the orders' bookings
   * are given back and the intents go. The commit stands whatever the supplier says: if it cannot
   * be reached, the intents stay and the reconciler gives them back after their lease.
   */
  async release(...bookings: BookingRef[]): Promise<void> {
    if (bookings.length === 0) return;
    try {
      await this.suppliers.cancelBookings(bookings);
      await this.intents.settled(...bookings.map((booking) => booking.id));
    } catch {
      // The release intents stay: the reconciler gives the bookings back once their lease is over.
    }
  }

  /** After the commit: a change's flights left are released, and the intent goes (left to the reconciler if that fails). */
  async finish(call: IntentCall): Promise<void> {
    try {
      if (call.kind === "exchange") await finishCall(this.suppliers, "exchanged", call.booking, call.id, call.release);
      await this.intents.settled(call.id);
    } catch {
      // The intent stays: the reconciler finishes the call once the lease is over.
    }
  }
}
