import type { Database } from "../db/database";
import type { TenantScope } from "../tenancy/tenant-scope";
import { appError, type AppError } from "../errors/app-error";
import { idTimeMs } from "../ids";
import type { CursorCodec, Position } from "../pagination/cursor";
import { paginate, paginateItems, type Keyset, type Page, type PageRequest } from "../pagination/paginate";
import type { StoredOffer } from "./offer-payload";
import type { OfferCache } from "./offer-cache";
import { offerAddress, offerIdOf } from "./offer-ids";
import { offerAt, type SearchAnswer } from "./search-answer";
import { readSearches, type OfferRequestRow, type StoredSearch } from "./search-rows";
import { decodeSearch } from "./search-encoding";

/** How long searches live, as OfferService applies it. */
export interface OfferLifetimes {
  /** OFFER_TTL_SECONDS in ms: a search's offers expire this long after it. */
  ttlMs: number;
  /** OFFER_RETENTION_SECONDS in ms: a search and its offers are gone this long after they expire. */
  retentionMs: number;
}

/** How a search's offers are ordered: by total or by time in the air and on the ground, and which are kept. */
export interface OfferSort {
  by: "totalAmount" | "totalDuration";
  descending: boolean;
  /** Only offers with at most this many connections on each slice. */
  maxConnections?: number;
}

/** Every slice's duration together. */
const totalDurationMinutes = (offer: StoredOffer) => offer.payload.slices.reduce((sum, slice) => sum + slice.durationMinutes, 0);

/** How far apart the clocks of two server processes may be: a search another process just made is dated up to this far ahead. */
const CLOCK_SKEW_MS = 60_000;

/**
 * Reading stored offers and offer requests, always within the caller's tenant. A search is read
 * as gone from OFFER_RETENTION_SECONDS after its offers expire, in every process and whether or
 * not a sweep has removed its row yet (retention.ts removes it in the background).
 */
export class OfferService {
  constructor(
    private readonly db: Database,
    private readonly cursors: CursorCodec,
    private readonly cache: OfferCache,
    private readonly lifetimes: OfferLifetimes,
  ) {}

  /** The offer, expired or not, until it is no longer kept; 404 `not_found` for an unknown id or another tenant's. */
  async get(scope: TenantScope, offerId: string): Promise<StoredOffer> {
    const [offer] = await this.getMany(scope, [offerId]);
    if (!offer) throw appError("not_found", { field: "id" });
    return offer;
  }

  /**
   * Offers by id, in the order asked, null where unknown, another tenant's or no longer kept:
   * from memory where their search is cached, the others' searches in one query (the GraphQL
   * DataLoader batches through here).
   */
  async getMany(scope: TenantScope, offerIds: readonly string[]): Promise<Array<StoredOffer | null>> {
    const uncached = offerIds.filter((id) => this.cache.get(id) === undefined).map((id) => offerAddress(id)!.requestId);
    if (uncached.length > 0) for (const search of await readSearches(this.db, scope.tenantId, [...new Set(uncached)])) this.cache.addSearch(search);
    const now = scope.clock.nowMs();
    return offerIds.map((id) => {
      const offer = this.cache.get(id);
      return offer && offer.tenantId === scope.tenantId && this.kept(offer, now) ? offer : null;
    });
  }

  /**
   * Until when each of these offers reads for the tenant as it does now (epoch ms): the first end
   * of keeping among them; an id naming no offer of the tenant reads so for good. Null when one of
   * them is not in this process's cache (nothing read it just now).
   */
  readsUnchangedUntil(scope: TenantScope, offerIds: readonly string[]): number | null {
    let until = Number.POSITIVE_INFINITY;
    for (const id of offerIds) {
      const offer = this.cache.get(id);
      if (offer === undefined) return null;
      if (offer && offer.tenantId === scope.tenantId) until = Math.min(until, offer.expiresAt.getTime() + this.lifetimes.retentionMs);
    }
    return until;
  }

