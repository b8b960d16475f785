import type { TenantScope } from "../tenancy/tenant-scope";
import { appError } from "../errors/app-error";
import { stateAllows } from "../orders/core/order-actions";
import { requireOfferSupplierCapability } from "../orders/core/order-supplier";
import type { OrderService } from "../orders/core/order.service";
import type { StoredOffer } from "../search/offer-payload";
import type { OfferService } from "../search/offer.service";
import type { Supplier } from "../gateway/contract/supplier";
import type { SeatCatalogue } from "../connectors/simulated/seating/seat-catalogue";
import type { SeatMap, SeatMapSubject } from "../connectors/simulated/seating/seat-map";
import type { SeatMapQuery } from "./seat-map.inputs";

/**
 * Seat maps of the caller's offers and orders. Another tenant's offer or order is `not_found`,
 * exactly as an unknown id. Flights' seating is built once per process and shared by every map;
 * the seats bookings hold are read on every map (one query), so a sold seat is never offered.
 */
export class SeatMapService {
  constructor(
    private readonly offers: OfferService,
    private readonly orders: OrderService,
    private readonly catalogue: SeatCatalogue,
    private readonly supplier: Supplier,
  ) {}

  /** One map per segment of the offer or order named; 404 as `subject`. */
  async get(scope: TenantScope, query: SeatMapQuery): Promise<SeatMap[]> {
    return this.maps(await this.subject(scope, query));
  }

  /**
   * The offer or order named, as seats are chosen for it; 404 `not_found` naming the field for an
   * unknown or foreign id; 422 `unsupported_by_supplier` for one whose supplier has no seat maps
   * through us (Duffel).
   */
  async subject(scope: TenantScope, query: SeatMapQuery): Promise<SeatMapSubject> {
    const { id, offer, onSale } = query.offer_id !== undefined ? await this.offerSubject(scope, query.offer_id) : await this.orderSubject(scope, query.order_id!);
    requireOfferSupplierCapability(offer, "select_seats", "seat maps", query.offer_id !== undefined ? "offer" : "order");
    const slices = offer.payload.slices;
    // Nothing is offered on a map past sale, so what is taken need not be read.
    const taken = onSale ? await this.supplier.seatsAssigned(slices.flatMap((slice) => slice.segments.map((segment) => segment.flightKey)), scope.tenant.environment) : new Map();
    return { id, currency: offer.currency, slices, passengers: offer.payload.passengers, onSale, taken };
  }

  /** The subject's maps, one per segment. */
  maps(subject: SeatMapSubject): SeatMap[] {
    return this.catalogue.maps(subject);
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
