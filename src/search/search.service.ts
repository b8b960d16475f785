import type { Database } from "../db/database";
import type { TenantScope } from "../tenancy/tenant-scope";
import { appError } from "../errors/app-error";
import { newId } from "../ids";
import type { AirportIndex } from "../locations/airport-index";
import type { UsageMeter } from "../tenants/usage-meter";
import type { StoredOffer } from "./offer-payload";
import { priceOffer } from "./price-offer";
import { sellableOffers } from "./sellable-offers";
import type { SearchRequest } from "./search.inputs";
import { resolveSearch } from "./search-rules";
import { insertSearch, type OfferRequestRow } from "./search-rows";
import type { OfferCache } from "./offer-cache";
import type { Supplier, SupplierOffer, SupplierSearch } from "../supplier/supplier";
import { clock } from "../clock";

export interface SearchResult {
  offerRequest: OfferRequestRow;
  /** The search as resolved: passengers carry their ids (client-chosen or assigned). */
  search: SupplierSearch;
  offers: StoredOffer[];
}

/** What an offer request keeps of its search, echoed by listings. */
export interface StoredSearch {
  slices: Array<{ origin: string; destination: string; departure_date: string }>;
  passengers: Array<{ id: string; type: string }>;
  cabin_class: string;
  max_connections: number;
}

/** Flight search: validate, ask the supplier, price in the tenant's currency, store the offers. */
export class SearchService {
  constructor(
    private readonly db: Database,
    private readonly supplier: Supplier,
    private readonly airports: AirportIndex,
    private readonly usage: UsageMeter,
    private readonly offerTtlSeconds: number,
    private readonly cache: OfferCache,
  ) {}

  /**
   * Runs a search for the tenant and stores its offer request and offers (tenant-scoped,
   * expiring after OFFER_TTL_SECONDS) in one transaction. 400 `invalid_search_params` naming
   * the field; 504 `supplier_timeout` when the supplier overruns the request's timeout.
   */
  async search(scope: TenantScope, request: SearchRequest): Promise<SearchResult> {
    const now = clock.now();
    const search = resolveSearch(request, this.airports, now);
    const found = await withTimeout(this.supplier.search(search), request.supplierTimeoutMs);
    const supplierOffers = await sellableOffers(this.supplier, found, search, scope.tenant.environment);
    const currency = scope.tenant.defaultCurrency;
    const expiresAt = new Date(now.getTime() + this.offerTtlSeconds * 1000);
    const offerRequestId = newId("orq");
    const offers: StoredOffer[] = supplierOffers.map((offer) => {
      const { payload, totalAmount } = priceOffer(offer, currency);
      return { id: newId("off"), tenantId: scope.tenantId, offerRequestId, totalAmount, currency, expiresAt, createdAt: now, payload };
    });
    const stored: StoredSearch = {
      slices: request.slices.map((slice) => ({ origin: slice.origin, destination: slice.destination, departure_date: slice.departureDate })),
      passengers: search.passengers,
      cabin_class: search.cabinClass,
      max_connections: search.maxConnections,
    };
    const offerRequest = { id: offerRequestId, tenantId: scope.tenantId, request: stored as object, offerCount: offers.length, createdAt: now };
    if (!(await insertSearch(this.db, offerRequest, offers))) throw appError("tenant_not_found");
    this.cache.add(offers);
    this.usage.record(scope.tenantId, "searches");
    return { offerRequest, search, offers };
  }
}

async function withTimeout(work: Promise<SupplierOffer[]>, timeoutMs: number): Promise<SupplierOffer[]> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(appError("supplier_timeout")), timeoutMs);
  });
  try {
    return await Promise.race([work, timeout]);
  } finally {
    clearTimeout(timer);
  }
}