  /**
   * Why `offerId` cannot be booked when it names no offer of the tenant: 422
   * `offer_no_longer_available` when it names a search made at least OFFER_TTL_SECONDS ago (its
   * offers expired, and may since have been removed), else 404 `not_found`. Either answer is the
   * same for another tenant's offer as for an id never given.
   */
  missing(scope: TenantScope, offerId: string, field: string): AppError {
    const address = offerAddress(offerId);
    const madeAt = address && idTimeMs(address.requestId);
    if (madeAt !== null && madeAt + this.lifetimes.ttlMs <= scope.clock.nowMs()) {
      const expiredAt = new Date(madeAt + this.lifetimes.ttlMs).toISOString();
      return appError("offer_no_longer_available", { field, reason: `The offer expired at ${expiredAt}; search again.` });
    }
    return appError("not_found", { field, message: `${field}: no such offer` });
  }

  /** The tenant's offers, newest first, optionally of one offer request (404 if it is not the tenant's). */
  async list(scope: TenantScope, offerRequestId: string | undefined, request: PageRequest): Promise<Page<StoredOffer>> {
    if (offerRequestId !== undefined) await this.getRequest(scope, offerRequestId);
    const where = { ...this.keptWhere(scope), ...(offerRequestId === undefined ? {} : { id: offerRequestId }) };
    return paginate({
      list: `offers:${scope.tenantId}:${offerRequestId ?? "*"}`,
      request,
      cursors: this.cursors,
      count: async () => (await this.db.prisma.offerRequest.aggregate({ where, _sum: { offerCount: true } }))._sum.offerCount ?? 0,
      fetch: (query, keyset) => this.offersFrom(where, query.take, keyset),
    });
  }

  /**
   * The offers of one search (404 if it is not the tenant's) ordered by `sort` (ties by id), with
   * at most `maxConnections` connections on every slice when given. A search's offers are read
   * whole, so a page's cursor is the offer's place in that order (the list's name holds the sort).
   */
  async listSorted(scope: TenantScope, offerRequestId: string, sort: OfferSort, request: PageRequest): Promise<Page<StoredOffer>> {
    await this.getRequest(scope, offerRequestId);
    if (!this.cache.search(offerRequestId)) for (const search of await readSearches(this.db, scope.tenantId, [offerRequestId])) this.cache.addSearch(search);
    const search = this.cache.search(offerRequestId);
    if (!search) throw appError("not_found", { field: "offer_request_id" });
    const key = sort.by === "totalAmount" ? (offer: StoredOffer) => offer.totalAmount : totalDurationMinutes;
    const direction = sort.descending ? -1 : 1;
    const offers = search.offers
      .map((_, index) => this.cache.get(offerIdOf(offerRequestId, index)) ?? offerAt(search, index))
      .filter((offer) => sort.maxConnections === undefined || offer.payload.slices.every((slice) => slice.segments.length - 1 <= sort.maxConnections!))
      .sort((a, b) => (key(a) - key(b)) * direction || (a.id < b.id ? -1 : 1));
    // Newest first is the walk's order: the first offer gets the latest rank.
    const ranked = offers.map((offer, index) => ({ id: offer.id, createdAt: new Date(offers.length - index), offer }));
    const listName = `offers:${scope.tenantId}:${offerRequestId}:${sort.by}:${sort.descending}:${sort.maxConnections ?? "*"}`;
    const page = await paginateItems(ranked, { list: listName, request, cursors: this.cursors });
    return { ...page, items: page.items.map((item) => item.offer), cursorOf: (offer) => page.cursorOf(ranked.find((item) => item.id === offer.id) ?? offer) };
  }

