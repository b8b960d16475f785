import { openAirlineChange } from "../orders/core/airline-change-rows";
import type { TenantScope } from "../tenancy/tenant-scope";
import type { Database } from "../db/database";
import { GuardFailed, writeBatch } from "../db/write-batch";
import { AppError, appError } from "../errors/app-error";
import { newId } from "../ids";
import type { AirportIndex } from "../locations/airport-index";
import type { Order } from "../orders/core/order";
import { isTicketed, requireAllowed } from "../orders/core/order-actions";
import type { OrderService } from "../orders/core/order.service";
import { priceOffer, storedSlice } from "../search/price-offer";
import { offerSupplier, type OfferPayload } from "../search/offer-payload";
import { changePath } from "../orders/core/order-supplier";
import type { QuotedChanges } from "../gateway/contract/capabilities";
import { resolveSearch, type ResolvedSearch } from "../search/search-rules";
import type { OrderSuppliers, SupplierSearches } from "../gateway/contract/gateway";
import type { SupplierSearch } from "../gateway/contract/offers";
import { canReplace, checkChangeSlices } from "./change-rules";
import { priceChange, quotedPart, removedPart, type ChangePrice } from "./change-pricing";
import { CHANGE_TENANT_GUARD, insertChangeRequest } from "./change-rows";
import type { ChangeRequestInput } from "./order-change.inputs";
import { CHANGE_OFFER_LIFETIME_MS, changeOfferFrom, changeRequestFrom, type OrderChangeOffer, type OrderChangeRequest } from "./order-change";

/** Change offers one request keeps at most: the airline's cheapest that fit. */
const MAX_CHANGE_OFFERS = 20;

/** A change offer's own part: the new slices and fares, what it costs, until when, and the supplier's id of it when the supplier quoted it. */
type PricedChange = ChangePrice & Pick<OrderChangeOffer, "added" | "expiresAt" | "supplierOfferId">;

/** Connections allowed on an added slice, as a search allows by default. */
const CHANGE_MAX_CONNECTIONS = 1;

/**
 * Asking to change a ticketed order (docs/rest-api.md#order-changes). Which way is the order's
 * supplier's (order-supplier.ts `changePath`): a supplier that quotes its own changes answers its
 * change offers, each becoming ours at the supplier's amounts; any other airline searches the
 * added slices for the order's passengers, and each of its offers that can replace the removed
 * slices becomes a change offer (`oco_`), priced as new fare − old fare + the fare's change
 * penalty. Either is valid 15 minutes (or less, as the supplier says).
 * Nothing about the order changes until a change made from an offer is confirmed
 * (change-confirmations.service.ts).
 */
export class ChangeRequestService {
  constructor(
    private readonly db: Database,
    private readonly orders: OrderService,
    /** An order's own supplier, searched for the new flights. */
    private readonly searches: Pick<SupplierSearches, "searchedAt">,
    private readonly suppliers: Pick<OrderSuppliers, "declared" | "require">,
    private readonly airports: AirportIndex,
  ) {}

  /**
   * A change request and its offers (none when the airline has nothing that fits). 404
   * `not_found` for an unknown or another tenant's order; 422 `change_not_allowed` unless the
   * order is TICKETED, not refunding, before its first flight, on a fare that allows changes;
   * 422 `unsupported_by_supplier` when the order's supplier changes no booking;
   * 422 `invalid_field_value` for a slice to remove that is not the order's; 400
   * `invalid_search_params` or 422 `departure_date_out_of_range` for an added slice as a search
   * would refuse it. While an airline-initiated change is open on the order (docs/rest-api.md#airline-initiated-changes), a
   * request removing the slices it changed is that change's `change`: its offers carry no
   * penalty and the fare's rule does not apply (the airline's doing, not the traveller's).
   */
  async request(scope: TenantScope, input: ChangeRequestInput): Promise<OrderChangeRequest> {
    const [order] = await this.orders.getMany(scope, [input.orderId]);
    if (!order) throw appError("not_found", { field: "order_id", message: "order_id: no such order" });
    const now = scope.clock.now();
    const noPenalty = await this.answersAirlineChange(order, input);
    const path = changePath(order.offer.payload, this.suppliers, "order changes");
    requireAllowed(order, "change", now, { noPenalty });
    const { removed: removedIds, cabinClass } = checkChangeSlices(order, input.slices);
    const search = this.searchFor(order, input, cabinClass, now);
    const removed = removedPart(order.offer.payload, removedIds);
    const requestId = newId("ocr", now.getTime());
    const expiresAt = new Date(now.getTime() + CHANGE_OFFER_LIFETIME_MS);
    const priced =
      "quoted" in path
        ? await this.quoted(scope, order, path.quoted, removed, input, cabinClass, expiresAt)
        : await this.searched(scope, order, search, removed, removedIds, noPenalty ? 0 : (order.offer.payload.conditions.changeBeforeDeparture.penaltyAmount ?? 0), expiresAt);
    const offers = priced
      .map(
        (offer): OrderChangeOffer => ({
          id: newId("oco", now.getTime()),
          changeRequestId: requestId,
          orderId: order.id,
          tenantId: order.tenantId,
          removed,
          orderVersion: order.updatedAt,
          noPenalty,
          currency: order.currency,
          createdAt: now,
          ...offer,
        }),
      )
      .sort((a, b) => a.changeTotalAmount - b.changeTotalAmount);
    const request: OrderChangeRequest = { id: requestId, orderId: order.id, tenantId: order.tenantId, slices: input.slices, noPenalty, createdAt: now, offers };
    try {
      await writeBatch(this.db, insertChangeRequest(this.db, request));
    } catch (error) {
      if (error instanceof GuardFailed && error.guard === CHANGE_TENANT_GUARD) throw appError("tenant_not_found");
      throw error;
    }
    return request;
  }

