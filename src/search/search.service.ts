import type { Database } from "../db/database";
import type { TenantScope } from "../tenancy/tenant-scope";
import { appError } from "../errors/app-error";
import { clock } from "../clock";
import { datedId } from "../ids";
import type { AirportIndex } from "../locations/airport-index";
import type { UsageMeter } from "../tenants/usage-meter";
import type { StoredOffer } from "./offer-payload";
import type { SearchRequest } from "./search.inputs";
import { resolveSearch, type ResolvedSearch } from "./search-rules";
import { insertSearch, type OfferRequestRow, type StoredSearch } from "./search-rows";
import { answerSearch, offerAt, type OfferFeeOf, type SearchAnswer } from "./search-answer";
import type { OfferCache } from "./offer-cache";
import type { SearchedSupplier, SourcedOffer, SupplierBatch, SupplierResult, SupplierSearches } from "../gateway/contract/gateway";
import type { SupplierRef } from "../gateway/contract/offers";
import { searchedSuppliers } from "../tenants/tenant-suppliers";
import { offerFee, placeCodes } from "../pricing/fee-rules";
import type { PricingRule, PricingRuleSource } from "../pricing/pricing-rule";

/** A search as answered: its offer request, the search as resolved, its offers and how each supplier did. */
export class SearchResult {
  #offers: StoredOffer[] | undefined;

  constructor(
    readonly offerRequest: OfferRequestRow,
    /** The search as resolved: passengers carry their ids (client-chosen or assigned). */
    readonly search: ResolvedSearch,
    /** The offers as stored, what they share kept once (views render from it). */
    readonly answer: SearchAnswer,
    /** Each supplier asked, in the tenant's order. */
    readonly supplierResults: readonly SupplierResult[],
  ) {}

  /** Every offer whole (built on first use: the REST search answer renders from `answer` instead). */
  get offers(): StoredOffer[] {
    return (this.#offers ??= this.answer.offers.map((_, index) => offerAt(this.answer, index)));
  }
}

/** Flight search: validate, ask every supplier of the tenant at once, price in the tenant's currency, store the search with its offers. */
export class SearchService {
  constructor(
    private readonly db: Database,
    private readonly gateway: SupplierSearches,
    private readonly airports: AirportIndex,
    private readonly usage: UsageMeter,
    private readonly offerTtlSeconds: number,
    private readonly cache: OfferCache,
    private readonly pricing: PricingRuleSource,
  ) {}

  /**
   * Runs a search for the tenant and stores it with its offers (tenant-scoped, expiring after
   * OFFER_TTL_SECONDS) as one row. 400 `invalid_search_params` naming the field (a live tenant
   * naming `supplier_behaviour` too); when no supplier answered with offers, 504 `supplier_timeout`
   * if one missed the deadline, else 502 `supplier_error` if none answered at all.
   */
  async search(scope: TenantScope, request: SearchRequest): Promise<SearchResult> {
    const prepared = await this.prepare(scope, request);
    const batches = await this.gateway.fanOut(prepared.entries, prepared.ask, request.supplierTimeoutMs);
    refuseEmptyFailure(batches);
    const { offerRequest, answer } = await this.#store(scope, request, prepared, prepared.now, this.gateway.merge(batches));
    this.usage.record(scope.tenantId, "searches");
    return new SearchResult(offerRequest, prepared.search, answer, batches.map((batch) => batch.result));
  }

  /**
   * The search answered one supplier at a time, as each answers or misses the deadline: each
   * batch's offers are stored as a search of their own (bookable at once), and the last batch
   * says no supplier remains. A search the rules refuse is refused here, before any batch.
   */
  async stream(scope: TenantScope, request: SearchRequest): Promise<AsyncGenerator<SearchBatch>> {
    return (await this.streamed(scope, request)).batches;
  }