  /**
   * `take` offers beyond the keyset's anchor, in its direction. Offers sort as their searches do
   * (they share its creation time, and their ids extend its id), then by position: so the walk
   * reads searches from the anchor's own onwards until it has enough offers.
   */
  private async offersFrom(where: object, take: number, { anchor, descending }: Keyset): Promise<StoredOffer[]> {
    const address = anchor && offerAddress(anchor.id);
    const op = descending ? "lt" : "gt";
    const from: Position | undefined = anchor && { createdAt: anchor.createdAt, id: address?.requestId ?? anchor.id };
    const sort = descending ? "desc" : "asc";
    const offers: StoredOffer[] = [];
    let after = from;
    let inclusive = address !== null && address !== undefined;
    while (offers.length < take) {
      const keyset = after ? { OR: [{ createdAt: { [op]: after.createdAt } }, { createdAt: after.createdAt, id: { [inclusive ? `${op}e` : op]: after.id } }] } : {};
      const rows = await this.db.prisma.offerRequest.findMany({ where: { AND: [where, keyset] }, orderBy: [{ createdAt: sort }, { id: sort }], take });
      for (const row of rows) {
        const search = this.searchOf(row);
        const indexes = search.offers.map((_, index) => index);
        if (descending) indexes.reverse();
        for (const index of indexes) {
          const beyondAnchor = !address || row.id !== address.requestId || (descending ? index < address.index : index > address.index);
          if (beyondAnchor && offers.length < take) offers.push(this.cache.get(offerIdOf(search.requestId, index)) ?? offerAt(search, index));
        }
      }
      const last = rows.at(-1);
      if (!last || rows.length < take) break;
      after = { createdAt: last.createdAt, id: last.id };
      inclusive = false;
    }
    return offers;
  }

  /** A search row as read by a listing, from the cache when it is there. */
  private searchOf(row: { id: string; tenantId: string; request: unknown; offers: Uint8Array; expiresAt: Date; createdAt: Date }): SearchAnswer {
    const cached = this.cache.search(row.id);
    if (cached) return cached;
    const passengers = (row.request as StoredSearch).passengers as SearchAnswer["passengers"];
    const search = decodeSearch(row.offers, { requestId: row.id, tenantId: row.tenantId, createdAt: row.createdAt, expiresAt: row.expiresAt, passengers });
    this.cache.addSearch(search);
    return search;
  }

  /** The offer request; 404 `not_found` for an unknown id, another tenant's or one no longer kept. */
  async getRequest(scope: TenantScope, offerRequestId: string): Promise<OfferRequestRow> {
    const found = await this.db.prisma.offerRequest.findFirst({ where: { id: offerRequestId, ...this.keptWhere(scope) }, omit: { offers: true } });
    if (!found) throw appError("not_found", { field: "offer_request_id" });
    return requestRow(found);
  }

  /** The tenant's offer requests (searches) still kept, newest first. */
  listRequests(scope: TenantScope, request: PageRequest): Promise<Page<OfferRequestRow>> {
    const where = this.keptWhere(scope);
    return paginate({
      list: `offer-requests:${scope.tenantId}`,
      request,
      cursors: this.cursors,
      count: () => this.db.prisma.offerRequest.count({ where }),
      fetch: async (query) => (await this.db.prisma.offerRequest.findMany({ ...query, where: { AND: [where, query.where] }, omit: { offers: true } })).map(requestRow),
    });
  }

  /**
   * Whether a search is still kept at `now`, the tenant's time: until OFFER_RETENTION_SECONDS after
   * its offers expire, and not if it is dated well after `now` (made on a sandbox clock since set
   * back, which sandbox-clock.service.ts removes; other processes' cached copies are hidden here).
   */
  private kept(search: { createdAt: Date; expiresAt: Date }, now: number): boolean {
    return search.createdAt.getTime() <= now + CLOCK_SKEW_MS && now < search.expiresAt.getTime() + this.lifetimes.retentionMs;
  }

  /** The tenant's searches still kept (`kept`). */
  private keptWhere(scope: TenantScope) {
    const now = scope.clock.nowMs();
    return { tenantId: scope.tenantId, createdAt: { lte: new Date(now + CLOCK_SKEW_MS) }, expiresAt: { gt: new Date(now - this.lifetimes.retentionMs) } };
  }
}

function requestRow(row: Omit<OfferRequestRow, "request"> & { request: unknown }): OfferRequestRow {
  return { id: row.id, tenantId: row.tenantId, request: row.request as StoredSearch, offerCount: row.offerCount, expiresAt: row.expiresAt, createdAt: row.createdAt };
}
