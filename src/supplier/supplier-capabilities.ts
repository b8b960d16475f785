/** What an order can ask of its supplier beyond booking, holding, paying and cancelling, which every supplier does. */
export type SupplierCapability = "change" | "add_services" | "select_seats" | "airline_changes";

const EVERY_CAPABILITY: ReadonlySet<SupplierCapability> = new Set(["change", "add_services", "select_seats", "airline_changes"]);

/**
 * What each supplier cannot be asked, by id. Low-cost carriers sell bags and seats but change no
 * booking (a new flight is a new booking), so neither a change nor an airline's change applies.
 * A supplier not listed (the network, a connector to a full order API) does everything.
 */
const LIMITED: Readonly<Record<string, ReadonlySet<SupplierCapability>>> = {
  simulated_lcc: new Set(["add_services", "select_seats"]),
};

/** What the supplier `id` does besides booking, holding, paying and cancelling. */
export function supplierCapabilities(id: string): ReadonlySet<SupplierCapability> {
  return LIMITED[id] ?? EVERY_CAPABILITY;
}