  /**
   * `stream`, also naming the suppliers it asks (one batch each, in the tenant's order). The
   * suppliers are asked when the first batch is pulled; `stop` brings their deadline forward.
   */
  async streamed(scope: TenantScope, request: SearchRequest, stop?: AbortSignal): Promise<StreamedSearch> {
    const prepared = await this.prepare(scope, request);
    this.usage.record(scope.tenantId, "searches");
    return { suppliers: prepared.entries.map((entry) => entry.ref), batches: this.#batches(scope, request, prepared, stop) };
  }

  async *#batches(scope: TenantScope, request: SearchRequest, prepared: Awaited<ReturnType<SearchService["prepare"]>>, stop?: AbortSignal): AsyncGenerator<SearchBatch> {
    const arrived: SupplierBatch[] = [];
    let wake: (() => void) | undefined;
    const done = this.gateway.fanOut(
      prepared.entries,
      prepared.ask,
      request.supplierTimeoutMs,
      (batch) => {
        arrived.push(batch);
        wake?.();
      },
      stop,
    );
    for (let remaining = prepared.entries.length; remaining > 0; remaining--) {
      if (arrived.length === 0) await new Promise<void>((resolve) => (wake = resolve));
      const batch = arrived.shift()!;
      const answeredAt = new Date(prepared.answeredAt.get(batch.supplier.id) ?? scope.clock.nowMs());
      const sourced = this.gateway.merge([batch]);
      const stored = sourced.length > 0 ? await this.#store(scope, request, prepared, scope.clock.now(), sourced) : null;
      yield { result: batch.result, offers: stored ? new SearchResult(stored.offerRequest, prepared.search, stored.answer, [batch.result]).offers : [], remainingSuppliers: remaining - 1, answeredAt };
    }
    await done;
  }

  /** The search resolved and checked, the suppliers it asks, how each is asked, and the fee of each offer. */
  private async prepare(scope: TenantScope, request: SearchRequest) {
    const now = scope.clock.now();
    const search = resolveSearch(request, this.airports, now);
    checkBehaviour(request, scope, this.gateway);
    // The rules as they are now price every offer of this search, whatever changes while it runs.
    const feeOf = feesOf(scope, search, await this.pricing.rulesFor(scope.tenantId));
    // Those the owner allows the tenant; a supplier that needs the tenant's own account is searched only once the tenant has one.
    const entries = onTenantClock(await this.gateway.searchedFor(scope.tenantId, searchedSuppliers(scope.tenant, this.gateway.defaultSuppliers)), scope);
    /** When each supplier's answer came (before the gateway's own work on it), by supplier id. */
    const answeredAt = new Map<string, number>();
    const ask = async (entry: SearchedSupplier, signal: AbortSignal) => {
      const forcedOutcome = request.supplierBehaviour?.[entry.ref.id];
      // Asked as the fan-out starts: its deadline is the search's, on the process clock (a timer's, whatever the tenant's clock reads).
      const deadlineMs = clock.nowMs() + request.supplierTimeoutMs;
      const offers = await entry.search({ ...search, tenantId: scope.tenantId, environment: scope.tenant.environment, signal, deadlineMs, ...(forcedOutcome ? { forcedOutcome } : {}) });
      answeredAt.set(entry.ref.id, scope.clock.nowMs());
      return offers;
    };
    return { now, search, entries, ask, answeredAt, feeOf };
  }

  /** Prices and stores the offers as one search of the tenant, dated `now`. */
  async #store(scope: TenantScope, request: SearchRequest, { search, feeOf }: { search: ResolvedSearch; feeOf: OfferFeeOf }, now: Date, offers: SourcedOffer[]): Promise<{ offerRequest: OfferRequestRow; answer: SearchAnswer }> {
    // Dated to the millisecond of the search: so an offer's id dates its offer (OfferService.missing).
    const id = datedId("orq", now.getTime());
    const expiresAt = new Date(now.getTime() + this.offerTtlSeconds * 1000);
    const header = { requestId: id, tenantId: scope.tenantId, currency: scope.tenant.defaultCurrency, createdAt: now, expiresAt, passengers: search.passengers };
    const answer = answerSearch(header, offers, feeOf);
    const stored: StoredSearch = {
      slices: request.slices.map((slice) => ({ origin: slice.origin, destination: slice.destination, departure_date: slice.departureDate })),
      passengers: search.passengers,
      cabin_class: search.cabinClass,
      max_connections: search.maxConnections,
    };
    const offerRequest: OfferRequestRow = { id, tenantId: scope.tenantId, request: stored, offerCount: answer.offers.length, expiresAt, createdAt: now };
    if (!(await insertSearch(this.db, offerRequest, answer))) throw appError("tenant_not_found");
    this.cache.addSearch(answer);
    return { offerRequest, answer };
  }
}

