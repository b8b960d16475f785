import type { DeclaredCapabilities } from "./contract/capabilities";
import type { AccountTokens, RegisteredConnector, Settlement } from "./contract/connector";
import type { SupplierSubject } from "./contract/gateway";
import { ORIGINAL_SUPPLIER, type SupplierRef } from "./contract/offers";
import type { Supplier } from "./contract/supplier";
import { pipedConnector } from "./pipeline/piped-supplier";
import type { RunCall } from "./pipeline/supplier-call";

/** One supplier the gateway searches and books through, its calls through the pipeline. */
export interface RegisteredSupplier {
  ref: SupplierRef;
  supplier: Supplier;
  capabilities: DeclaredCapabilities;
  runsOnMovedClock: boolean;
  settlement: Settlement;
  searchedByDefault: boolean;
  account?: AccountTokens;
}

/** Every supplier this process knows, by id, in the order the composition root registered them; each connector's calls piped (pipeline.ts). */
export class SupplierRegistry {
  readonly all: readonly RegisteredSupplier[];
  readonly #byId: ReadonlyMap<string, RegisteredSupplier>;

  constructor(registrations: readonly RegisteredConnector[], run: RunCall) {
    this.all = registrations.map((registration) => ({
      ref: registration.ref,
      ...pipedConnector(registration.ref.id, registration.supplier, registration.capabilities, run, registration.answersKeepMs > 0),
      runsOnMovedClock: registration.runsOnMovedClock,
      settlement: registration.settlement,
      searchedByDefault: registration.searchedByDefault,
      ...(registration.account && { account: registration.account }),
    }));
    this.#byId = new Map(this.all.map((entry) => [entry.ref.id, entry]));
  }

  has(id: string): boolean {
    return this.#byId.has(id);
  }

  find(id: string): RegisteredSupplier | undefined {
    return this.#byId.get(id);
  }

  /** The supplier of an offer or order; one no longer registered falls back to the first (orders outlive configuration). */
  of(subject: SupplierSubject): RegisteredSupplier {
    return this.#byId.get((subject.supplier ?? ORIGINAL_SUPPLIER).id) ?? this.all[0]!;
  }
}
