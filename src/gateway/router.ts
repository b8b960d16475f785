import { appError } from "../errors/app-error";
import type { BookingRef } from "./contract/bookings";
import type { Capabilities, CapabilityName } from "./contract/capabilities";
import type { Settlement } from "./contract/connector";
import type { EverySupplier, OrderSuppliers, SupplierSubject } from "./contract/gateway";
import type { Supplier } from "./contract/supplier";
import type { SupplierRegistry } from "./registry";

/**
 * Every call after the search, sent to the supplier of the offer or order it concerns (its
 * offer's). A capability its supplier does not declare is refused here and nowhere else (422
 * `unsupported_by_supplier`). Calls naming only bookings (undoing or finishing what a crashed
 * process left, whose supplier is not recorded) go to every supplier that could hold them: each
 * does what concerns it. Searches are the fan-out's (fan-out.ts), never this router's.
 */
export class OrderRouter implements OrderSuppliers {
  readonly everySupplier: EverySupplier;

  constructor(private readonly registry: SupplierRegistry) {
    const all = registry.all;
    this.everySupplier = {
      async cancelBookings(bookings: readonly BookingRef[]) {
        for (const entry of all) await entry.supplier.cancelBookings(bookings);
      },
      async cancelSeatSale(booking: BookingRef, saleId: string) {
        for (const entry of all) await entry.capabilities.services?.cancelSeatSale(booking, saleId);
      },
      async completeChange(booking: BookingRef, changeId: string, release: readonly string[]) {
        for (const entry of all) await entry.capabilities.orderChanges?.completeChange(booking, changeId, release);
      },
      async cancelChange(booking: BookingRef, changeId: string) {
        for (const entry of all) await entry.capabilities.orderChanges?.cancelChange(booking, changeId);
      },
    };
  }

  supplierOf(subject: SupplierSubject): Supplier {
    return this.registry.of(subject).supplier;
  }

  does(subject: SupplierSubject, capability: CapabilityName): boolean {
    return this.registry.of(subject).capabilities[capability] !== undefined;
  }

  declared<K extends CapabilityName>(subject: SupplierSubject, capability: K): Capabilities[K] | undefined {
    return this.registry.of(subject).capabilities[capability] as Capabilities[K] | undefined;
  }

  require<K extends CapabilityName>(subject: SupplierSubject, capability: K, what: string, named: "offer" | "order"): Capabilities[K] {
    const entry = this.registry.of(subject);
    const declared = entry.capabilities[capability];
    if (declared === undefined) throw appError("unsupported_by_supplier", { message: `The ${named}'s supplier ${entry.ref.id} (${entry.ref.name}) does not offer ${what}.` });
    return declared as Capabilities[K];
  }

  runsOnMovedClock(subject: SupplierSubject): boolean {
    return this.registry.of(subject).runsOnMovedClock;
  }

  /** An offer found with the owner's platform account is the wallet's to settle (the owner pays the supplier); any other, its connector's. */
  settlement(subject: SupplierSubject): Settlement {
    return subject.supplierOffer?.account === "platform" ? "wallet" : this.registry.of(subject).settlement;
  }
}
