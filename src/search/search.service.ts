import type { Database } from "../db/database";
import type { TenantScope } from "../tenancy/tenant-scope";
import { appError } from "../errors/app-error";
import { datedId } from "../ids";
import { clock } from "../clock";
import type { AirportIndex } from "../locations/airport-index";
import type { UsageMeter } from "../tenants/usage-meter";
import type { StoredOffer } from "./offer-payload";
import { sellableOffers } from "./sellable-offers";
import type { SearchRequest } from "./search.inputs";
import { resolveSearch } from "./search-rules";
import { insertSearch, type OfferRequestRow, type StoredSearch } from "./search-rows";
import { answerSearch, offerAt, type SearchAnswer } from "./search-answer";
import type { OfferCache } from "./offer-cache";
import type { Supplier, SupplierOffer, SupplierSearch } from "../supplier/supplier";

/** A search as answered: its offer request, the search as resolved, and its offers. */
export class SearchResult {
  #offers: StoredOffer[] | undefined;

  constructor(
    readonly offerRequest: OfferRequestRow,
    /** The search as resolved: passengers carry their ids (client-chosen or assigned). */
    readonly search: SupplierSearch,
    /** The offers as stored, what they share kept once (views render from it). */
    readonly answer: SearchAnswer,
  ) {}

  /** Every offer whole (built on first use: the REST search answer renders from `answer` instead). */
  get offers(): StoredOffer[] {
    return (this.#offers ??= this.answer.offers.map((_, index) => offerAt(this.answer, index)));
  }
}

/** Flight search: validate, ask the supplier, price in the tenant's currency, store the search with its offers. */
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
   * Runs a search for the tenant and stores it with its offers (tenant-scoped, expiring after
   * OFFER_TTL_SECONDS) as one row. 400 `invalid_search_params` naming the field; 504
   * `supplier_timeout` when the supplier overruns the request's timeout.
   */
  async search(scope: TenantScope, request: SearchRequest): Promise<SearchResult> {
    const now = clock.now();
    // Dated to the millisecond of the search: so an offer's id dates its offer (OfferService.missing).
    const id = datedId("orq", now.getTime());
    const search = resolveSearch(request, this.airports, now);
    const found = await withTimeout(this.supplier.search(search), request.supplierTimeoutMs);
    const supplierOffers = await sellableOffers(this.supplier, found, search, scope.tenant.environment);
    const expiresAt = new Date(now.getTime() + this.offerTtlSeconds * 1000);
    const header = { requestId: id, tenantId: scope.tenantId, currency: scope.tenant.defaultCurrency, createdAt: now, expiresAt, passengers: search.passengers };
    const answer = answerSearch(header, supplierOffers);
    const stored: StoredSearch = {
      slices: request.slices.map((slice) => ({ origin: slice.origin, destination: slice.destination, departure_date: slice.departureDate })),
      passengers: search.passengers,
      cabin_class: search.cabinClass,
      max_connections: search.maxConnections,
    };
    const offerRequest: OfferRequestRow = { id, tenantId: scope.tenantId, request: stored, offerCount: answer.offers.length, expiresAt, createdAt: now };
    if (!(await insertSearch(this.db, offerRequest, answer))) throw appError("tenant_not_found");
    this.cache.addSearch(answer);
    this.usage.record(scope.tenantId, "searches");
    return new SearchResult(offerRequest, search, answer);
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
