/**
 * What an order can ask of its supplier beyond booking, holding, paying and cancelling, which
 * every supplier does:
 * - `change`, `add_services`, `select_seats`, `airline_changes`: the order's actions of those names;
 * - `update_passengers`: changing passengers' details on a hold (the airline keeps no names until ticketing);
 * - `reprice`: an unpaid hold past its price guarantee is priced again by the simulated airline's
 *   rule (orders/payment/repricing.ts); a supplier without it prices the booking itself when paid;
 * - `moved_clock`: it runs on a sandbox tenant's clock moved ahead (docs/sandbox-clock.md), as the
 *   simulated suppliers, living on our time, do; a remote one's time cannot be moved.
 */
export type SupplierCapability = "change" | "add_services" | "select_seats" | "airline_changes" | "update_passengers" | "reprice" | "moved_clock";

const EVERY_CAPABILITY: ReadonlySet<SupplierCapability> = new Set(["change", "add_services", "select_seats", "airline_changes", "update_passengers", "reprice", "moved_clock"]);

/**
 * What each supplier cannot be asked, by id. Low-cost carriers sell bags and seats but change no
 * booking (a new flight is a new booking), so neither a change nor an airline's change applies.
 * Duffel's orders are booked, paid and cancelled through its API; its seats, services after
 * booking, changes and airline changes are not wired yet (docs/duffel.md#not-covered-yet), its
 * holds carry the passengers' names from booking on, and it prices its own holds.
 * A supplier not listed (the network) does everything.
 */
const LIMITED: Readonly<Record<string, ReadonlySet<SupplierCapability>>> = {
  simulated_lcc: new Set(["add_services", "select_seats", "update_passengers", "reprice", "moved_clock"]),
  duffel: new Set(),
};

/** What the supplier `id` does besides booking, holding, paying and cancelling. */
export function supplierCapabilities(id: string): ReadonlySet<SupplierCapability> {
  return LIMITED[id] ?? EVERY_CAPABILITY;
}
