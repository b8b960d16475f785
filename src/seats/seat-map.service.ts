import type { TenantScope } from "../context/tenant-scope";
import { appError } from "../errors/app-error";
import type { Order } from "../orders/order";
import type { OrderService } from "../orders/order.service";
import type { StoredOffer } from "../search/offer-payload";
import type { OfferService } from "../search/offer.service";
import { FlightSeatingCache } from "./flight-seating";
import { seatMapsFor, type SeatMap, type SeatMapSubject } from "./seat-map";
import type { SeatMapQuery } from "./seat-map.inputs";

/** Orders that can still take services (servicing §2): their seats stay on sale. */
const ORDER_STATUSES_ON_SALE: ReadonlySet<Order["status"]> = new Set(["PENDING", "TICKETED"]);

/**
 * Seat maps of the caller's offers and orders. Another tenant's offer or order is `not_found`,
 * exactly as an unknown id. Flights' seating is built once per process and shared by every map.
 */
export class SeatMapService {
  private readonly seating = new FlightSeatingCache();

  constructor(
    private readonly offers: OfferService,
    private readonly orders: OrderService,
  ) {}

  /** One map per segment of the offer or order named; 404 as `subject`. */
  async get(scope: TenantScope, query: SeatMapQuery): Promise<SeatMap[]> {
    return this.maps(await this.subject(scope, query));
  }

  /** The offer or order named, as seats are chosen for it; 404 `not_found` naming the field for an unknown or foreign id. */
  subject(scope: TenantScope, query: SeatMapQuery): Promise<SeatMapSubject> {
    return query.offer_id !== undefined ? this.offerSubject(scope, query.offer_id) : this.orderSubject(scope, query.order_id!);
  }

  /** The subject's maps, one per segment. */
  maps(subject: SeatMapSubject): SeatMap[] {
    return seatMapsFor(subject, (segment) => this.seating.forSegment(segment));
  }

  private async offerSubject(scope: TenantScope, offerId: string): Promise<SeatMapSubject> {
    const [offer] = holdsNul(offerId) ? [null] : await this.offers.getMany(scope, [offerId]);
    if (!offer) throw appError("not_found", { field: "offer_id", message: "offer_id: no such offer" });
    return subjectOf(offer.id, offer, true);
  }

  private async orderSubject(scope: TenantScope, orderId: string): Promise<SeatMapSubject> {
    const [order] = holdsNul(orderId) ? [null] : await this.orders.getMany(scope, [orderId]);
    if (!order) throw appError("not_found", { field: "order_id", message: "order_id: no such order" });
    return subjectOf(order.id, order.offer, ORDER_STATUSES_ON_SALE.has(order.status));
  }
}

/** Text holding U+0000 names no record, and PostgreSQL cannot even compare it (a query string can carry it: `%00`). */
function holdsNul(id: string): boolean {
  return id.includes("\0");
}

function subjectOf(id: string, offer: StoredOffer, onSale: boolean): SeatMapSubject {
  return { id, currency: offer.currency, slices: offer.payload.slices, passengers: offer.payload.passengers, onSale };
}