/** Each offer's fee under the tenant's rules: its supplier, owner, first origin, last destination, the searched cabin and the tenant's environment. */
function feesOf(scope: TenantScope, search: ResolvedSearch, rules: readonly PricingRule[]): OfferFeeOf {
  if (rules.length === 0) return () => null;
  const { tenantId, tenant } = scope;
  return ({ supplier, offer }, fares) =>
    offerFee(rules, {
      tenantId,
      environment: tenant.environment,
      supplier: supplier.id,
      carrier: offer.owner.iataCode,
      origin: placeCodes(offer.slices[0]!.origin),
      destination: placeCodes(offer.slices.at(-1)!.destination),
      cabinClass: search.cabinClass,
      passengerFares: fares,
      currency: tenant.defaultCurrency,
    });
}

/** One supplier's part of a streamed search: how it did, its offers (stored, bookable), and how many suppliers are still out. */
export interface SearchBatch {
  result: SupplierResult;
  offers: StoredOffer[];
  remainingSuppliers: number;
  /** When the supplier's answer reached the gateway, before its offers were checked and stored (or when it was given up). */
  answeredAt: Date;
}

/** A streamed search: the suppliers it asks (a batch each), and their batches as they come. */
export interface StreamedSearch {
  suppliers: SupplierRef[];
  batches: AsyncGenerator<SearchBatch>;
}

/** `supplier_behaviour` is the sandbox's, and names suppliers this gateway has (400 `invalid_search_params` naming the field). */
function checkBehaviour(request: SearchRequest, scope: TenantScope, suppliers: SupplierSearches): void {
  if (request.supplierBehaviour === undefined) return;
  if (scope.tenant.environment !== "sandbox") {
    throw appError("invalid_search_params", { field: "supplier_behaviour", message: "supplier_behaviour: only sandbox tenants may force a supplier's outcome" });
  }
  const unknown = Object.keys(request.supplierBehaviour).find((id) => !suppliers.has(id));
  if (unknown !== undefined) throw appError("invalid_search_params", { field: `supplier_behaviour.${unknown}`, message: `supplier_behaviour.${unknown}: is not a supplier (${suppliers.suppliers.map((supplier) => supplier.id).join(", ")})` });
}

/** No supplier answered with offers: 504 when one missed the deadline, 502 when none answered at all; else the answer stands (zero offers is an answer). */
function refuseEmptyFailure(batches: readonly SupplierBatch[]): void {
  if (batches.some((batch) => batch.offers.length > 0)) return;
  const outcomes = batches.map((batch) => `${batch.result.supplier}: ${batch.result.status}`).join(", ");
  if (batches.some((batch) => batch.result.status === "timeout")) throw appError("supplier_timeout", { reason: outcomes });
  if (batches.length > 0 && batches.every((batch) => batch.result.status !== "ok")) throw appError("supplier_error", { reason: outcomes });
}

/**
 * The suppliers that can run on the tenant's clock: all of them on real time; on a sandbox clock
 * moved ahead, those living on our time (a remote supplier's cannot be moved: docs/sandbox-clock.md).
 * 422 `clock_advanced` when that leaves none of the tenant's suppliers.
 */
function onTenantClock(entries: SearchedSupplier[], scope: TenantScope): SearchedSupplier[] {
  if (scope.clock.offsetMs === 0) return entries;
  const runnable = entries.filter((entry) => entry.runsOnMovedClock);
  if (runnable.length === 0 && entries.length > 0) {
    throw appError("clock_advanced", { reason: `The tenant's sandbox clock runs ahead of real time, and ${entries.map((entry) => entry.ref.id).join(", ")} run on real time: reset the clock to search them.` });
  }
  return runnable;
}
