import type { Supplier } from "./contract/supplier";
import type { SupplierCapability } from "./contract/capabilities";

/** One source of flights the gateway can search and book through. */
export interface RegisteredSupplier {
  /** Stable id, as tenants name it in their `suppliers` (`simulated`, `simulated_lcc`). */
  id: string;
  name: string;
  supplier: Supplier;
  capabilities: ReadonlySet<SupplierCapability>;
  /** Searched for a tenant only once the tenant has connected its own account (an aggregator's): `forTenant` then gives it. */
  needsConnection: boolean;
  /** Whether the flight (a segment's `flightKey`) is one this supplier sells. */
  sellsFlight(flightKey: string): boolean;
  /**
   * For a supplier that needs a connection: the supplier as the tenant's own account answers a
   * search (its token), or null when the tenant has no connection to it.
   */
  forTenant?(tenantId: string): Promise<Supplier | null>;
}

/** Which supplier an offer or order came from, as they show it. */
export interface SupplierRef {
  id: string;
  name: string;
}

/** The simulated airline network: the supplier of every offer and order stored before they named theirs. */
export const NETWORK_SUPPLIER: SupplierRef = { id: "simulated", name: "Simulated airline network" };

/** The suppliers a tenant searches when it has chosen none. */
export const DEFAULT_TENANT_SUPPLIERS: readonly string[] = ["simulated", "simulated_lcc"];

/** Every supplier this process knows, by id, in the order they were registered. */
export class SupplierRegistry {
  readonly #byId: ReadonlyMap<string, RegisteredSupplier>;

  constructor(readonly all: readonly RegisteredSupplier[]) {
    this.#byId = new Map(all.map((entry) => [entry.id, entry]));
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  /** The supplier `id` names; an id no longer registered falls back to the first (orders outlive configuration). */
  get(id: string | undefined): RegisteredSupplier {
    return this.#byId.get(id ?? NETWORK_SUPPLIER.id) ?? this.all[0]!;
  }

  /** The supplier that sells the flight, else the first. */
  forFlight(flightKey: string): RegisteredSupplier {
    return this.all.find((entry) => entry.sellsFlight(flightKey)) ?? this.all[0]!;
  }

  /**
   * The suppliers a tenant's search asks, in the tenant's order (`chosen`, or the defaults):
   * registered ones only, and one that needs a connection only when the tenant has one, as the
   * tenant's own entry (its account: `forTenant`).
   */
  async searchedFor(tenantId: string, chosen: readonly string[] | null): Promise<RegisteredSupplier[]> {
    const entries = await Promise.all(
      (chosen ?? DEFAULT_TENANT_SUPPLIERS).map(async (id): Promise<RegisteredSupplier | null> => {
        const entry = this.#byId.get(id);
        if (!entry?.needsConnection) return entry ?? null;
        const own = await entry.forTenant?.(tenantId);
        return own ? { ...entry, supplier: own } : null;
      }),
    );
    return entries.filter((entry) => entry !== null);
  }
}