  /** The order's own supplier searched for the added slices: each offer that can replace the removed slices, priced here (new fare − old fare + the fare's penalty). */
  private async searched(scope: TenantScope, order: Order, search: ResolvedSearch, removed: OfferPayload, removedIds: ReadonlySet<string>, penalty: number, expiresAt: Date): Promise<PricedChange[]> {
    // An order change asks only the order's own supplier.
    const found = await this.searches.searchedAt(order.offer.payload).search({ ...search, tenantId: scope.tenantId, environment: scope.tenant.environment });
    return found
      .filter((candidate) => canReplace(candidate, order, removedIds))
      .slice(0, MAX_CHANGE_OFFERS)
      .map((candidate) => {
        const { payload: added } = priceOffer(candidate, order.currency);
        return { added, ...priceChange(order, removed, added, penalty), expiresAt };
      });
  }

  /**
   * The supplier's own change offers (QuotedChanges): each costs what the supplier asks (its change
   * total and penalty, in the order's currency), keeps the supplier's id for the confirmation, and
   * expires at the supplier's expiry if that comes first.
   */
  private async quoted(scope: TenantScope, order: Order, quoting: QuotedChanges, removed: OfferPayload, input: ChangeRequestInput, cabinClass: SupplierSearch["cabinClass"], expiresAt: Date): Promise<PricedChange[]> {
    const booking = { id: order.id, tenantId: order.tenantId, environment: scope.tenant.environment, supplier: offerSupplier(order.offer.payload).id };
    const request = {
      remove: removed.slices.map((slice) => ({ flightKeys: slice.segments.map((segment) => segment.flightKey) })),
      add: input.slices.add.map((slice) => ({ origin: slice.origin, destination: slice.destination, departureDate: slice.departureDate })),
      cabinClass,
    };
    const quotes = await quoting.quoteChanges(booking, request, order.currency);
    return quotes.slice(0, MAX_CHANGE_OFFERS).map((quote) => {
      const added = quotedPart(removed, quote.added.map(storedSlice), quote.changeTotalAmount - quote.penaltyAmount);
      return {
        added,
        ...priceChange(order, removed, added, quote.penaltyAmount),
        changeTotalAmount: quote.changeTotalAmount,
        supplierOfferId: quote.supplierOfferId,
        expiresAt: quote.expiresAt < expiresAt ? quote.expiresAt : expiresAt,
      };
    });
  }

  /** Whether the request removes every slice of the order's open airline-initiated change (none open: false). */
  private async answersAirlineChange(order: Order, input: ChangeRequestInput): Promise<boolean> {
    const airlineChange = isTicketed(order) ? await openAirlineChange(this.db, order) : null;
    if (!airlineChange) return false;
    const removing = new Set(input.slices.remove.map((slice) => slice.sliceId));
    return airlineChange.removed.slices.every((slice) => removing.has(slice.id));
  }

  /** A change request with its offers; 404 `not_found` for an unknown id or another tenant's. */
  async get(scope: TenantScope, requestId: string): Promise<OrderChangeRequest> {
    const [row, offers] = await Promise.all([
      this.db.prisma.orderChangeRequest.findFirst({ where: { id: requestId, tenantId: scope.tenantId } }),
      this.db.prisma.orderChangeOffer.findMany({ where: { changeRequestId: requestId, tenantId: scope.tenantId }, orderBy: [{ changeTotalAmount: "asc" }, { id: "asc" }] }),
    ]);
    if (!row) throw appError("not_found", { field: "id" });
    return changeRequestFrom(row, offers.map(changeOfferFrom));
  }

  /** A change offer; 404 `not_found` (naming `field`) for an unknown id or another tenant's. */
  async offer(scope: TenantScope, offerId: string, field = "id"): Promise<OrderChangeOffer> {
    const row = await this.db.prisma.orderChangeOffer.findFirst({ where: { id: offerId, tenantId: scope.tenantId } });
    if (!row) throw appError("not_found", { field, message: `${field}: no such order change offer` });
    return changeOfferFrom(row);
  }

  /**
   * The airline search for the added slices: the order's passengers in the cabin asked, checked as
   * a search is, with the errors naming the request's fields (`slices.add[0].origin`).
   */
  private searchFor(order: Order, input: ChangeRequestInput, cabinClass: SupplierSearch["cabinClass"], now: Date): ResolvedSearch {
    const request = {
      slices: input.slices.add.map((slice) => ({ origin: slice.origin, destination: slice.destination, departureDate: slice.departureDate })),
      passengers: order.offer.payload.passengers.map((passenger) => ({ id: passenger.id, type: passenger.type })),
      cabinClass,
      maxConnections: CHANGE_MAX_CONNECTIONS,
      returnOffers: true,
      supplierTimeoutMs: 0,
      supplierBehaviour: undefined,
      fieldPrefix: "",
    };
    try {
      return resolveSearch(request, this.airports, now);
    } catch (error) {
      if (!(error instanceof AppError) || error.details.field === undefined) throw error;
      const rename = (text: string | undefined) => text?.replaceAll("slices[", "slices.add[");
      throw new AppError(error.code, { ...error.details, field: rename(error.details.field), message: rename(error.details.message) });
    }
  }
}
