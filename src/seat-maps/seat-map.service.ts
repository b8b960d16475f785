import type { TenantScope } from "../tenancy/tenant-scope";
import { appError } from "../errors/app-error";
import type { OrderSuppliers } from "../gateway/contract/gateway";
import type { SeatMapAnswer, SeatMapSubject } from "../gateway/contract/seat-maps";
import { stateAllows } from "../orders/core/order-actions";
import type { OrderService } from "../orders/core/order.service";
import type { StoredOffer } from "../search/offer-payload";
import type { OfferService } from "../search/offer.service";
import type { SeatMapQuery } from "./seat-map.inputs";

/** The subject of a seat map, with its maps as its supplier answers them. */
export interface SeatMaps {
  subject: SeatMapSubject;
  maps: SeatMapAnswer;
}

/**
 * Seat maps of the caller's offers and orders, as their supplier draws them (its `seatSelection`
 * capability). Another tenant's offer or order is `not_found`, exactly as an unknown id.
 */
export class SeatMapService {
  constructor(
    private readonly offers: OfferService,
    private readonly orders: OrderService,
    private readonly suppliers: Pick<OrderSuppliers, "require">,
  ) {}

  /**
   * The offer or order named, and its maps (one per segment); 404 `not_found` naming the field
   * for an unknown or foreign id; 422 `unsupported_by_supplier` for one whose supplier has no
   * seat maps through us.
   */
  async get(scope: TenantScope, query: SeatMapQuery): Promise<SeatMaps> {
    const kind = query.offer_id !== undefined ? "offer" : "order";
    const { id, offer, onSale } = query.offer_id !== undefined ? await this.offerSubject(scope, query.offer_id) : await this.orderSubject(scope, query.order_id!);
    const seats = this.suppliers.require(offer.payload, "seatSelection", "seat maps", kind);
    const subject: SeatMapSubject = {
      id,
      kind,
      tenantId: scope.tenantId,
      ...(offer.payload.supplierOffer && { supplierOffer: offer.payload.supplierOffer }),
      currency: offer.currency,
      slices: offer.payload.slices,
      passengers: offer.payload.passengers,
      onSale,
      environment: scope.tenant.environment,
    };
    return { subject, maps: await seats.seatMaps(subject) };
  }

  private async offerSubject(scope: TenantScope, offerId: string): Promise<SubjectSource> {
    const [offer] = holdsNul(offerId) ? [null] : await this.offers.getMany(scope, [offerId]);
    if (!offer) throw appError("not_found", { field: "offer_id", message: "offer_id: no such offer" });
    return { id: offer.id, offer, onSale: true };
  }

  private async orderSubject(scope: TenantScope, orderId: string): Promise<SubjectSource> {
    const [order] = holdsNul(orderId) ? [null] : await this.orders.getMany(scope, [orderId]);
    if (!order) throw appError("not_found", { field: "order_id", message: "order_id: no such order" });
    // An order in a state that takes services keeps its seats on sale on its map.
    return { id: order.id, offer: order.offer, onSale: stateAllows(order, "addServices") };
  }
}

/** What a map is drawn for: the offer or order's id, the offer (as booked), whether seats are on sale. */
interface SubjectSource {
  id: string;
  offer: StoredOffer;
  onSale: boolean;
}

/** Text holding U+0000 names no record, and PostgreSQL cannot even compare it (a query string can carry it: `%00`). */
function holdsNul(id: string): boolean {
  return id.includes("\0");
}
