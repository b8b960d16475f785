import type { Database } from "../db/database";
import type { OfferRequest } from "../db/models";
import type { TenantScope } from "../tenancy/tenant-scope";
import { appError } from "../errors/app-error";
import type { CursorCodec } from "../pagination/cursor";
import { paginate, type Page, type PageRequest } from "../pagination/paginate";
import { storedOffer, type StoredOffer } from "./offer-payload";
import type { OfferCache } from "./offer-cache";

/** Reading stored offers and offer requests, always within the caller's tenant. */
export class OfferService {
  constructor(
    private readonly db: Database,
    private readonly cursors: CursorCodec,
    private readonly cache: OfferCache,
  ) {}

  /** The offer, expired or not; 404 `not_found` for an unknown id or another tenant's. */
  async get(scope: TenantScope, offerId: string): Promise<StoredOffer> {
    const [offer] = await this.getMany(scope, [offerId]);
    if (!offer) throw appError("not_found", { field: "id" });
    return offer;
  }

  /**
   * Offers by id, in the order asked, null where unknown or another tenant's: cached ones from
   * memory, the rest in one query (the GraphQL DataLoader batches through here).
   */
  async getMany(scope: TenantScope, offerIds: readonly string[]): Promise<Array<StoredOffer | null>> {
    const mine = (offer: StoredOffer | undefined) => (offer?.tenantId === scope.tenantId ? offer : undefined);
    const missing = offerIds.filter((id) => this.cache.get(id) === undefined);
    if (missing.length > 0) {
      const rows = await this.db.prisma.offer.findMany({ where: { tenantId: scope.tenantId, id: { in: missing } } });
      this.cache.add(rows.map(storedOffer));
    }
    return offerIds.map((id) => mine(this.cache.get(id)) ?? null);
  }

  /** The tenant's offers, newest first, optionally of one offer request (404 if it is not the tenant's). */
  async list(scope: TenantScope, offerRequestId: string | undefined, request: PageRequest): Promise<Page<StoredOffer>> {
    if (offerRequestId !== undefined) await this.getRequest(scope, offerRequestId);
    const where = { tenantId: scope.tenantId, ...(offerRequestId === undefined ? {} : { offerRequestId }) };
    const page = await paginate({
      list: `offers:${scope.tenantId}:${offerRequestId ?? "*"}`,
      request,
      cursors: this.cursors,
      count: () => this.db.prisma.offer.count({ where }),
      fetch: (query) => this.db.prisma.offer.findMany({ ...query, where: { AND: [where, query.where] } }),
    });
    return { ...page, items: page.items.map(storedOffer) };
  }

  /** The offer request; 404 `not_found` for an unknown id or another tenant's. */
  async getRequest(scope: TenantScope, offerRequestId: string): Promise<OfferRequest> {
    const found = await this.db.prisma.offerRequest.findFirst({ where: { id: offerRequestId, tenantId: scope.tenantId } });
    if (!found) throw appError("not_found", { field: "offer_request_id" });
    return found;
  }

  /** The tenant's offer requests (searches), newest first. */
  listRequests(scope: TenantScope, request: PageRequest): Promise<Page<OfferRequest>> {
    const where = { tenantId: scope.tenantId };
    return paginate({
      list: `offer-requests:${scope.tenantId}`,
      request,
      cursors: this.cursors,
      count: () => this.db.prisma.offerRequest.count({ where }),
      fetch: (query) => this.db.prisma.offerRequest.findMany({ ...query, where: { AND: [where, query.where] } }),
    });
  }
}
