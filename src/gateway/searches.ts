import type { FareSource, SearchedSupplier, SupplierBatch, SupplierSearches, SupplierSubject } from "./contract/gateway";
import type { SupplierOffer } from "./contract/offers";
import { fanOut } from "./fan-out";
import { mergeOffers } from "./merge-offers";
import type { RegisteredSupplier, SupplierRegistry } from "./registry";

/** Whether a tenant has connected its own account to a supplier (connections/). */
export type AccountConnected = (tenantId: string, supplier: string) => Promise<boolean>;

/**
 * The suppliers as searches see them (docs/gateway.md#search-fan-out): which ones a tenant
 * searches, each asked through the pipeline and then for what it can still sell (a supplier
 * declaring `availability`), the fan-out within one deadline and the merge of their offers.
 */
export class GatewaySearches implements SupplierSearches {
  readonly suppliers;
  readonly defaultSuppliers;

  constructor(
    private readonly registry: SupplierRegistry,
    private readonly connected: AccountConnected,
  ) {
    this.suppliers = registry.all.map((entry) => entry.ref);
    this.defaultSuppliers = registry.all.filter((entry) => entry.searchedByDefault).map((entry) => entry.ref.id);
  }

  has(id: string): boolean {
    return this.registry.has(id);
  }

  async searchedFor(tenantId: string, chosen: readonly string[] | null): Promise<SearchedSupplier[]> {
    const entries = await Promise.all(
      (chosen ?? this.defaultSuppliers).map(async (id) => {
        const entry = this.registry.find(id);
        if (!entry || (entry.account && !(await this.connected(tenantId, id)))) return null;
        return searched(entry);
      }),
    );
    return entries.filter((entry) => entry !== null);
  }

  searchedAt(subject: SupplierSubject): SearchedSupplier {
    return searched(this.registry.of(subject));
  }

  fanOut(...args: Parameters<SupplierSearches["fanOut"]>): Promise<SupplierBatch[]> {
    return fanOut(...args);
  }

  merge(batches: readonly SupplierBatch[]) {
    return mergeOffers(batches);
  }

  fareSources(): FareSource[] {
    return this.registry.all.flatMap((entry) => {
      const { lowestFares, availability } = entry.capabilities;
      if (!lowestFares) return [];
      return [
        {
          ref: entry.ref,
          lowestFares: (request, limit) => lowestFares.lowestFares(request, limit),
          destinationsFrom: (origins, candidates) => lowestFares.destinationsFrom(origins, candidates),
          nonstopFaresTo: (origins, destinations, days, cabinClass, limit) => lowestFares.nonstopFaresTo(origins, destinations, days, cabinClass, limit),
          sellableFares: (groups, party) => (availability ? availability.sellableFares(groups, party) : Promise.resolve(groups.map((group) => group[0] ?? null))),
        } satisfies FareSource,
      ];
    });
  }
}

/** A registered supplier as a search asks it: its offers, then those it can still sell. */
function searched(entry: RegisteredSupplier): SearchedSupplier {
  const { availability } = entry.capabilities;
  return {
    ref: entry.ref,
    runsOnMovedClock: entry.runsOnMovedClock,
    async search(request): Promise<SupplierOffer[]> {
      const offers = await entry.supplier.search(request);
      return availability && offers.length > 0 ? availability.sellableOffers(offers, request) : offers;
    },
  };
}
